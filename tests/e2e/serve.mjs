// Starts the production build on a throwaway database for the browser tests.
// Usage: node tests/e2e/serve.mjs <name> <port> [--accounts] [--demo] [--tz=Zone]
//   --accounts  creates the test accounts of tests/e2e/accounts.ts (admin, staff, doctor, pending)
//   --demo      loads the demo data set (npm run seed:demo) with its own logins
//   --tz=Zone   runs the server in that time zone (the app must show São Paulo time whatever it is)
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [name, port, ...flags] = process.argv.slice(2);
const root = path.resolve(import.meta.dirname, "../..");
const tmp = path.join(root, "tests/.tmp");
fs.mkdirSync(tmp, { recursive: true });
const database = path.join(tmp, `${name}${process.env.E2E_DB_SUFFIX ?? ""}.sqlite`);
for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(database + suffix, { force: true });
// Each server keeps its uploaded documents beside its database.
const documents = database.replace(/\.sqlite$/, "-documents");
fs.rmSync(documents, { recursive: true, force: true });

const tz = flags.find((f) => f.startsWith("--tz="))?.slice("--tz=".length);
// Backups made from Configurações → Backups go beside the database, never into db/backups/.
const backups = path.join(tmp, `${name}${process.env.E2E_DB_SUFFIX ?? ""}-backups`);
fs.rmSync(backups, { recursive: true, force: true });
const env = { ...process.env, DATABASE_PATH: database, BACKUP_DIR: backups, DOCUMENTS_DIR: documents, PORT: port, NODE_ENV: "production", ...(tz ? { TZ: tz } : {}) };
const tsx = path.join(root, "node_modules/.bin/tsx");
const run = (args) => {
  const result = spawnSync(tsx, args, { cwd: root, env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed (${result.status})`);
};
run(["db/migrate.ts"]);
if (flags.includes("--accounts")) run(["tests/e2e/setup-accounts.ts"]);
if (flags.includes("--demo")) run(["db/seed-demo.ts"]);

// The production server itself (server.mjs), on the build in BUILD_DIR (default `build`).
const server = spawn(process.execPath, [path.join(root, "server.mjs")], { cwd: root, env, stdio: "inherit" });
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// With the server gone nothing else keeps this process alive; it ends with the server's code.
server.on("exit", (code) => {
  process.exitCode = code ?? 0;
});
