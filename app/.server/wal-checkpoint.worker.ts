import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
import type { WalCheckpointJob, WalCheckpointRequest } from "./wal-checkpointer";

/**
 * The WAL's checkpoint, in a thread of its own (`startWalCheckpointer` in ./wal-checkpointer.ts):
 * every `everyMs`, a passive checkpoint through a connection of its own. It waits for no reader and
 * no writer, so the server's thread goes on answering while it copies the WAL's pages into the
 * database file and syncs both (the syncs are most of its time). Each checkpoint's result is posted
 * (`{ busy, log, checkpointed }`, SQLite's own) for whoever listens. It ends itself when told to stop.
 */
const { path, everyMs } = workerData as WalCheckpointJob;
const port = parentPort!;
const connection = new Database(path, { fileMustExist: true });

const timer = setInterval(() => {
  try {
    port.postMessage(connection.pragma("wal_checkpoint(PASSIVE)", { simple: false }));
  } catch (error) {
    console.error("WAL checkpoint failed", error);
  }
}, everyMs);

port.on("message", (request: WalCheckpointRequest) => {
  if (request !== "stop") return;
  clearInterval(timer);
  try {
    connection.close();
  } finally {
    port.close();
  }
});
