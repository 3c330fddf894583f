import { Worker } from "node:worker_threads";
import { exportRowsWorkerUrl } from "./export-rows-worker-url";

/** What an export's worker is given (app/.server/export-rows.worker.ts). */
export interface ExportRowsJob {
  path: string;
  sql: string;
  params: unknown[];
  batchRows: number;
}

/** What the server asks of an export's worker: its next batch, or to end (it ends itself: see the worker). */
export type ExportRowsRequest = "more" | "stop";

/** A worker's answer to 'more': the next rows (none left once `done`), or why the query failed. */
export type ExportRowsReply = { rows: unknown[][]; done: boolean } | { error: string };

/**
 * Rows per message. The server copies each message in as it arrives (a structured clone, on its own
 * thread): 256 rows of the audit trail or of the patients, 65–80 KB, take 0.3–0.4 ms.
 */
const BATCH_ROWS = 256;

/** Batches asked for ahead of the one being written, so the worker keeps ahead of the server on a busy machine. */
const AHEAD = 2;

/**
 * A download that asks for no rows for this long (a client that stopped reading but keeps its
 * connection) is given up: its worker would otherwise hold a thread and a snapshot that keeps the
 * WAL from being checkpointed past it.
 */
export const EXPORT_IDLE_MS = 5 * 60_000;

/**
 * The rows of an export's query, read in a worker thread (app/.server/export-rows.worker.ts), so
 * that however long SQLite takes between two matching rows, the server goes on answering. `next()`
 * resolves to the next batch, or null after the last; the next AHEAD batches are already being read.
 * `close()` stops the worker (after the last batch, on an error, when the download is cancelled, or
 * after `idleMs` without a `next()`); it ends after the batch it is reading, and `ended` resolves.
 */
export function exportRows(path: string, sql: string, params: unknown[], { idleMs = EXPORT_IDLE_MS } = {}) {
  const job: ExportRowsJob = { path, sql, params, batchRows: BATCH_ROWS };
  const worker = new Worker(exportRowsWorkerUrl, { workerData: job });
  let closed = false;
  let finished = false;
  /** Replies in order, and the callers waiting for them. */
  const replies: Promise<ExportRowsReply>[] = [];
  let answer: ((reply: ExportRowsReply) => void)[] = [];
  const ask = () => {
    replies.push(new Promise((resolve) => answer.push(resolve)));
    worker.postMessage("more" satisfies ExportRowsRequest);
  };
  const settle = (reply: ExportRowsReply) => answer.shift()?.(reply);
  worker.on("message", settle);
  // A worker that cannot start or dies answers every question left with its error.
  const fail = (error: unknown) => {
    const reply = { error: error instanceof Error ? error.message : String(error) };
    for (const resolve of answer) resolve(reply);
    answer = [];
  };
  worker.on("error", fail);
  const ended = new Promise<void>((resolve) =>
    worker.on("exit", (code) => {
      fail(new Error(`export worker exited (${code})`));
      resolve();
    }),
  );
  for (let i = 0; i < AHEAD; i += 1) ask();
  let idle: NodeJS.Timeout | undefined;
  // The worker is asked to end, never terminated: see export-rows.worker.ts.
  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(idle);
    worker.postMessage("stop" satisfies ExportRowsRequest);
  };
  const waitForNext = () => {
    clearTimeout(idle);
    idle = setTimeout(close, idleMs).unref();
  };
  waitForNext();
  return {
    async next(): Promise<unknown[][] | null> {
      if (finished) return null;
      if (closed) throw new Error("export closed (cancelled, failed, or no rows asked for within the idle limit)");
      // Idle only while the server is not waiting for rows.
      clearTimeout(idle);
      const reply = await replies.shift()!;
      waitForNext();
      if ("error" in reply) {
        close();
        throw new Error(reply.error);
      }
      if (!reply.done) {
        ask();
        return reply.rows;
      }
      finished = true;
      close();
      return reply.rows.length ? reply.rows : null;
    },
    close,
    ended,
  };
}

/**
 * Runs one statement on the database at `path` in a worker thread, as an export's query is read:
 * its rows (none for a statement that returns none). For a statement that may run for seconds or
 * minutes before its first row (a backup's VACUUM INTO and integrity_check, each over the whole
 * file), which in the server's thread would hold up every request meanwhile. The connection is
 * read-only: VACUUM INTO writes only its target.
 */
export async function runInWorker(path: string, sql: string, params: unknown[] = []): Promise<unknown[][]> {
  const rows = exportRows(path, sql, params);
  const all: unknown[][] = [];
  try {
    for (let batch = await rows.next(); batch; batch = await rows.next()) all.push(...batch);
    return all;
  } finally {
    rows.close();
  }
}
