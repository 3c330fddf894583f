/**
 * Runs in every test file's process before the file is imported: points the app at a fresh
 * SQLite file, applies the migrations, and removes the file when the file's tests are done.
 * process.env.TZ is left as it is, so the suite can be run under TZ=UTC, TZ=Asia/Tokyo, etc.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const databaseFile = path.join(os.tmpdir(), `sinapse-test-${process.pid}-${randomUUID()}.sqlite`);
process.env.DATABASE_PATH = databaseFile;
// Uploaded documents of this file's tests (app/.server/uploads.ts), removed with the database.
process.env.DOCUMENTS_DIR = databaseFile.replace(/\.sqlite$/, "-documents");

// Imported only now: db.ts opens DATABASE_PATH when it is first evaluated.
const { runMigrations, sqlite } = await import("~/.server/db");

runMigrations(sqlite);

afterAll(() => {
  if (sqlite.open) sqlite.close();
  globalThis.__sinapseSqlite = undefined;
  for (const suffix of ["", "-wal", "-shm", "-journal"]) {
    fs.rmSync(`${databaseFile}${suffix}`, { force: true });
  }
  // The documents directory beside the database (app/.server/uploads.ts).
  fs.rmSync(databaseFile.replace(/\.sqlite$/, "-documents"), { recursive: true, force: true });
});
