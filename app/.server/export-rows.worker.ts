import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
import type { ExportRowsJob, ExportRowsReply, ExportRowsRequest } from "./export-rows";
import { STREAM_PAGE_CACHE_KIB } from "./page-cache";
import { registerFunctions } from "./sql-functions";

/**
 * An export's query, stepped in a thread of its own (`exportRows` in ./export-rows.ts): its rows as
 * arrays of stored values, `batchRows` at a time, each batch when the server asks for it (or a
 * statement that returns none, such as a backup's VACUUM INTO, run whole: `runInWorker`). SQLite
 * may pass over a long stretch of rows between two matches (a search that is rare in a million
 * appointments); here that holds up no request. The connection is read-only and the statement
 * reads one snapshot from its first row to its last.
 *
 * The worker ends itself when told to stop (or after an error): stopped from outside while inside
 * better-sqlite3, a worker can take the whole process down with it.
 */
const { path, sql, params, batchRows } = workerData as ExportRowsJob;
const port = parentPort!;
let connection: Database.Database | undefined;
let rows: IterableIterator<unknown[]> | undefined;

/** Ends the statement, the connection and the thread (nothing is left to keep it running). */
function stop() {
  try {
    rows?.return?.();
    connection?.close();
  } finally {
    port.close();
  }
}

port.on("message", (request: ExportRowsRequest) => {
  if (request === "stop") return stop();
  let reply: ExportRowsReply;
  try {
    if (!connection) {
      connection = new Database(path, { readonly: true, fileMustExist: true });
      connection.pragma(`cache_size = -${STREAM_PAGE_CACHE_KIB}`);
      registerFunctions(connection);
      const statement = connection.prepare(sql);
      // A statement that returns no rows (a backup's VACUUM INTO) is run whole: its batch is empty.
      if (statement.reader) rows = statement.raw(true).iterate(...params) as IterableIterator<unknown[]>;
      else {
        statement.run(...params);
        rows = [][Symbol.iterator]();
      }
    }
    const batch: unknown[][] = [];
    let done = false;
    while (batch.length < batchRows) {
      const next = rows!.next();
      if (next.done) {
        done = true;
        break;
      }
      batch.push(next.value);
    }
    reply = { rows: batch, done };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
  if ("error" in reply) stop();
});
