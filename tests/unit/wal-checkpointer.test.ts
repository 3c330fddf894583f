/**
 * The WAL's checkpoint in a thread of its own (app/.server/wal-checkpointer.ts): the server's
 * connection no longer checkpoints every thousand pages (a view of patient data writes about
 * eight), and a view committed without a sync reaches the database file within the thread's
 * interval. "In the file" is read from a copy of the database file alone, without its WAL: what a
 * power cut would leave.
 */
import fs from "node:fs";
import Database from "better-sqlite3";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordView } from "~/.server/audit";
import { databasePath, sqlite } from "~/.server/db";
import { WAL_AUTOCHECKPOINT_PAGES, startWalCheckpointer } from "~/.server/wal-checkpointer";
import { type SignedIn, getRequest, loginAs } from "../support/fixtures";

let admin: SignedIn;
let running: ReturnType<typeof startWalCheckpointer> | undefined;

beforeAll(async () => {
  admin = await loginAs("admin");
});

afterEach(async () => {
  running?.stop();
  await running?.ended;
  running = undefined;
});

function viewsInFile() {
  const copy = `${databasePath}.file-only`;
  fs.copyFileSync(databasePath, copy);
  const file = new Database(copy, { readonly: true });
  try {
    return file.prepare("select count(*) from audit_log where action = 'view'").pluck().get() as number;
  } finally {
    file.close();
    fs.rmSync(copy);
  }
}

const viewsInDatabase = () => sqlite.prepare("select count(*) from audit_log where action = 'view'").pluck().get() as number;
const autocheckpoint = () => sqlite.pragma("wal_autocheckpoint", { simple: true });

function recordViews(n: number) {
  for (let id = 1; id <= n; id += 1) recordView(getRequest(`/patients/${id}`), { id: admin.id }, "patient", id);
}

describe("the WAL's checkpoint thread", () => {
  it("leaves a burst of views to the thread: the server's connection does not checkpoint every thousand pages", async () => {
    expect(autocheckpoint()).toBe(1_000);
    // An interval no test reaches: only the server's connection could checkpoint here.
    running = startWalCheckpointer(sqlite, databasePath, 3_600_000);
    expect(autocheckpoint()).toBe(WAL_AUTOCHECKPOINT_PAGES);
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    const before = viewsInFile();
    // About 8 pages of WAL each: 400 views are over three times SQLite's default of 1 000 pages.
    recordViews(400);
    expect(viewsInDatabase()).toBe(before + 400);
    expect(viewsInFile()).toBe(before);
    running.stop();
    await running.ended;
    // Stopped, the connection checkpoints itself again.
    expect(autocheckpoint()).toBe(1_000);
  });

  it("copies a view committed without a sync into the database file at its next checkpoint", async () => {
    running = startWalCheckpointer(sqlite, databasePath, 50);
    await running.nextCheckpoint();
    const before = viewsInFile();
    recordViews(1);
    expect(viewsInFile()).toBe(before);
    // The checkpoint that began before the view may not have copied it: the one after it has.
    let checkpoint = await running.nextCheckpoint();
    if (viewsInFile() === before) checkpoint = await running.nextCheckpoint();
    expect(checkpoint.busy).toBe(0);
    expect(checkpoint.checkpointed).toBe(checkpoint.log);
    expect(viewsInFile()).toBe(before + 1);
  });
});
