#!/usr/bin/env node
// `npm start`: builds the app when its sources changed since the last build, applies pending
// database migrations, then runs the production server (server.mjs) in this process.
//
// The build is skipped when <build>/.sources-hash matches a hash of everything the build reads
// (app/, db/schema/, public/, the package files and the build configs: scripts/build-stamp.mjs). A
// fresh clone has no build, so it builds; so does any edit, `git pull` or `npm install` that
// changes a dependency.
//   BUILD_DIR        the build directory (default `build`)
//   FORCE_BUILD=1    builds even when the sources did not change
//   DATABASE_PATH    the SQLite file (default db/clinic.sqlite), migrated before serving
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { buildIsCurrent, sourcesHash, stampBuild, unstampBuild } from "./build-stamp.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`${path.basename(command)} ${args.join(" ")} failed (${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

// --- 1. build when the sources changed ----------------------------------------------------------
const hash = sourcesHash(buildDir);
const built = buildIsCurrent(buildDir, hash);
if (built && process.env.FORCE_BUILD !== "1") {
  console.log(`Build is up to date (${path.relative(root, buildDir)}); not rebuilding.`);
} else {
  console.log(built ? "FORCE_BUILD=1: rebuilding." : "Sources changed since the last build (or there is none): building…");
  unstampBuild(buildDir);
  run(bin("react-router"), ["build"], { ...process.env, NODE_ENV: "production" });
  // The first-load JavaScript budget. `npm test` and `npm run build` fail on it; here it only
  // warns, because refusing to serve the clinic for a few kilobytes would help no one.
  const budget = spawnSync(process.execPath, [path.join(root, "scripts/check-js-budget.mjs")], { stdio: "inherit" });
  if (budget.status !== 0) console.warn("Warning: the JavaScript budget is exceeded (above); serving anyway.");
  stampBuild(buildDir, hash);
}

// --- 2. migrate when a migration is pending -----------------------------------------------------
/**
 * Drizzle applies every migration newer than the newest `created_at` in __drizzle_migrations;
 * when that is at least the journal's newest `when`, there is nothing to apply and the (slower)
 * TypeScript migration runner need not start. Any doubt runs it.
 */
function migrationsPending() {
  const database = path.resolve(process.env.DATABASE_PATH ?? "db/clinic.sqlite");
  if (!fs.existsSync(database)) return true;
  try {
    const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8"));
    const newest = Math.max(...journal.entries.map((entry) => Number(entry.when)));
    const Database = createRequire(import.meta.url)("better-sqlite3");
    const sqlite = new Database(database, { fileMustExist: true });
    try {
      const row = sqlite.prepare('SELECT max(created_at) AS applied FROM "__drizzle_migrations"').get();
      return !(Number(row?.applied) >= newest);
    } finally {
      sqlite.close();
    }
  } catch {
    return true;
  }
}
if (migrationsPending()) run(bin("tsx"), ["db/migrate.ts"]);
else console.log("Database is up to date; no migration to apply.");

// --- 3. serve -----------------------------------------------------------------------------------
console.log(`Starting the server (${elapsed()} after npm start).`);
process.env.NODE_ENV = "production";
await import("../server.mjs");
