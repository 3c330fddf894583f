// Server CPU time per page, measured through React Router's request handler in this process (no
// HTTP, no load generator): the steadier way to compare two builds on a machine shared with other
// work, where `npm run bench`'s req/s move by tens of percent between runs.
//
//   DATABASE_PATH=/tmp/scale.sqlite npm run bench:in-process -- /auth /patients "/schedule?view=month"
//
//   BUILD_DIR      the build to load (default `build`). Several, comma-separated, are loaded into
//                  this one process and measured in alternating batches (the order swapped every
//                  round), so a machine whose speed drifts moves them alike: build two commits
//                  into two directories and compare them with BUILD_DIR=build-a,build-b. The build
//                  loaded first tends to measure a little faster; run again with the order swapped.
//   BENCH_EMAIL / BENCH_PASSWORD   the account pages are requested as (default the scale seed's admin)
//   ROUNDS, BATCH  batches per page and build (default 6) and requests per batch (default 100)
//   COLD=1         a write before every request (a row in a side table, through a connection of its
//                  own, timed apart and left out), so each page is measured as the first view after
//                  a write elsewhere: nothing kept until the next write is reused, and what is kept
//                  over a few tables is. COLD=patients (or doctors, appointments, surgeries) writes
//                  one row of that table instead (a column set to itself).
//
// Prints per page and build the median and the best batch's CPU time per request, and the page's
// size; with /auth among the pages, each page's ratio to it (/auth's median over the page's, as the
// bench's share of the floor). /auth is requested signed out, like the bench's floor; every other
// page with the account's session.
import path from "node:path";
import { pathToFileURL } from "node:url";

process.env.NODE_ENV = "production";
process.env.GOOGLE_WORKER ??= "off";

const pages = process.argv.slice(2);
if (pages.length === 0) {
  console.error("Usage: npm run bench:in-process -- /auth /patients …");
  process.exit(2);
}
const rounds = Number(process.env.ROUNDS ?? 6);
const batch = Number(process.env.BATCH ?? 100);
const buildDirs = (process.env.BUILD_DIR ?? "build").split(",").map((dir) => path.resolve(dir));

const { createRequestHandler } = await import("react-router");
const origin = "http://127.0.0.1:3000";
const client = { "x-sinapse-client-address": "127.0.0.1" };

async function loadBuild(buildDir) {
  // The query string makes each build its own module instance, with its own caches.
  const build = await import(`${pathToFileURL(path.join(buildDir, "server/index.js")).href}?${encodeURIComponent(buildDir)}`);
  const handle = createRequestHandler(build, "production");
  const signIn = await handle(
    new Request(`${origin}/auth`, {
      method: "POST",
      headers: { ...client, Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "login",
        email: process.env.BENCH_EMAIL ?? "admin@sinapse.scale",
        password: process.env.BENCH_PASSWORD ?? "sinapse-escala",
      }),
    }),
  );
  // Only the session: the sign-in's toast cookie would be read (and verified) on every request.
  const session = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("sinapse_session="));
  if (signIn.status !== 302 || !session) {
    console.error(`Sign-in failed (HTTP ${signIn.status}); set BENCH_EMAIL / BENCH_PASSWORD.`);
    process.exit(1);
  }
  return { name: path.relative(process.cwd(), buildDir) || buildDir, handle, session };
}

// The write before each request in COLD mode: another connection's commit changes the database's
// data version, which is what ends everything the server keeps until the next write.
let write = () => 0;
if (process.env.COLD) {
  const { default: Database } = await import("better-sqlite3");
  const writer = new Database(process.env.DATABASE_PATH ?? "db/clinic.sqlite");
  const columns = { patients: "name", doctors: "name", appointments: "notes", surgeries: "notes" };
  const table = process.env.COLD;
  if (table !== "1" && !(table in columns)) throw new Error(`COLD: 1 or one of ${Object.keys(columns).join(", ")}`);
  if (table === "1") writer.exec("create table if not exists bench_cold_writes (at integer)");
  const insert =
    table === "1"
      ? writer.prepare("insert into bench_cold_writes values (?)")
      : writer.prepare(`update ${table} set ${columns[table]} = ${columns[table]} where id = (select min(id) from ${table}) and ? > 0`);
  write = () => {
    const start = process.cpuUsage();
    insert.run(Date.now());
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  if (table === "1") process.on("exit", () => writer.exec("drop table if exists bench_cold_writes"));
}

const builds = [];
for (const dir of buildDirs) builds.push(await loadBuild(dir));

async function request({ handle, session }, page) {
  const headers = page === "/auth" ? client : { ...client, Cookie: session };
  const response = await handle(new Request(origin + page, { headers }));
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${page}: HTTP ${response.status}`);
  // Back to the event loop, as a server is between requests: a request settled by promises alone
  // never lets Node run its process.nextTick queue (streams' callbacks), which would then keep
  // every request's render alive until the heap ran out.
  await new Promise((resolve) => setImmediate(resolve));
  return body.byteLength;
}

const results = new Map();
for (const build of builds) {
  for (const page of pages) {
    results.set(`${build.name} ${page}`, { bytes: 0, perRequest: [] });
    for (let i = 0; i < 30; i++) await request(build, page); // warm up
  }
}
for (let round = 0; round < rounds; round++) {
  for (const page of pages) {
    for (const build of round % 2 ? [...builds].reverse() : builds) {
      const result = results.get(`${build.name} ${page}`);
      let writing = 0;
      const start = process.cpuUsage();
      for (let i = 0; i < batch; i++) {
        writing += write();
        result.bytes = await request(build, page);
      }
      const used = process.cpuUsage(start);
      result.perRequest.push(((used.user + used.system) / 1000 - writing) / batch);
    }
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
for (const build of builds) {
  if (builds.length > 1) console.log(`${build.name}:`);
  for (const page of pages) {
    const { bytes, perRequest } = results.get(`${build.name} ${page}`);
    const floor = pages.includes("/auth") && page !== "/auth" ? median(results.get(`${build.name} /auth`).perRequest) : null;
    const ratio = floor === null ? "" : `  ${((100 * floor) / median(perRequest)).toFixed(0)} % of /auth`;
    console.log(`${page.padEnd(32)} median ${median(perRequest).toFixed(2)} ms  best ${Math.min(...perRequest).toFixed(2)} ms  ${(bytes / 1024).toFixed(1)} KB${ratio}`);
  }
}
// The builds' database connections and timers would keep the process alive.
process.exit(0);
