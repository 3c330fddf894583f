/**
 * A background worker inside the server process (the WhatsApp delivery, the Google Calendar push):
 * a pass every `tickMs`, one at a time — a pass asked for while one runs runs again right after it.
 * Not under Vitest (tests drive the passes themselves) nor with `<offEnv>=off` (a second process on
 * the same database, such as a maintenance script). The state lives on globalThis, so the dev
 * server's module reloads never start a second timer.
 */
interface WorkerState {
  timer: NodeJS.Timeout;
  running: boolean;
  again: boolean;
  tick: () => Promise<void>;
}

declare global {
  var __sinapseWorkers: Map<string, WorkerState> | undefined;
}

const workers = (globalThis.__sinapseWorkers ??= new Map<string, WorkerState>());

export interface WorkerOptions {
  /** Names the worker in the registry and in its error log line. */
  name: string;
  tickMs: number;
  /** The environment variable that turns it off with the value `off`. */
  offEnv: string;
  pass: () => Promise<unknown>;
}

/** Starts the worker once per process (later calls do nothing). */
export function startWorker({ name, tickMs, offEnv, pass }: WorkerOptions) {
  if (workers.has(name) || process.env.VITEST || process.env[offEnv] === "off") return;
  const state: WorkerState = {
    timer: setInterval(() => void state.tick(), tickMs),
    running: false,
    again: false,
    tick: async () => {
      if (state.running) {
        state.again = true;
        return;
      }
      state.running = true;
      try {
        do {
          state.again = false;
          await pass();
        } while (state.again);
      } catch (error) {
        console.error(`${name} worker pass failed`, error);
      } finally {
        state.running = false;
      }
    },
  };
  state.timer.unref();
  workers.set(name, state);
  setImmediate(() => void state.tick());
}

/** Asks a started worker for a pass after `delayMs` instead of at its next tick (nothing when not started). */
export function wakeWorker(name: string, delayMs = 0) {
  const state = workers.get(name);
  if (state) setTimeout(() => void state.tick(), delayMs).unref();
}
