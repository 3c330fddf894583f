/**
 * Crash safety (ADR 0002, 0011): the production server (server.mjs on the build the suite just
 * made) takes patient creations through the real HTTP login and form action from several writers
 * at once and is killed with SIGKILL, again and again. After every restart every write it
 * acknowledged (the 302 after the POST) is in the database, PRAGMA integrity_check is ok, and at
 * the end the audit chain verifies.
 *
 *   CRASH_CYCLES    kills to make (default 15); CRASH_SECONDS bounds the loop (default 45)
 *
 * Its own server and database (tests/.tmp/crash*.sqlite), on a port the system picks.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { verifyChainSync } from "../../app/.server/audit-chain";
import { ACCOUNTS, PASSWORD } from "./accounts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DATABASE = path.join(ROOT, `tests/.tmp/crash${process.env.E2E_DB_SUFFIX ?? ""}.sqlite`);
const CYCLES = Number(process.env.CRASH_CYCLES ?? 15);
const SECONDS = Number(process.env.CRASH_SECONDS ?? 45);
const WRITERS = 3;
const ENV = { ...process.env, DATABASE_PATH: DATABASE, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1" };

let server: ChildProcess | null = null;

/** Starts server.mjs and resolves with its base URL once it listens. */
function start(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "server.mjs")], { cwd: ROOT, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
    server = child;
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${output}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /Sinapse: http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
}

function kill(): Promise<void> {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

test.afterAll(() => kill());

/** Signs in through POST /auth as a person would; the session cookie to send back. */
async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ intent: "login", email: ACCOUNTS.staff.email, password: PASSWORD }),
  });
  expect(response.status, "login").toBe(302);
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("sinapse_session="));
  expect(cookie, "session cookie").toBeTruthy();
  return cookie!;
}

/** Creates patients through POST /patients until `stopped()`, adding each name the server acknowledged. */
async function writer(base: string, cookie: string, label: string, stopped: () => boolean, acknowledged: string[]): Promise<void> {
  for (let n = 0; !stopped(); n += 1) {
    const name = `Crash ${label}-${n}`;
    try {
      const response = await fetch(`${base}/patients`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: base },
        body: new URLSearchParams({ intent: "create", name, phone: "11987654321" }),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status === 302) acknowledged.push(name);
      else if (!stopped()) throw new Error(`POST /patients answered ${response.status}`);
    } catch (error) {
      if (stopped()) break; // killed mid-request: not acknowledged
      throw error;
    }
  }
}

test("SIGKILL under write load loses no acknowledged write and keeps the database and the audit chain intact", async () => {
  test.setTimeout(180_000);
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(DATABASE + suffix, { force: true });
  for (const script of ["db/migrate.ts", "tests/e2e/setup-accounts.ts"]) {
    const run = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), [script], { cwd: ROOT, env: ENV, encoding: "utf8" });
    expect(run.status, `${script}: ${run.stderr}`).toBe(0);
  }
  /** A fresh connection, as a restarted process opens it (a long-lived one keeps FTS5's cached structure). */
  const open = () => {
    const conn = new Database(DATABASE, { readonly: true });
    conn.pragma("busy_timeout = 10000");
    return conn;
  };

  let base = await start();
  const cookie = await signIn(base);
  const started = performance.now();
  const acknowledged: string[] = [];
  let cycles = 0;
  while (cycles < CYCLES && (performance.now() - started) / 1000 < SECONDS) {
    cycles += 1;
    let stop = false;
    const before = acknowledged.length;
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(base, cookie, `${cycles}.${w}`, () => stop, acknowledged));
    // Kill at a random moment once the writers are going (a few writes acknowledged, more in flight).
    const going = performance.now();
    while (acknowledged.length < before + WRITERS && performance.now() - going < 10_000) await new Promise((r) => setTimeout(r, 20));
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 400));
    stop = true;
    await kill();
    await Promise.all(writers);

    base = await start();
    const check = open();
    const present = check.prepare("select 1 from patients where name = ?");
    const missing = acknowledged.filter((name) => present.get(name) === undefined);
    const integrity = check.pragma("integrity_check", { simple: true });
    check.close();
    expect(missing, `after kill ${cycles}`).toEqual([]);
    expect(integrity, `after kill ${cycles}`).toBe("ok");
  }
  await kill();
  expect(cycles).toBeGreaterThanOrEqual(Math.min(CYCLES, 5));
  expect(acknowledged.length).toBeGreaterThanOrEqual(cycles * WRITERS);
  const db = open();
  expect(verifyChainSync(db)).toMatchObject({ intact: true });
  // Each acknowledged creation has its audit entry, written in the same transaction.
  const audited = db.prepare("select count(*) from audit_log where action = 'create' and entity = 'patient'").pluck().get() as number;
  expect(audited).toBeGreaterThanOrEqual(acknowledged.length);
  db.close();
  console.log(`crash test: ${cycles} SIGKILLs in ${((performance.now() - started) / 1000).toFixed(1)} s, ${acknowledged.length} acknowledged writes, all present`);
});
