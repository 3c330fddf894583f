import type Database from "better-sqlite3";
import { Worker } from "node:worker_threads";
import { walCheckpointWorkerUrl } from "./wal-checkpoint-worker-url";

/** What the checkpoint thread is given (app/.server/wal-checkpoint.worker.ts). */
export interface WalCheckpointJob {
  path: string;
  everyMs: number;
}

/** What the server asks of the checkpoint thread: only to end (it ends itself). */
export type WalCheckpointRequest = "stop";

/** A checkpoint's result as SQLite gives it: `log` pages in the WAL, `checkpointed` of them copied. */
export interface WalCheckpoint {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * How often the thread checkpoints: also the longest a view of patient data, committed without a
 * sync (app/.server/audit.ts), waits to be synced when nothing else is written.
 */
export const WAL_CHECKPOINT_MS = 1_000;

/**
 * The server's own connection's checkpoint while the thread runs: SQLite's, after this many pages
 * of WAL (its default is 1 000), kept only as the WAL's bound (40 MB). Under a steady stream of
 * writes the thread never finds the WAL quite copied at the moment the next write begins, which is
 * when SQLite starts it over from the beginning; this checkpoint, in the server's thread, does.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** SQLite's own, put back when the thread ends. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/**
 * Moves the WAL's checkpoint off the server's thread: a worker thread checkpoints the database at
 * `path` every `everyMs` (passively: it waits for no one), and `connection`, the server's, checkpoints
 * itself only every WAL_AUTOCHECKPOINT_PAGES. A checkpoint is mostly two syncs (6-9 ms on the
 * measured machine); the patient record, which writes its audit entry on every view, ran one every
 * ~130 views in the server's thread, holding up every request queued behind it
 * (docs/decisions/0008-performance-budget-and-server.md). If the thread fails or is stopped, the
 * connection checkpoints itself as before.
 */
export function startWalCheckpointer(connection: Database.Database, path: string, everyMs = WAL_CHECKPOINT_MS) {
  const worker = new Worker(walCheckpointWorkerUrl, { workerData: { path, everyMs } satisfies WalCheckpointJob });
  // The thread never keeps the process alive: a checkpoint cut short is finished by the next one.
  worker.unref();
  connection.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  worker.on("error", (error) => console.error("The WAL checkpoint thread failed", error));
  const ended = new Promise<void>((resolve) =>
    worker.on("exit", () => {
      if (connection.open) connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      resolve();
    }),
  );
  return {
    /** Resolves with the thread's next checkpoint. */
    nextCheckpoint: () => new Promise<WalCheckpoint>((resolve) => worker.once("message", (rows: WalCheckpoint[]) => resolve(rows[0]))),
    /** Asks the thread to end (after the checkpoint it may be running); `ended` resolves then. */
    stop: () => worker.postMessage("stop" satisfies WalCheckpointRequest),
    ended,
  };
}
