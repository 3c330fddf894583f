#!/usr/bin/env node
// `npm start`: builds the app when its sources changed since the last build, applies pending
// database migrations, then runs the production server (server.mjs) in this process.
//
// The build is skipped when <build>/.sources-hash matches a hash of everything the build reads
// (app/, db/schema/, public/, the package files and the build configs). A fresh clone has no
// build, so it builds; so does any edit, `git pull` or `npm install` that changes a dependency.
//   BUILD_DIR        the build directory (default `build`)
//   FORCE_BUILD=1    builds even when the sources did not change
//   DATABASE_PATH    the SQLite file (default db/clinic.sqlite), migrated before serving
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const stampFile = path.join(buildDir, ".sources-hash");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Every file the build reads, besides node_modules (which package-lock.json and patches/ stand for). */
const BUILD_INPUTS = [
  "app",
  "db/schema",
  "public",
  "package.json",
  "package-lock.json",
  "patches",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];

function listFiles(entry, out) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return out; // an optional input that is not there
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(entry).sort()) listFiles(path.join(entry, name), out);
  } else {
    out.push(entry);
  }
  return out;
}

/** A hash of the build inputs' names and contents (a few hundred small files: tens of ms). */
function sourcesHash() {
  const hash = crypto.createHash("sha256");
  // The build directory's name is part of what was built (react-router.config.ts reads BUILD_DIR).
  hash.update(`${path.relative(root, buildDir)}\0`);
  for (const file of BUILD_INPUTS.flatMap((input) => listFiles(input, []))) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`${path.basename(command)} ${args.join(" ")} failed (${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

// --- 1. build when the sources changed ----------------------------------------------------------
const hash = sourcesHash();
const built =
  fs.existsSync(path.join(buildDir, "server/index.js")) &&
  fs.existsSync(stampFile) &&
  fs.readFileSync(stampFile, "utf8").trim() === hash;
if (built && process.env.FORCE_BUILD !== "1") {
  console.log(`Build is up to date (${path.relative(root, buildDir)}); not rebuilding.`);
} else {
  console.log(built ? "FORCE_BUILD=1: rebuilding." : "Sources changed since the last build (or there is none): building…");
  fs.rmSync(stampFile, { force: true });
  run(bin("react-router"), ["build"], { ...process.env, NODE_ENV: "production" });
  // The first-load JavaScript budget. `npm test` and `npm run build` fail on it; here it only
  // warns, because refusing to serve the clinic for a few kilobytes would help no one.
  const budget = spawnSync(process.execPath, [path.join(root, "scripts/check-js-budget.mjs")], { stdio: "inherit" });
  if (budget.status !== 0) console.warn("Warning: the JavaScript budget is exceeded (above); serving anyway.");
  fs.writeFileSync(stampFile, `${hash}\n`);
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
