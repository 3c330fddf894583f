/**
 * `npm run bench`: load figures of the production server on a database of any size.
 *
 * Builds the app into BENCH_BUILD_DIR (default build-bench) unless that build is current (as
 * `npm start` judges it: scripts/build-stamp.mjs), starts it the way `npm run serve` does (server.mjs, NODE_ENV=production) on
 * 127.0.0.1 against DATABASE_PATH (default db/clinic.sqlite), signs in, and measures each screen
 * with autocannon run from a second process, at 1 and at 20 connections, for BENCH_SECONDS
 * (default 5) each. The same run measures two floors: the unauthenticated /auth page and a bare
 * node:http server (its own process) answering with /auth's bytes. A screen's run at 20 connections
 * is SLICES slices alternating with slices of /auth (the machine's speed drifts within seconds), and
 * its ratio is to those; the pairs compared at 1 connection (a deep page and page 1, a common and a
 * rare search) are measured the same way, alternating between their two URLs. Results go to
 * docs/performance.md (BENCH_OUT) beside the targets of the issue 'Performance at a large
 * practice's scale'; the script exits 0 whether they pass or not. Every child process it starts
 * is stopped on the way out, also on Ctrl-C or an error.
 *
 * Environment: DATABASE_PATH, BENCH_SECONDS, BENCH_EMAIL / BENCH_PASSWORD (else SCALE_ADMIN_EMAIL /
 * SCALE_ADMIN_PASSWORD, else the default admins of seed:scale and seed:demo), BENCH_PORT, BENCH_BUILD_DIR, BENCH_REBUILD=1,
 * BENCH_OUT, BENCH_NOTE (a sentence printed under the title).
 */
import Database from "better-sqlite3";
import { type ChildProcess, fork, spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { normalizeSearch } from "../../app/lib/search.ts";
import { buildIsCurrent, sourcesHash, stampBuild, unstampBuild } from "../build-stamp.mjs";
import { SERVER_NODE_FLAGS } from "../server-flags.ts";
import { type FigureTiming, FIGURE_BUDGET_MS, figuresMarkdown } from "./kpi-figures.ts";
import type { LoadJob, LoadResult } from "./load-worker.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const HERE = path.join(ROOT, "scripts/bench");

const SECONDS = positiveNumber(process.env.BENCH_SECONDS, 5);
const WARMUP_SECONDS = 1;
/**
 * After each run, requests still queued in the server (autocannon hangs up, the server renders on)
 * must not spill into the next one: wait until a single probe of /auth is answered, at least
 * SETTLE_MS and at most DRAIN_LIMIT_MS.
 */
const SETTLE_MS = 1000;
const DRAIN_LIMIT_MS = 60_000;
const CONNECTIONS = [1, 20] as const;
/**
 * A screen at 20 connections and the /auth floor it is compared with are measured in alternating
 * slices (floor, screen, screen, floor, floor, screen), so drift during the screen's measurement
 * moves both alike: their ratio moved by 10-20 points between runs when one 5 s run of each was
 * taken 10 s apart. Each slice is SECONDS / 2 long; between slices the server drains (`settle`).
 */
const SLICES = 3;
const SLICE_SETTLE_MS = 250;
const DATABASE_PATH = path.resolve(ROOT, process.env.DATABASE_PATH ?? "db/clinic.sqlite");
const BUILD_DIR = process.env.BENCH_BUILD_DIR ?? "build-bench";
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? "docs/performance.md");
/**
 * Logins tried in turn: BENCH_EMAIL/BENCH_PASSWORD when given (and only them); else
 * SCALE_ADMIN_EMAIL/SCALE_ADMIN_PASSWORD, then the defaults of db/seed-scale.ts and db/seed-demo.ts.
 */
const LOGINS: Array<{ email: string; password: string }> = process.env.BENCH_EMAIL
  ? [{ email: process.env.BENCH_EMAIL, password: process.env.BENCH_PASSWORD ?? "" }]
  : [
      ...(process.env.SCALE_ADMIN_EMAIL ? [{ email: process.env.SCALE_ADMIN_EMAIL, password: process.env.SCALE_ADMIN_PASSWORD ?? "" }] : []),
      { email: "admin@sinapse.scale", password: process.env.SCALE_ADMIN_PASSWORD || "sinapse-escala" },
      { email: "admin@sinapse.demo", password: "demo12345" },
    ];
const PAGE_SIZE = 25;

/** The issue's targets. */
const TARGET = {
  listRatio: 0.6,
  dashboardRatio: 0.4,
  p95Ms: 50,
  maxHtmlKb: 250,
  commonOverRare: 3,
  deepOverFirst: 1.2,
  /** A heavy export 'never blocks other requests for more than a few ms': /auth's p95 while it downloads, over its p95 alone. */
  exportWaitMs: 10,
  /** The server's resident memory after the run (read after the exports). */
  rssMb: 250,
  /** `npm start` with the build current, to its first page (the median of STARTS). */
  startS: 2,
};

/** How many times `npm start` is timed (`measureStart`). */
const STARTS = 5;

/** A word that no patient, doctor or appointment holds: its export passes over every appointment without a match. */
const NO_MATCH_WORD = "qxzqxz";

/**
 * Heavy exports, each downloaded again and again (as a browser asks, brotli) while /auth is
 * measured at 1 connection, and /auth measured alone just before: a whole table's rows written
 * out, and a search SQLite tests row by row that matches nothing (its query returns no row until
 * it has passed over all of them).
 */
const EXPORTS = [
  { label: "patients: the whole list", path: "/patients/export.csv" },
  { label: "appointments: a search matching none", path: `/appointments/export.csv?q=${NO_MATCH_WORD}` },
  { label: "cash book: every transaction", path: "/financial/export.csv" },
] as const;

interface ExportRun {
  label: string;
  path: string;
  alone: LoadResult;
  during: LoadResult;
  /** Downloads finished while /auth was measured (the last one is cut off when it ends), and the bytes received. */
  completed: number;
  bytes: number;
}

/**
 * Pairs whose cost at 1 connection is compared (the slow one's mean latency over the fast one's).
 * Each pair is measured in slices alternating between its two URLs (slow, fast, fast, slow, slow,
 * fast) after the screens, so the machine's drift moves both alike: one 5 s run of each, minutes
 * apart, moved a ratio from 0.96× to 1.21× between runs of the same code.
 */
const COMPARISONS = [
  { what: "common search vs rare search (patients)", slow: "patients: common search", fast: "patients: rare search", limit: TARGET.commonOverRare, target: "≤ 3×" },
  { what: "deep page vs page 1 (patients)", slow: "patients: deep page", fast: "patients: page 1", limit: TARGET.deepOverFirst, target: "within 20 %" },
  { what: "deep page vs page 1 (appointments)", slow: "appointments: deep page", fast: "appointments: page 1", limit: TARGET.deepOverFirst, target: "within 20 %" },
  { what: "middle page vs page 1 (appointments)", slow: "appointments: middle page", fast: "appointments: page 1", limit: TARGET.deepOverFirst, target: "within 20 %" },
  { what: "common search vs rare search (appointments)", slow: "appointments: common search", fast: "appointments: rare search", limit: TARGET.commonOverRare, target: "≤ 3×" },
  { what: "oldest events vs first page (patient record)", slow: "patient record: oldest events", fast: "patient record", limit: TARGET.deepOverFirst, target: "within 20 %" },
  { what: "deep page vs page 1 (audit trail)", slow: "audit trail: deep page", fast: "audit trail: page 1", limit: TARGET.deepOverFirst, target: "within 20 %" },
  { what: "deep page vs page 1 (message log)", slow: "messages: deep page", fast: "messages: page 1", limit: TARGET.deepOverFirst, target: "within 20 %" },
  { what: "deep page vs page 1 (documents)", slow: "files: deep page", fast: "files: page 1", limit: TARGET.deepOverFirst, target: "within 20 %" },
  { what: "common search vs rare search (documents)", slow: "files: common search", fast: "files: rare search", limit: TARGET.commonOverRare, target: "≤ 3×" },
] as const;

interface Comparison {
  what: string;
  slow: Screen;
  fast: Screen;
  limit: number;
  target: string;
  /** The two URLs' slices at 1 connection, each merged. */
  slowRun: LoadResult;
  fastRun: LoadResult;
}

function positiveNumber(raw: string | undefined, fallback: number) {
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

// ---------------------------------------------------------------------------------------------
// Child processes: every one is tracked and stopped on exit, Ctrl-C or error.

const children = new Set<ChildProcess>();

function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

/** Children started in a process group of their own (`npm start`, whose server is its grandchild): signalled as a group. */
const groups = new WeakSet<ChildProcess>();

function signal(child: ChildProcess, name: NodeJS.Signals) {
  if (!groups.has(child) || child.pid === undefined) return child.kill(name);
  try {
    process.kill(-child.pid, name);
  } catch {
    // the group is gone
  }
}

function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => signal(child, "SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    signal(child, "SIGTERM");
  });
}

async function stopAll() {
  await Promise.all([...children].map((child) => stopChild(child)));
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the benchmark's processes…`);
    stopAll().finally(() => process.exit(130));
  });
}
process.on("exit", () => {
  // Last resort (an uncaught error): no waiting is possible here, so just signal.
  for (const child of children) signal(child, "SIGKILL");
});

/** Runs a command to completion, output captured; throws with its output on failure. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] }));
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve(output) : reject(new Error(`${path.basename(args[0] ?? command)} failed (${signal ?? code}):\n${output}`)),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Build, database, server

async function ensureBuild() {
  const serverEntry = path.join(ROOT, BUILD_DIR, "server/index.js");
  // Current as `npm start` judges it (scripts/build-stamp.mjs), so its start is timed on this build as it is.
  const hash = sourcesHash(BUILD_DIR);
  if (buildIsCurrent(BUILD_DIR, hash) && process.env.BENCH_REBUILD !== "1") {
    console.log(`Build ${BUILD_DIR}/ is current: reusing it.`);
    return serverEntry;
  }
  console.log(`Building the production bundle into ${BUILD_DIR}/ …`);
  const started = Date.now();
  unstampBuild(BUILD_DIR);
  await run(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/bin.js"), "build"], {
    ...process.env,
    BUILD_DIR,
    NODE_ENV: "production",
  });
  stampBuild(BUILD_DIR, hash);
  console.log(`  built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return serverEntry;
}

function freePort(): Promise<number> {
  const wanted = Number(process.env.BENCH_PORT);
  if (Number.isInteger(wanted) && wanted > 0) return Promise.resolve(wanted);
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  base: string;
  log: () => string;
}

async function startServer(serverEntry: string): Promise<Server> {
  const port = await freePort();
  const child = track(
    // The production server (server.mjs) with the options `npm start` gives it, on the build that holds `serverEntry`.
    spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, "server.mjs")], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_PATH,
        BUILD_DIR: path.dirname(path.dirname(serverEntry)),
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const log = logOf(child);
  await untilAuthAnswers(child, base, log, { what: "The server", timeoutMs: 60_000, everyMs: 250 });
  return { child, base, log };
}

/** The last 20 000 characters a child wrote to stdout and stderr. */
function logOf(child: ChildProcess): () => string {
  let log = "";
  const keep = (chunk: Buffer) => (log = (log + chunk).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  return () => log;
}

/** Waits for `base` to answer /auth with a 200, asking every `everyMs`; throws with the child's log if it exits or `timeoutMs` passes first. */
async function untilAuthAnswers(child: ChildProcess, base: string, log: () => string, { what, timeoutMs, everyMs }: { what: string; timeoutMs: number; everyMs: number }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}):\n${log()}`);
    try {
      const response = await fetch(`${base}/auth`, { redirect: "manual" });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${what} did not answer /auth within ${timeoutMs / 1000} s:\n${log()}`);
}

/**
 * `npm start` with the build and the database current, as a clinic restarts its server: from the
 * command to its first 200 on /auth, STARTS times, each server stopped before the next. npm itself
 * is part of it (npm's own CLI when the bench runs under npm, else \`npm\` on the PATH).
 */
async function measureStart(): Promise<number[]> {
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli?.endsWith(".js") ? [process.execPath, [npmCli, "start"]] : ["npm", ["start"]];
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATABASE_PATH, BUILD_DIR },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    groups.add(child);
    track(child);
    const log = logOf(child);
    await untilAuthAnswers(child, `http://127.0.0.1:${port}`, log, { what: "npm start", timeoutMs: 120_000, everyMs: 20 });
    times.push(performance.now() - started);
    if (!/Build is up to date/.test(log())) throw new Error(`npm start rebuilt ${BUILD_DIR}/ (it should have been current):\n${log()}`);
    await stopChild(child);
  }
  return times;
}

function rssOf(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) / 1024;
  return { rssMb: field("VmRSS"), peakMb: field("VmHWM") };
}

/** Signs in through the /auth form; returns the session cookie ("sinapse_session=…") and who it is. */
async function signIn(base: string): Promise<{ cookie: string; email: string }> {
  const refused: string[] = [];
  for (const { email, password } of LOGINS) {
    const response = await fetch(`${base}/auth`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
      body: new URLSearchParams({ intent: "login", email, password }),
    });
    await response.arrayBuffer();
    const cookie = response.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .find((pair) => pair.startsWith("sinapse_session=") && pair.length > "sinapse_session=".length);
    if (response.status === 302 && cookie) return { cookie, email };
    refused.push(`${email} (HTTP ${response.status})`);
  }
  throw new Error(`Sign-in failed for ${refused.join(", ")}; set BENCH_EMAIL / BENCH_PASSWORD.`);
}

async function signOut(base: string, cookie: string) {
  try {
    const response = await fetch(`${base}/logout`, { method: "POST", redirect: "manual", headers: { Cookie: cookie, Origin: base } });
    await response.arrayBuffer();
  } catch {
    // best effort: the session expires on its own
  }
}

interface DbFacts {
  counts: Record<string, number | null>;
  sizeMb: number;
  rareToken: string;
  rareMatches: number;
  /** The patient with the most appointments: the record with the longest timeline. */
  busiestPatient: { id: number; appointments: number };
  /** The latest surgery with the most fee lines: its honorários screen. */
  feeSurgery: { id: number; lines: number };
  /** Entries of the audit trail at the start (the run adds the views it makes of patient data). */
  auditEntries: number;
  /** The referrer who sent the most patients: the longest list of referred patients. */
  busiestReferrer: { id: number; patients: number };
  /** Referred patients in all. */
  referrals: number;
  /** The rare token of the documents' search: the rare word of the patient names that the fewest documents (at least one) hold. */
  rareDocumentToken: string;
  /** The patient with the most documents: the longest list of one patient's files. */
  busiestFiler: { id: number; documents: number };
}

function countRows(sqlite: Database.Database) {
  const counts: Record<string, number | null> = {};
  for (const table of ["patients", "appointments", "surgeries", "financial_transactions", "messages", "documents"]) {
    try {
      counts[table] = (sqlite.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
    } catch {
      counts[table] = null;
    }
  }
  return counts;
}

/** The row counts again, to tell whether something rewrote the database during the run. */
function countRowsNow() {
  const sqlite = new Database(DATABASE_PATH, { readonly: true, fileMustExist: true });
  try {
    return countRows(sqlite);
  } finally {
    sqlite.close();
  }
}

function readDatabase(): DbFacts {
  const sqlite = new Database(DATABASE_PATH, { readonly: true, fileMustExist: true });
  try {
    const counts = countRows(sqlite);
    // The rare token: the least frequent word (4+ letters) of the real patient names.
    const frequency = new Map<string, number>();
    for (const { name } of sqlite.prepare("select name from patients").iterate() as Iterable<{ name: string }>) {
      for (const word of new Set(normalizeSearch(name).split(" "))) {
        if (/^[a-z]{4,}$/.test(word) && word !== "silva") frequency.set(word, (frequency.get(word) ?? 0) + 1);
      }
    }
    const candidates = [...frequency]
      .sort((a, b) => a[1] - b[1] || b[0].length - a[0].length || a[0].localeCompare(b[0]))
      .slice(0, 20)
      .map(([word]) => word);
    /** The candidate that the fewest rows (at least one) hold, by `matches`, and how many; the first candidate and 0 when none is held. */
    const rarest = (matches: Database.Statement, term: (word: string) => string) => {
      let [token, n] = [candidates[0] ?? "zzzz", Infinity];
      for (const word of candidates) {
        const held = (matches.get(term(word)) as { n: number }).n;
        if (held > 0 && held < n) [token, n] = [word, held];
      }
      return { token, n: Number.isFinite(n) ? n : 0 };
    };
    const { token: rareToken, n: rareMatches } = rarest(sqlite.prepare("select count(*) as n from patients where search_text like ?"), (word) => `%${word}%`);
    const busiest = sqlite.prepare("select patient_id as id, count(*) as appointments from appointments group by patient_id order by appointments desc limit 1").get() as
      | { id: number; appointments: number }
      | undefined;
    const feeSurgery = sqlite.prepare("select surgery_id as id, count(*) as lines from surgery_fee_lines group by surgery_id order by lines desc, surgery_id desc limit 1").get() as
      | { id: number; lines: number }
      | undefined;
    const auditEntries = (sqlite.prepare("select count(*) as n from audit_log").get() as { n: number }).n;
    const busiestReferrer = sqlite.prepare("select referrer_id as id, count(*) as patients from patient_referrals group by referrer_id order by patients desc, id limit 1").get() as
      | { id: number; patients: number }
      | undefined;
    const referrals = (sqlite.prepare("select count(*) as n from patient_referrals").get() as { n: number }).n;
    // The documents' index (migration 0050) counts each candidate's documents without reading them.
    const rareDocuments = rarest(sqlite.prepare("select count(*) as n from documents_search where documents_search match ?"), (word) => `"${word}"`);
    const rareDocumentToken = rareDocuments.n > 0 ? rareDocuments.token : rareToken;
    const busiestFiler = sqlite.prepare("select patient_id as id, count(*) as documents from documents group by patient_id order by documents desc, id limit 1").get() as
      | { id: number; documents: number }
      | undefined;
    const sizeMb = ["", "-wal"].reduce((sum, suffix) => sum + (fs.statSync(DATABASE_PATH + suffix, { throwIfNoEntry: false })?.size ?? 0), 0) / 2 ** 20;
    return {
      counts,
      sizeMb,
      rareToken,
      rareMatches,
      busiestPatient: busiest ?? { id: 1, appointments: 0 },
      feeSurgery: feeSurgery ?? { id: 1, lines: 0 },
      auditEntries,
      busiestReferrer: busiestReferrer ?? { id: 1, patients: 0 },
      referrals,
      rareDocumentToken,
      busiestFiler: busiestFiler ?? { id: 1, documents: 0 },
    };
  } finally {
    sqlite.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Pages and load

interface Page {
  status: number;
  contentType: string;
  bytes: Buffer;
  gzipBytes: number;
  text: string;
}

async function getPage(url: string, cookie?: string): Promise<Page> {
  const response = await fetch(url, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    contentType: response.headers.get("Content-Type") ?? "text/html",
    bytes,
    gzipBytes: zlib.gzipSync(bytes).length,
    text: bytes.toString("utf8").replace(/<!-- -->/g, ""),
  };
}

/** 'Página 1 de 1.234' → 1234 (React puts comment markers between the text parts; removed above). */
function lastPageOf(page: Page): number | null {
  const match = /Página\s+1\s+de\s+([\d.\s\u00a0]+)/.exec(page.text);
  const n = match ? Number(match[1].replace(/\D/g, "")) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** The cursor of a patient record's 'Mais antigos' link (`?ate=`), or null on the timeline's last page. */
function olderEventsCursor(page: Page): string | null {
  return /href="\/patients\/\d+\?ate=([\d.-]+)"/.exec(page.text)?.[1] ?? null;
}

/** '1.234 registros' → "1,234"; a capped count ('10.000+ registros') keeps its '+'. */
function totalOf(page: Page): string | null {
  const match = /([\d.]+)\s*(\+?)\s*registros?\b/.exec(page.text);
  return match ? Number(match[1].replace(/\D/g, "")).toLocaleString("en-US") + match[2] : null;
}

class LoadGenerator {
  private child = track(fork(path.join(HERE, "load-worker.ts"), [], { execArgv: ["--import", "tsx"], cwd: ROOT, stdio: ["ignore", "inherit", "inherit", "ipc"] }));
  private nextId = 1;
  private pending = new Map<number, (result: LoadResult) => void>();

  constructor() {
    this.child.on("message", (result: LoadResult) => {
      this.pending.get(result.id)?.(result);
      this.pending.delete(result.id);
    });
    this.child.on("exit", (code) => {
      if (stopping) return; // Ctrl-C: the benchmark is on its way out, nothing left to report
      for (const [, resolve] of this.pending) resolve({ error: `load worker exited (${code})` } as LoadResult);
      this.pending.clear();
    });
  }

  measure(url: string, connections: number, seconds: number, headers: Record<string, string>): Promise<LoadResult> {
    const job: LoadJob = { id: this.nextId++, url, connections, seconds, headers };
    return new Promise((resolve) => {
      this.pending.set(job.id, resolve);
      this.child.send(job);
    });
  }
}

function startPlainServer(page: Page): Promise<{ child: ChildProcess; base: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-bench-"));
  const bodyPath = path.join(dir, "auth.html");
  fs.writeFileSync(bodyPath, page.bytes);
  const configPath = path.join(dir, "plain.json");
  fs.writeFileSync(configPath, JSON.stringify({ bodyPath, contentType: page.contentType }));
  const child = track(fork(path.join(HERE, "plain-server.ts"), [configPath], { execArgv: ["--import", "tsx"], cwd: ROOT }));
  child.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("The plain node:http server did not start within 30 s")), 30_000);
    child.once("message", (message: { port: number }) => {
      clearTimeout(timer);
      resolve({ child, base: `http://127.0.0.1:${message.port}` });
    });
    child.once("exit", (code) => reject(new Error(`The plain node:http server exited (${code})`)));
  });
}

interface Screen {
  label: string;
  path: string;
  kind: "list" | "dashboard" | "floor" | "plain";
  page?: Page;
  runs: Partial<Record<number, LoadResult>>;
  /** /auth at 20 connections measured in slices alternating with this screen's: its ratio's floor. */
  floorBefore?: LoadResult;
}

let probeUrl = "";

async function settle(ms = SETTLE_MS) {
  await new Promise((resolve) => setTimeout(resolve, ms));
  if (!probeUrl) return;
  try {
    const response = await fetch(probeUrl, { redirect: "manual", signal: AbortSignal.timeout(DRAIN_LIMIT_MS) });
    await response.arrayBuffer();
  } catch {
    // still busy after DRAIN_LIMIT_MS: go on, the next figures will show it
  }
}

/**
 * `url` at each of CONNECTIONS; with `floorUrl`, the run at 20 connections is SLICES slices of it
 * alternating with slices of `floorUrl`, merged into the screen's run and its `floorBefore`.
 */
async function measureScreen(load: LoadGenerator, screen: Screen, url: string, headers: Record<string, string>, floorUrl?: string) {
  process.stdout.write(`  ${screen.label.padEnd(34)}`);
  await load.measure(url, 20, WARMUP_SECONDS, headers);
  for (const connections of CONNECTIONS) {
    await settle();
    let result: LoadResult;
    if (floorUrl && connections === 20) {
      const floorSlices: LoadResult[] = [];
      const slices: LoadResult[] = [];
      for (let i = 0; i < SLICES; i++) {
        const floorFirst = i % 2 === 0;
        for (const floor of floorFirst ? [true, false] : [false, true]) {
          await settle(SLICE_SETTLE_MS);
          if (floor) floorSlices.push(await load.measure(floorUrl, 20, SECONDS / 2, {}));
          else slices.push(await load.measure(url, 20, SECONDS / 2, headers));
        }
      }
      screen.floorBefore = mergedSlices(floorSlices);
      result = mergedSlices(slices);
    } else {
      result = await load.measure(url, connections, SECONDS, headers);
    }
    screen.runs[connections] = result;
    process.stdout.write(`  c${connections}: ${fmt(result.reqPerSec, 0).padStart(5)} req/s p95 ${fmt(result.p95, 1).padStart(6)} ms`);
    if (result.non2xx || result.errors || result.timeouts || result.error || !result.requests) {
      process.stdout.write(` [status ${JSON.stringify(result.statusCodes)}, errors ${result.errors}, timeouts ${result.timeouts}${result.error ? `, ${result.error}` : ""}]`);
    }
  }
  process.stdout.write("\n");
}

/**
 * Slices of one URL as one run: requests and errors summed, req/s over their whole time, and each
 * latency percentile the median of the slices' (their latencies are not kept), the max the max.
 */
function mergedSlices(slices: LoadResult[]): LoadResult {
  const median = (pick: (r: LoadResult) => number) => {
    const sorted = slices.map(pick).sort((a, b) => a - b);
    return sorted[sorted.length >> 1]!;
  };
  const sum = (pick: (r: LoadResult) => number) => slices.reduce((total, r) => total + pick(r), 0);
  const seconds = sum((r) => (r.reqPerSec ? r.requests / r.reqPerSec : 0));
  const statusCodes: Record<string, number> = {};
  for (const r of slices) for (const [code, n] of Object.entries(r.statusCodes ?? {})) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    id: slices[0]!.id,
    requests: sum((r) => r.requests),
    reqPerSec: seconds ? sum((r) => r.requests) / seconds : 0,
    p50: median((r) => r.p50),
    p95: median((r) => r.p95),
    p99: median((r) => r.p99),
    mean: sum((r) => r.mean * r.requests) / Math.max(1, sum((r) => r.requests)),
    max: Math.max(...slices.map((r) => r.max)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
    error: slices.find((r) => r.error)?.error,
  };
}

/** Each of COMPARISONS at 1 connection, in SLICES pairs of slices alternating between its URLs. */
async function measureComparisons(load: LoadGenerator, screens: Screen[], base: string, headers: Record<string, string>): Promise<Comparison[]> {
  const comparisons: Comparison[] = [];
  for (const pair of COMPARISONS) {
    const slow = screens.find((s) => s.label === pair.slow)!;
    const fast = screens.find((s) => s.label === pair.fast)!;
    process.stdout.write(`  ${pair.what.padEnd(46)}`);
    const slices = { slow: [] as LoadResult[], fast: [] as LoadResult[] };
    for (let i = 0; i < SLICES; i++) {
      for (const which of i % 2 === 0 ? (["slow", "fast"] as const) : (["fast", "slow"] as const)) {
        await settle(SLICE_SETTLE_MS);
        slices[which].push(await load.measure(base + (which === "slow" ? slow : fast).path, 1, SECONDS / 2, headers));
      }
    }
    const comparison = { ...pair, slow, fast, slowRun: mergedSlices(slices.slow), fastRun: mergedSlices(slices.fast) };
    console.log(`${fmt(comparison.slowRun.mean, 2)} vs ${fmt(comparison.fastRun.mean, 2)} ms`);
    comparisons.push(comparison);
  }
  return comparisons;
}

/** How long a cancelled export download may take to end before the run stops with an error. */
const EXPORT_STOP_MS = 10_000;

/** `promise`, or an error once `ms` have passed without it settling (a hang reported, not waited on for good). */
async function withinMs<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Each heavy export downloaded again and again while /auth is measured at 1 connection, after /auth alone (`EXPORTS`). */
async function measureExports(load: LoadGenerator, base: string, headers: Record<string, string>): Promise<ExportRun[]> {
  const runs: ExportRun[] = [];
  for (const { label, path: exportPath } of EXPORTS) {
    process.stdout.write(`  ${label.padEnd(34)} `);
    await settle();
    const alone = await load.measure(`${base}/auth`, 1, SECONDS, {});
    await settle();
    const stop = new AbortController();
    let completed = 0;
    let bytes = 0;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const downloading = (async () => {
      while (!stop.signal.aborted) {
        const response = await fetch(base + exportPath, { headers: { ...headers, "Accept-Encoding": "br" }, signal: stop.signal });
        if (response.status !== 200) throw new Error(`${exportPath} answered HTTP ${response.status}`);
        reader = response.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length;
        completed += 1;
      }
    })().catch((error: unknown) => {
      if (!stop.signal.aborted) throw error;
    });
    const during = await load.measure(`${base}/auth`, 1, SECONDS, {});
    stop.abort();
    // The abort alone can leave a read of the decompressed body pending for good while the server
    // is still between rows (seen 1 time in 25 with brotli); cancelling the reader ends it.
    reader?.cancel().catch(() => {});
    await withinMs(downloading, EXPORT_STOP_MS, `${exportPath}: the download did not stop within ${EXPORT_STOP_MS} ms of its abort`);
    console.log(`p95 ${fmt(alone.p95, 1)} → ${fmt(during.p95, 1)} ms, ${completed} downloads`);
    runs.push({ label, path: exportPath, alone, during, completed, bytes });
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------
// Report

/** A run that cannot be trusted: an error, no response at all, or answers other than 2xx. */
const isBroken = (run: LoadResult) => Boolean(run.error || !run.requests || run.non2xx || run.errors);

function fmt(value: number | null | undefined, digits = 1) {
  return value == null || !Number.isFinite(value) ? "–" : value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

/** The lowest and highest /auth run measured before the screens, req/s. */
function floorSpread(screens: Screen[]) {
  const runs = screens.map((s) => s.floorBefore?.reqPerSec).filter((n): n is number => n !== undefined);
  return runs.length ? `${fmt(Math.min(...runs), 0)}–${fmt(Math.max(...runs), 0)} req/s` : "not measured";
}

interface Check {
  what: string;
  ok: boolean;
}

function machine() {
  const cpuinfo = fs.readFileSync("/proc/cpuinfo", "utf8");
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? "unknown";
  let nproc = String(os.availableParallelism());
  try {
    nproc = execFileSync("nproc", { encoding: "utf8" }).trim();
  } catch {
    // keep Node's count
  }
  return { nproc, model, memGb: os.totalmem() / 2 ** 30 };
}

function appRevision() {
  try {
    const env = { ...process.env, GIT_OPTIONAL_LOCKS: "0" };
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8", env }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no", "--", "app", "db"], { cwd: ROOT, encoding: "utf8", env }).trim();
    return dirty ? `${head} + uncommitted changes in app/ or db/` : head;
  } catch {
    return "unknown";
  }
}

function report(input: {
  screens: Screen[];
  floor: Screen;
  plain: Screen;
  floorAfter: LoadResult;
  comparisons: Comparison[];
  exportRuns: ExportRun[];
  db: DbFacts;
  countsAfter: Record<string, number | null>;
  email: string;
  rss: { rssMb: number; peakMb: number };
  loadBefore: number[];
  loadAfter: number[];
  started: Date;
  elapsedS: number;
  figures: FigureTiming[];
  /** `npm start` to its first page, each time (ms). */
  starts: number[];
}) {
  const { screens, floor, plain, db } = input;
  // The issue's memory target: the server's RSS after the run, exports included.
  const rssOk = input.rss.rssMb <= TARGET.rssMb;
  const checks: Check[] = [{ what: `server RSS after the run: ${fmt(input.rss.rssMb, 0)} MB (≤ ${TARGET.rssMb})`, ok: rssOk }];
  // The issue's start target: `npm start` ready in ≤ 2 s when the build is current.
  const startsS = [...input.starts].sort((a, b) => a - b).map((ms) => ms / 1000);
  const startS = startsS[startsS.length >> 1];
  const startOk = startS <= TARGET.startS;
  checks.push({ what: `npm start to the first page: ${fmt(startS, 2)} s (≤ ${TARGET.startS})`, ok: startOk });
  const m = machine();
  // The machine is shared: the floor is measured at the start and at the end, and ratios use the mean.
  const floorRps = (floor.runs[20]!.reqPerSec + input.floorAfter.reqPerSec) / 2;
  const plainRps = plain.runs[20]!.reqPerSec;
  const lines: string[] = [];
  const push = (...text: string[]) => lines.push(...text);

  push(
    "# Performance",
    "",
    "Generated by `npm run bench` (scripts/bench/index.ts); regenerate rather than edit. Figures are one snapshot",
    "of a machine shared with other work, with the load generator on the same cores as the server.",
    "",
  );
  if (process.env.BENCH_NOTE) push(`> ${process.env.BENCH_NOTE}`, "");
  if (JSON.stringify(input.countsAfter) !== JSON.stringify(db.counts)) {
    push(`> **The database changed during the run** (rows after: ${JSON.stringify(input.countsAfter)}): these figures are not valid.`, "");
  }
  if (Math.max(input.loadBefore[0], input.loadAfter[0]) > Number(m.nproc)) {
    push(`> The machine was busy with other work (1-minute load average above ${m.nproc}): absolute figures are pessimistic; ratios to the /auth floor of the same run are the fairer reading.`, "");
  }
  push(
    "## Run",
    "",
    "| | |",
    "|---|---|",
    `| date | ${input.started.toISOString().replace("T", " ").slice(0, 16)} UTC (${fmt(input.elapsedS, 0)} s) |`,
    `| machine | ${m.nproc} CPUs (nproc), ${m.model}, ${fmt(m.memGb, 1)} GiB RAM |`,
    `| load average (1 min) before / after | ${fmt(input.loadBefore[0], 2)} / ${fmt(input.loadAfter[0], 2)} |`,
    `| Node | ${process.version} |`,
    `| app | ${appRevision()}, production build (\`server.mjs\`, NODE_ENV=production) |`,
    `| database | \`${DATABASE_PATH}\` (${fmt(db.sizeMb, 1)} MB), signed in as ${input.email} |`,
    `| rows | ${Object.entries(db.counts).map(([table, n]) => `${table} ${n == null ? "n/a" : n.toLocaleString("en-US")}`).join(" · ")} · audit_log ${db.auditEntries.toLocaleString("en-US")} (at the start) |`,
    `| load | autocannon in a separate process, ${SECONDS} s per run at 1 and at 20 connections (after a ${WARMUP_SECONDS} s warm-up); a screen's run at 20 is ${SLICES} slices of ${SECONDS / 2} s alternating with /auth's; 127.0.0.1 |`,
    `| server memory after the run | RSS ${fmt(input.rss.rssMb, 0)} MB ${verdict(rssOk)} (≤ ${TARGET.rssMb}; peak ${fmt(input.rss.peakMb, 0)} MB) |`,
    `| \`npm start\` to the first page (build and database current) | ${fmt(startS, 2)} s ${verdict(startOk)} (≤ ${TARGET.startS} s; median of ${startsS.length}: ${startsS.map((v) => fmt(v, 2)).join(", ")} s) |`,
    "",
    "## Floors",
    "",
    "| floor | HTML KB | gzip KB | req/s @1 | req/s @20 | p50 @1 | p95 @20 | p99 @20 |",
    "|---|--:|--:|--:|--:|--:|--:|--:|",
  );
  for (const s of [floor, plain]) {
    const [one, twenty] = [s.runs[1]!, s.runs[20]!];
    push(
      `| ${s.label} | ${fmt(s.page!.bytes.length / 1024)} | ${fmt(s.page!.gzipBytes / 1024)} | ${fmt(one.reqPerSec, 0)} | ${fmt(twenty.reqPerSec, 0)} | ${fmt(one.p50, 2)} ms | ${fmt(twenty.p95, 1)} ms | ${fmt(twenty.p99, 1)} ms |`,
    );
  }
  push(
    "",
    `/auth measured again at the end, @20: ${fmt(input.floorAfter.reqPerSec, 0)} req/s (first ${fmt(floor.runs[20]!.reqPerSec, 0)}); their mean is ${fmt(floorRps, 0)} req/s.`,
    `Alongside each screen, @20: ${floorSpread(screens)}. Each screen's ratio below is to /auth measured in slices alternating with its own, so a machine`,
    "whose speed drifts during the run moves both alike.",
    "",
    "## Screens",
    "",
    `Ratios are req/s at 20 connections, to /auth's in the slices alternating with the screen's ('/auth alongside'); p95 and p99 @20 are the median of the slices'. Targets: list screens ≥ ${TARGET.listRatio * 100} % of the /auth floor; the dashboard, the KPI and honorários screens and the communication centre (its four figures and the latest messages) ≥ ${TARGET.dashboardRatio * 100} %;`,
    `p95 ≤ ${TARGET.p95Ms} ms at 20 connections; no page over ${TARGET.maxHtmlKb} KB of HTML. 'vs plain' has no target (it shows the framework's own cost).`,
    "Each URL is requested again and again, as a page is viewed between changes: a list's page (its rows and their markup),",
    "the reports and the schedule's entries are kept until the next write (a list's page and the schedule's entries, until a",
    "write to a table they read). A first view reads and renders them as before (ADR 0008 and",
    "docs/decisions/0025-cached-shell-markup.md); what that costs is under 'Figures without the cache'.",
    "",
    "| screen | URL | HTML KB (≤ 250) | gzip KB | req/s @1 | req/s @20 | /auth alongside | vs /auth (target) | vs plain | p50 @1 | p95 @20 (≤ 50 ms) | p99 @20 |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  );
  for (const s of screens) {
    const [one, twenty] = [s.runs[1]!, s.runs[20]!];
    const kb = s.page!.bytes.length / 1024;
    const floorNear = s.floorBefore?.reqPerSec || floorRps;
    const ratio = twenty.reqPerSec / floorNear;
    const wanted = s.kind === "dashboard" ? TARGET.dashboardRatio : TARGET.listRatio;
    const broken = [one, twenty].some(isBroken);
    const okSize = kb <= TARGET.maxHtmlKb;
    const okRatio = ratio >= wanted && !broken;
    const okP95 = twenty.p95 <= TARGET.p95Ms && !broken;
    checks.push(
      { what: `${s.label}: ${fmt(kb)} KB HTML (≤ ${TARGET.maxHtmlKb})`, ok: okSize },
      { what: `${s.label}: ${fmt(ratio * 100, 0)} % of the floor (≥ ${wanted * 100} %)`, ok: okRatio },
      { what: `${s.label}: p95 ${fmt(twenty.p95, 1)} ms @20 (≤ ${TARGET.p95Ms})`, ok: okP95 },
    );
    const codes = [one, twenty].flatMap((r) => Object.entries(r.statusCodes ?? {}).filter(([code]) => !code.startsWith("2")).map(([code, n]) => `${n}× HTTP ${code}`));
    const note = broken
      ? ` ⚠ ${[...codes, one.errors + twenty.errors ? `${one.errors + twenty.errors} errors` : "", ...[one, twenty].filter((r) => !r.requests).map((r) => `no response within ${SECONDS} s @${r === one ? 1 : 20}`)].filter(Boolean).join(", ")}`
      : "";
    push(
      `| ${s.label}${note} | \`${s.path}\` | ${fmt(kb)} ${verdict(okSize)} | ${fmt(s.page!.gzipBytes / 1024)} | ${fmt(one.reqPerSec, 0)} | ${fmt(twenty.reqPerSec, 0)} | ${fmt(floorNear, 0)} | ${fmt(ratio * 100, 0)} % ${verdict(okRatio)} (≥ ${wanted * 100} %) | ${fmt((twenty.reqPerSec / plainRps) * 100, 1)} % | ${fmt(one.p50, 1)} ms | ${fmt(twenty.p95, 1)} ms ${verdict(okP95)} | ${fmt(twenty.p99, 1)} ms |`,
    );
  }

  const byLabel = (label: string) => screens.find((s) => s.label === label)!;
  push(
    "",
    "## Comparisons",
    "",
    `Mean latency at 1 connection (the cost of one request, without queueing), each pair measured in ${SLICES} pairs of ${SECONDS / 2} s slices alternating between its two URLs.`,
    "",
    "| comparison | URLs | mean @1 | ratio | target |",
    "|---|---|--:|--:|---|",
  );
  for (const pair of input.comparisons) {
    const ratio = pair.slowRun.mean / pair.fastRun.mean;
    const ok = ratio <= pair.limit;
    checks.push({ what: `${pair.what}: ${fmt(ratio, 2)}× (${pair.target})`, ok });
    push(
      `| ${pair.what} | \`${pair.slow.path}\` vs \`${pair.fast.path}\` | ${fmt(pair.slowRun.mean, 2)} vs ${fmt(pair.fastRun.mean, 2)} ms | ${fmt(ratio, 2)}× | ${pair.target} ${verdict(ok)} |`,
    );
  }
  push(
    "",
    `Searches: 'silva' matches ${totalOf(byLabel("patients: common search").page!) ?? "?"} patients; the rare token '${db.rareToken}' (the least frequent word of the real patient names) matches ${totalOf(byLabel("patients: rare search").page!) ?? "?"}.`,
    `On /appointments they match ${totalOf(byLabel("appointments: common search").page!) ?? "?"} and ${totalOf(byLabel("appointments: rare search").page!) ?? "?"} appointments; 'silva' matches ${totalOf(byLabel("surgeries: common search").page!) ?? "?"} surgeries.`,
    `The patient record is the busiest patient's (${db.busiestPatient.appointments} appointments), whose every view also writes its entry to the audit trail; its oldest events are the timeline's page before the last. A surgery's honorários screen is shown for surgery ${db.feeSurgery.id} (${db.feeSurgery.lines} fee lines, the most; the latest such).`,
    `The audit trail held ${db.auditEntries.toLocaleString("en-US")} entries at the start (${totalOf(byLabel("audit trail: page 1").page!) ?? "?"} when its first page was read), and grows with every view of patient data; a page of it is kept until the next entry is written, its deep page being the one before the last.`,
    `The message log held ${(db.counts.messages ?? 0).toLocaleString("en-US")} WhatsApp messages; its deep page is the one before the last, and ${totalOf(byLabel("messages: status read").page!) ?? "?"} of them were read by the patient.`,
    `The referrers had sent ${db.referrals.toLocaleString("en-US")} patients; the busiest, whose patients' dialog is measured, ${db.busiestReferrer.patients.toLocaleString("en-US")}. Each view of the list reads its figures (patients, surgeries, surgeries paid in the period) from tables the triggers keep.`,
    `The patients' documents numbered ${(db.counts.documents ?? 0).toLocaleString("en-US")}: 'silva' matches ${totalOf(byLabel("files: common search").page!) ?? "?"} of them (in the file's name and note or its patient's name, CPF, e-mail and phone), the rare token '${db.rareDocumentToken}' ${totalOf(byLabel("files: rare search").page!) ?? "?"}; ${totalOf(byLabel("files: exams").page!) ?? "?"} are exams; the patient with the most has ${db.busiestFiler.documents}.`,
  );

  push(
    "",
    "## Exports",
    "",
    `Each export is downloaded again and again (brotli, as a browser asks) while /auth is measured at 1 connection for ${SECONDS} s, and /auth is measured`,
    `alone just before. Target: a heavy export never holds other requests for more than a few ms: /auth's p95 while it downloads within ${TARGET.exportWaitMs} ms of its p95 alone.`,
    `The search '${NO_MATCH_WORD}' matches no appointment: its query passes over every appointment before it answers.`,
    "The downloads read whole tables, which the screens do not: how many complete depends on how much of the file the system keeps in",
    "memory (ADR 0008, 'The young generation, and the memory target in the bench').",
    "",
    "| export | URL | downloads (MB received) | /auth p50 alone → during | p95 alone → during | max during | target |",
    "|---|---|--:|--:|--:|--:|---|",
  );
  for (const run of input.exportRuns) {
    const broken = [run.alone, run.during].some(isBroken);
    const ok = !broken && run.during.p95 <= run.alone.p95 + TARGET.exportWaitMs;
    checks.push({ what: `${run.label}: /auth p95 ${fmt(run.alone.p95, 1)} → ${fmt(run.during.p95, 1)} ms while it downloads (within ${TARGET.exportWaitMs} ms)`, ok });
    push(
      `| ${run.label} | \`${run.path}\` | ${run.completed} (${fmt(run.bytes / 1e6, 1)}) | ${fmt(run.alone.p50, 1)} → ${fmt(run.during.p50, 1)} ms | ${fmt(run.alone.p95, 1)} → ${fmt(run.during.p95, 1)} ms | ${fmt(run.during.max, 1)} ms | +${fmt(run.during.p95 - run.alone.p95, 1)} ms ${verdict(ok)} (≤ ${TARGET.exportWaitMs}) |`,
    );
  }

  const figures = figuresMarkdown(input.figures);
  push(
    "",
    "## Figures without the cache",
    "",
    "The screens above are measured as a user meets them between writes (lists' pages, reports and the schedule's entries are",
    "kept until the next write, or the next to a table they read). Here each is computed through its model function as on the",
    "first view after such a write",
    `(scripts/bench/kpi-figures.ts, median of ${process.env.BENCH_FIGURE_RUNS ?? 5} runs, server stopped). Target: ≤ ${FIGURE_BUDGET_MS} ms per figure or table shown.`,
    "A search's terms as a user types them are each a first view; their costs are shown without a target.",
    "",
    figures.markdown,
  );
  for (const row of input.figures.filter((figure) => figure.target !== false)) {
    checks.push({ what: `${row.screen} (${row.period}, ${row.filter}): ${fmt(row.ms / row.items, 1)} ms per figure uncached (≤ ${FIGURE_BUDGET_MS})`, ok: row.ms / row.items <= FIGURE_BUDGET_MS });
  }

  const failed = checks.filter((c) => !c.ok);
  push("", "## Summary", "", `${checks.length - failed.length} of ${checks.length} targets pass.`, "");
  if (failed.length) push("Failing:", "", ...failed.map((c) => `- ${c.what}`), "");
  return { markdown: lines.join("\n"), checks, failed };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  const loadBefore = os.loadavg();
  if (!fs.existsSync(DATABASE_PATH)) throw new Error(`No database at ${DATABASE_PATH} (set DATABASE_PATH).`);
  console.log(`Database ${DATABASE_PATH}`);

  const serverEntry = await ensureBuild();
  // As `npm run serve` does: bring the schema up to date before serving.
  await run(process.execPath, ["--import", "tsx", path.join(ROOT, "db/migrate.ts")], { ...process.env, DATABASE_PATH });
  process.stdout.write(`npm start, ${STARTS} times, to the first page: `);
  const starts = await measureStart();
  console.log(starts.map((ms) => `${fmt(ms / 1000, 2)} s`).join(", "));
  const db = readDatabase();
  console.log(`Rows: ${Object.entries(db.counts).map(([t, n]) => `${t} ${n ?? "n/a"}`).join(", ")}`);

  const server = await startServer(serverEntry);
  console.log(`Server (pid ${server.child.pid}) on ${server.base}`);
  const { cookie, email } = await signIn(server.base);
  console.log(`Signed in as ${email}`);
  const authed = { Cookie: cookie };

  const screens: Screen[] = [
    { label: "patients: page 1", path: "/patients", kind: "list", runs: {} },
    { label: "patients: deep page", path: "/patients?page=", kind: "list", runs: {} },
    { label: "patients: common search", path: "/patients?q=silva", kind: "list", runs: {} },
    { label: "patients: rare search", path: `/patients?q=${encodeURIComponent(db.rareToken)}`, kind: "list", runs: {} },
    { label: "patient record", path: `/patients/${db.busiestPatient.id}`, kind: "list", runs: {} },
    { label: "patient record: oldest events", path: `/patients/${db.busiestPatient.id}?ate=`, kind: "list", runs: {} },
    { label: "appointments: page 1", path: "/appointments", kind: "list", runs: {} },
    { label: "appointments: deep page", path: "/appointments?page=", kind: "list", runs: {} },
    { label: "appointments: middle page", path: "/appointments?page=", kind: "list", runs: {} },
    { label: "appointments: common search", path: "/appointments?q=silva", kind: "list", runs: {} },
    { label: "appointments: rare search", path: `/appointments?q=${encodeURIComponent(db.rareToken)}`, kind: "list", runs: {} },
    { label: "schedule: day", path: "/schedule?view=day", kind: "list", runs: {} },
    { label: "schedule: week", path: "/schedule?view=week", kind: "list", runs: {} },
    { label: "schedule: month", path: "/schedule?view=month", kind: "list", runs: {} },
    { label: "surgeries", path: "/surgeries", kind: "list", runs: {} },
    { label: "surgeries: stage aprovado", path: "/surgeries?stage=aprovado", kind: "list", runs: {} },
    { label: "surgeries: stage concluido", path: "/surgeries?stage=concluido", kind: "list", runs: {} },
    { label: "surgeries: common search", path: "/surgeries?q=silva", kind: "list", runs: {} },
    { label: "pipeline: board", path: "/pipeline", kind: "list", runs: {} },
    { label: "pipeline: one column", path: "/pipeline?coluna=aprovado", kind: "list", runs: {} },
    { label: "financial: cash book", path: "/financial", kind: "list", runs: {} },
    { label: "receivables: to receive", path: "/financeiro/cirurgias-receber", kind: "list", runs: {} },
    { label: "receivables: paid", path: "/financeiro/cirurgias-pagas", kind: "list", runs: {} },
    { label: "surgical groups", path: "/surgical-groups", kind: "list", runs: {} },
    { label: "dashboard", path: "/dashboard", kind: "dashboard", runs: {} },
    { label: "kpis: operacionais", path: "/kpis/operacionais", kind: "dashboard", runs: {} },
    { label: "kpis: cirurgicos", path: "/kpis/cirurgicos", kind: "dashboard", runs: {} },
    { label: "kpis: financeiros", path: "/kpis/financeiros", kind: "dashboard", runs: {} },
    { label: "kpis: opme", path: "/kpis/opme", kind: "dashboard", runs: {} },
    { label: "kpis: metricas", path: "/kpis/metricas", kind: "dashboard", runs: {} },
    { label: "honorarios: medicos", path: "/honorarios/medicos", kind: "dashboard", runs: {} },
    { label: "honorarios: pagador", path: "/honorarios/pagador", kind: "dashboard", runs: {} },
    { label: "honorarios: a surgery's fees", path: `/surgeries/${db.feeSurgery.id}/honorarios`, kind: "dashboard", runs: {} },
    { label: "api: patients search", path: "/api/patients?q=silva", kind: "list", runs: {} },
    { label: "tasks: page 1", path: "/tasks", kind: "list", runs: {} },
    { label: "tasks: search", path: "/tasks?q=silva", kind: "list", runs: {} },
    { label: "audit trail: page 1", path: "/settings/audit", kind: "list", runs: {} },
    { label: "audit trail: deep page", path: "/settings/audit?page=", kind: "list", runs: {} },
    { label: "communication centre", path: "/communication", kind: "dashboard", runs: {} },
    { label: "messages: page 1", path: "/communication/messages", kind: "list", runs: {} },
    { label: "messages: deep page", path: "/communication/messages?page=", kind: "list", runs: {} },
    { label: "messages: status read", path: "/communication/messages?status=read", kind: "list", runs: {} },
    { label: "referrers: this month", path: "/referrers", kind: "list", runs: {} },
    { label: "referrers: every commission since 2000", path: "/referrers?from=2000-01-01", kind: "list", runs: {} },
    { label: "referrers: the busiest one's patients", path: `/referrers?view=${db.busiestReferrer.id}`, kind: "list", runs: {} },
    { label: "files: page 1", path: "/files", kind: "list", runs: {} },
    { label: "files: deep page", path: "/files?page=", kind: "list", runs: {} },
    { label: "files: common search", path: "/files?q=silva", kind: "list", runs: {} },
    { label: "files: rare search", path: `/files?q=${encodeURIComponent(db.rareDocumentToken)}`, kind: "list", runs: {} },
    { label: "files: exams", path: "/files?category=exame", kind: "list", runs: {} },
    { label: "files: the busiest patient's", path: `/files?patient=${db.busiestFiler.id}`, kind: "list", runs: {} },
  ];
  // Page 1 first: it says how many pages there are.
  for (const screen of screens) {
    if (screen.path.endsWith("?page=")) {
      const first = screens.find((s) => s.path === screen.path.replace("?page=", ""))!.page!;
      const rows = screen.label.startsWith("audit")
        ? db.auditEntries
        : db.counts[screen.label.startsWith("patients") ? "patients" : screen.label.startsWith("messages") ? "messages" : screen.label.startsWith("files") ? "documents" : "appointments"];
      const fromDb = Math.max(1, Math.ceil((rows ?? 0) / PAGE_SIZE));
      const last = lastPageOf(first) ?? fromDb;
      // One before the last: a full page, like page 1 (the last may hold a single row). The middle
      // one is the farthest from both ends, as a typed or bookmarked page number may be.
      screen.path += String(screen.label.endsWith("middle page") ? Math.max(1, Math.floor(last / 2)) : last > 2 ? last - 1 : last);
    }
    if (screen.path.endsWith("?ate=")) {
      // The timeline's 'Mais antigos' links followed from its first page; again one before the last.
      const record = screen.path.slice(0, -"?ate=".length);
      const cursors: string[] = [];
      let page = screens.find((s) => s.path === record)!.page!;
      for (let next = olderEventsCursor(page); next && cursors.length < 400; next = olderEventsCursor(page)) {
        cursors.push(next);
        page = await getPage(`${server.base}${record}?ate=${next}`, cookie);
      }
      screen.path += cursors.at(-2) ?? cursors.at(-1) ?? "";
    }
    screen.page = await getPage(server.base + screen.path, cookie);
    if (screen.page.status !== 200) throw new Error(`${screen.path} answered HTTP ${screen.page.status} (signed in as ${email})`);
  }

  const floor: Screen = { label: "/auth (app, signed out)", path: "/auth", kind: "floor", runs: {}, page: await getPage(`${server.base}/auth`) };
  const plainServer = await startPlainServer(floor.page!);
  const plain: Screen = { label: "plain node:http, /auth's bytes", path: "/", kind: "plain", runs: {}, page: await getPage(`${plainServer.base}/`) };

  probeUrl = `${server.base}/auth`;
  const load = new LoadGenerator();
  const sliced = SLICES * (SECONDS + (2 * SLICE_SETTLE_MS) / 1000);
  const total = (screens.length + 3) * (WARMUP_SECONDS + (SECONDS + SETTLE_MS / 1000) * CONNECTIONS.length) + screens.length * (sliced - SECONDS) + COMPARISONS.length * sliced + EXPORTS.length * 2 * (SECONDS + SETTLE_MS / 1000);
  console.log(`Measuring ${screens.length} screens and 2 floors, ${SECONDS} s per run (about ${Math.ceil(total / 60)} min):`);
  await measureScreen(load, plain, `${plainServer.base}/`, {});
  await measureScreen(load, floor, `${server.base}/auth`, {});
  // The machine's speed drifts within a run (the floor has moved by 60 % between start and end):
  // each screen's ratio is to /auth measured in slices alternating with its own.
  for (const screen of screens) {
    await measureScreen(load, screen, server.base + screen.path, authed, `${server.base}/auth`);
  }
  process.stdout.write("  /auth again (drift check)          ");
  await settle();
  const floorAfter = await load.measure(`${server.base}/auth`, 20, SECONDS, {});
  console.log(`  c20: ${fmt(floorAfter.reqPerSec, 0)} req/s`);
  console.log("Comparisons at 1 connection, in alternating slices:");
  const comparisons = await measureComparisons(load, screens, server.base, authed);
  console.log("/auth at 1 connection while heavy exports download:");
  const exportRuns = await measureExports(load, server.base, authed);

  const rss = rssOf(server.child.pid!);
  await signOut(server.base, cookie);
  await stopAll();

  console.log("Timing the dashboard, KPI and honorários reports without the cache …");
  const figuresFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-figures-")), "figures.json");
  await run(process.execPath, ["--import", "tsx", path.join(HERE, "kpi-figures.ts"), `--json-out=${figuresFile}`], { ...process.env, DATABASE_PATH });
  const figures = JSON.parse(fs.readFileSync(figuresFile, "utf8")) as FigureTiming[];
  fs.rmSync(path.dirname(figuresFile), { recursive: true, force: true });

  const countsAfter = countRowsNow();
  if (JSON.stringify(countsAfter) !== JSON.stringify(db.counts)) console.warn("WARNING: the database changed during the run; the figures are not valid.");
  const result = report({
    screens,
    floor,
    plain,
    floorAfter,
    comparisons,
    exportRuns,
    db,
    countsAfter,
    email,
    rss,
    loadBefore,
    loadAfter: os.loadavg(),
    started,
    elapsedS: (Date.now() - started.getTime()) / 1000,
    figures,
    starts,
  });
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, result.markdown);
  console.log(`\nServer RSS after the run: ${fmt(rss.rssMb, 0)} MB (peak ${fmt(rss.peakMb, 0)} MB)`);
  console.log(`${result.checks.length - result.failed.length} of ${result.checks.length} targets pass.`);
  const screensTable = result.markdown.slice(result.markdown.indexOf("| screen |"), result.markdown.indexOf("## Comparisons"));
  console.log(`\n${screensTable.trim()}\n`);
  for (const check of result.failed) console.log(`  FAIL ${check.what}`);
  console.log(`Written to ${path.relative(ROOT, OUT)}`);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(`\nbench: ${error instanceof Error ? error.message : String(error)}`);
    await stopAll();
    process.exit(1);
  },
);
