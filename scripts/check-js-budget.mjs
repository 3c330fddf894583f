#!/usr/bin/env node
// First-load JavaScript budget: after `react-router build`, works out for every page of the app the
// JavaScript a browser downloads to show it from a cold cache (the entry client, the root route,
// the layouts above the page, the page's own chunk and every chunk they import statically, each
// counted once) and fails when any page needs more than the budget, gzipped.
//
// Usage: node scripts/check-js-budget.mjs [--limit-kb=150] [--chunks] [--modules[=/path]] [--report-only]
//   BUILD_DIR      the build directory (default `build`)
//   --chunks       also lists each chunk of the largest page with its gzipped size
//   --modules      also says which packages and app files make up a page's JavaScript (the
//                  largest page, or the one given); needs a build made with BUNDLE_STATS=1
//
// The numbers come from the React Router manifest (build/client/assets/manifest-*.js): it is what
// <Scripts /> turns into <script>/<link rel=modulepreload> tags. Each chunk's own static imports
// are also read from the file itself, so a chunk the manifest forgot would still be counted. With
// route discovery "initial" (react-router.config.ts) the manifest file itself is loaded by every
// page, so it is counted too.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const LIMIT_KB = Number(process.argv.find((a) => a.startsWith("--limit-kb="))?.split("=")[1] ?? 150);
const showChunks = process.argv.includes("--chunks");
// --report-only prints the table and the pages over budget but exits 0 (npm run build, so that
// `npm start` never refuses to serve); npm test and `npm run check:js-budget` fail on them.
const reportOnly = process.argv.includes("--report-only");
const modulesArg = process.argv.find((a) => a === "--modules" || a.startsWith("--modules="));
const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const clientDir = path.join(buildDir, "client");
const assetsDir = path.join(clientDir, "assets");

function fail(message) {
  console.error(`check-js-budget: ${message}`);
  process.exit(1);
}

if (!fs.existsSync(assetsDir)) fail(`no client build in ${path.relative(root, clientDir)}; run \`react-router build\` first`);
const manifestFiles = fs.readdirSync(assetsDir).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
if (manifestFiles.length !== 1) fail(`expected one assets/manifest-*.js in ${path.relative(root, assetsDir)}, found ${manifestFiles.length}`);
const manifestSource = fs.readFileSync(path.join(assetsDir, manifestFiles[0]), "utf8");
const manifest = JSON.parse(manifestSource.replace(/^window\.__reactRouterManifest\s*=\s*/, "").replace(/;\s*$/, ""));
const manifestHref = `/assets/${manifestFiles[0]}`;

// How the build discovers routes: "initial" loads the manifest file on every page; "lazy" inlines
// the page's part of it into the HTML instead (then no file is counted).
const serverBuild = path.join(buildDir, "server", "index.js");
const discovery = fs.existsSync(serverBuild)
  ? fs.readFileSync(serverBuild, "utf8").match(/\bconst routeDiscovery = \{\s*"mode":\s*"(initial|lazy)"/)?.[1]
  : undefined;
if (!discovery) fail(`cannot tell the route discovery mode from ${path.relative(root, serverBuild)}`);

// --- chunk sizes and their static imports, read from the files ---------------------------------
const chunkCache = new Map();
/** `/assets/x.js` → { raw, gzip, imports: ['/assets/y.js', …] } */
function chunk(href) {
  let entry = chunkCache.get(href);
  if (entry) return entry;
  const file = path.join(clientDir, href);
  if (!fs.existsSync(file)) fail(`the manifest names ${href}, which is not in ${path.relative(root, clientDir)}`);
  const source = fs.readFileSync(file);
  const text = source.toString("utf8");
  const imports = new Set();
  // Static `import … from "./x.js"`, `import "./x.js"` and `export … from "./x.js"`; never `import("./x.js")`.
  const pattern = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  for (const match of text.matchAll(pattern)) {
    imports.add(path.posix.join(path.posix.dirname(href), match[1]));
  }
  entry = { raw: source.length, gzip: zlib.gzipSync(source, { level: 9 }).length, imports: [...imports] };
  chunkCache.set(href, entry);
  return entry;
}

/** Every chunk reachable by static import from `hrefs`, each once. */
function closure(hrefs) {
  const seen = new Set();
  const stack = [...hrefs];
  while (stack.length) {
    const href = stack.pop();
    if (seen.has(href)) continue;
    seen.add(href);
    stack.push(...chunk(href).imports);
  }
  return seen;
}

// --- pages: every route that renders and has no child routes ------------------------------------
const routes = manifest.routes;
const children = new Set(Object.values(routes).map((r) => r.parentId).filter(Boolean));
const chain = (route) => (route.parentId ? [...chain(routes[route.parentId]), route] : [route]);
const fullPath = (route) =>
  "/" +
  chain(route)
    .map((r) => r.path ?? "")
    .filter(Boolean)
    .join("/");

const pages = Object.values(routes)
  .filter((route) => !children.has(route.id) && route.hasDefaultExport)
  .map((route) => {
    const hrefs = [manifest.entry.module, ...manifest.entry.imports, ...(discovery === "initial" ? [manifestHref] : [])];
    for (const r of chain(route)) {
      hrefs.push(r.module, ...(r.clientActionModule ? [r.clientActionModule] : []));
      if (r.clientLoaderModule) hrefs.push(r.clientLoaderModule);
      if (r.hydrateFallbackModule) hrefs.push(r.hydrateFallbackModule);
      hrefs.push(...(r.imports ?? []));
    }
    const files = closure(hrefs);
    let raw = 0;
    let gzip = 0;
    for (const href of files) {
      raw += chunk(href).raw;
      gzip += chunk(href).gzip;
    }
    return { id: route.id, path: fullPath(route), files, raw, gzip };
  })
  .sort((a, b) => b.gzip - a.gzip || a.path.localeCompare(b.path));

if (pages.length === 0) fail("the manifest has no page routes");

// --- report ------------------------------------------------------------------------------------
const kb = (bytes) => (bytes / 1024).toFixed(1);
const limit = LIMIT_KB * 1024;
// Pages served by one module with the same chunks (the 'em construção' placeholders, aliases)
// share a row.
const groups = new Map();
for (const page of pages) {
  const key = `${routes[page.id].module}|${[...page.files].sort().join(",")}`;
  if (groups.has(key)) groups.get(key).push(page);
  else groups.set(key, [page]);
}
const rows = [...groups.values()].map(([p, ...more]) => [
  more.length ? `${p.path} (+${more.length} more)` : p.path,
  more.length ? routes[p.id].module.replace(/^\/assets\/|-[\w-]{8}\.js$/g, "") + ` module (${more.length + 1} routes)` : p.id,
  String(p.files.size),
  kb(p.raw),
  kb(p.gzip),
  p.gzip > limit ? "OVER" : "ok",
]);
const header = ["page", "route", "chunks", "raw KB", "gzip KB", `≤ ${LIMIT_KB} KB`];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
console.log(`First-load JavaScript per page (${path.relative(root, buildDir) || "."}, gzip level 9)`);
console.log(line(header));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const row of rows) console.log(line(row));

if (showChunks) {
  const largest = pages[0];
  console.log(`\nChunks of ${largest.path} (largest first):`);
  const list = [...largest.files].map((href) => ({ href, ...chunk(href) })).sort((a, b) => b.gzip - a.gzip);
  for (const c of list) console.log(`  ${kb(c.gzip).padStart(6)} KB gzip  ${kb(c.raw).padStart(7)} KB raw  ${c.href}`);
}

if (modulesArg) {
  const statsFile = path.join(clientDir, "bundle-stats.json");
  if (!fs.existsSync(statsFile)) fail("--modules needs a build made with BUNDLE_STATS=1 (bundle-stats.json is missing)");
  const stats = JSON.parse(fs.readFileSync(statsFile, "utf8"));
  const wanted = modulesArg.split("=")[1];
  const page = wanted ? pages.find((p) => p.path === wanted) : pages[0];
  if (!page) fail(`no page ${wanted}`);
  // Each chunk's gzipped size is shared among its modules in proportion to their rendered size
  // (before minification): an estimate, good enough to rank what to cut.
  const owners = new Map();
  for (const href of page.files) {
    const modules = Object.entries(stats[href.slice(1)] ?? {});
    const total = modules.reduce((sum, [, size]) => sum + size, 0) || 1;
    for (const [id, size] of modules) {
      const owner = id.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? id.replace(/\?.*$/, "");
      owners.set(owner, (owners.get(owner) ?? 0) + (chunk(href).gzip * size) / total);
    }
  }
  console.log(`\nWhat ${page.path} downloads, by package or app file (estimated gzip KB):`);
  for (const [owner, bytes] of [...owners].sort((a, b) => b[1] - a[1])) {
    if (bytes >= 256) console.log(`  ${kb(bytes).padStart(6)}  ${owner}`);
  }
}

// Every page, and every new one, must be within the budget (ADR 0008).
const over = pages.filter((p) => p.gzip > limit);
if (over.length) {
  console.error(
    `\ncheck-js-budget: ${over.length} page(s) download more than ${LIMIT_KB} KB of JavaScript on first load: ` +
      over.map((p) => `${p.path} ${kb(p.gzip)} KB`).join(", "),
  );
  console.error("See docs/decisions/0008-performance-budget-and-server.md and docs/adding-a-screen.md (lazy dialogs) for how to cut it.");
  if (reportOnly) console.error("check-js-budget: reported only (--report-only); `npm run check:js-budget` fails on it.");
  else process.exit(1);
} else {
  console.log(`\nAll ${pages.length} pages are within ${LIMIT_KB} KB gzipped.`);
}
