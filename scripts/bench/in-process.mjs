// Server CPU time per page, measured through React Router's request handler in this process (no
// HTTP, no load generator): the steadier way to compare two builds on a machine shared with other
// work, where `npm run bench`'s req/s move by tens of percent between runs.
//
//   DATABASE_PATH=/tmp/scale.sqlite npm run bench:in-process -- /auth /patients "/schedule?view=month"
//
//   BUILD_DIR      the build to load (default `build`): build two commits into two directories
//                  and run this once for each, alternately, to compare them
//   BENCH_EMAIL / BENCH_PASSWORD   the account pages are requested as (default the scale seed's admin)
//   ROUNDS, BATCH  batches per page (default 6) and requests per batch (default 100)
//
// Prints per page the median and the best batch's CPU time per request, and the page's size. /auth
// is requested signed out, like the bench's floor; every other page with the account's session.
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
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");

const { createRequestHandler } = await import("react-router");
const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
const handle = createRequestHandler(build, "production");
const origin = "http://127.0.0.1:3000";
const client = { "x-sinapse-client-address": "127.0.0.1" };

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

async function request(page) {
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

const results = new Map(pages.map((page) => [page, { bytes: 0, perRequest: [] }]));
for (const page of pages) for (let i = 0; i < 30; i++) await request(page); // warm up
for (let round = 0; round < rounds; round++) {
  for (const page of pages) {
    const result = results.get(page);
    const start = process.cpuUsage();
    for (let i = 0; i < batch; i++) result.bytes = await request(page);
    const used = process.cpuUsage(start);
    result.perRequest.push((used.user + used.system) / 1000 / batch);
  }
}
for (const [page, { bytes, perRequest }] of results) {
  const sorted = [...perRequest].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  console.log(`${page.padEnd(32)} median ${median.toFixed(2)} ms  best ${sorted[0].toFixed(2)} ms  ${(bytes / 1024).toFixed(1)} KB`);
}
