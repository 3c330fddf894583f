/**
 * Scale data set: `npm run seed:scale` (add `--force` to replace an existing database).
 *
 * Builds a large practice's 20-year history for performance work: at SCALE_FACTOR=1, 200 000
 * patients, 1 000 000 appointments, 100 000 surgeries (stage history and fee lines included; OPME
 * requests with their suppliers' quotes for those that went through 'OPME em Cotação') and 500 000
 * financial transactions, with their tasks, WhatsApp messages, referrals, audit trail and about
 * 485 000 patients' documents (rows only: no file is written), plus 40 doctors and the demo's
 * Cadastros, and one admin login.
 * Reproducible from SCALE_SEED (and SCALE_NOW, the clock it is placed around; default: now).
 *
 *   DATABASE_PATH         target file (default db/clinic.sqlite)
 *   SCALE_FACTOR          1 = full size; 0.01 = a 1 % version in seconds
 *   SCALE_SEED            pseudo-random seed (default 20050301)
 *   SCALE_NOW             ISO instant to build around (default: the current minute)
 *   SCALE_ADMIN_EMAIL     admin login (default admin@sinapse.scale)
 *   SCALE_ADMIN_PASSWORD  admin password (default sinapse-escala)
 */
import fs from "node:fs";
import { databasePath } from "../app/.server/database-path";

const DEFAULT_ADMIN_EMAIL = "admin@sinapse.scale";
const DEFAULT_ADMIN_PASSWORD = "sinapse-escala";

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`${name} inválido: '${raw}' (use um número positivo).`);
    process.exit(1);
  }
  return value;
}

/**
 * `--force`: the database file (and its WAL and shared-memory files) is removed before the app
 * opens it, so the build starts from a new one. Emptying a full-size database's tables in place
 * deletes millions of rows one by one through their triggers (the counters, KPI tables and search
 * indexes they keep): it had not finished after 8 minutes, where removing the file takes a moment.
 * Nothing of the old file is kept; a scale database is for measuring, not a clinic's.
 */
function removeDatabaseFiles(file: string) {
  if (!fs.existsSync(file)) return;
  console.log(`Apagando o banco existente ${file}…`);
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
}

async function main() {
  const force = process.argv.includes("--force");
  const factor = numberFromEnv("SCALE_FACTOR", 1);
  // Every setting is checked before `--force` removes anything.
  const chosenSeed = process.env.SCALE_SEED?.trim() ? Math.trunc(numberFromEnv("SCALE_SEED", 1)) : null;
  const now = process.env.SCALE_NOW ? new Date(process.env.SCALE_NOW) : new Date(Math.floor(Date.now() / 60_000) * 60_000);
  if (Number.isNaN(now.getTime())) {
    console.error(`SCALE_NOW inválido: '${process.env.SCALE_NOW}' (use uma data ISO, ex. 2026-03-02T12:00:00-03:00).`);
    process.exit(1);
  }
  const adminEmail = process.env.SCALE_ADMIN_EMAIL || DEFAULT_ADMIN_EMAIL;
  const adminPassword = process.env.SCALE_ADMIN_PASSWORD || DEFAULT_ADMIN_PASSWORD;

  const started = Date.now();
  if (force) removeDatabaseFiles(databasePath);
  // Imported only now: the app's connection opens the file as its module loads.
  const { runMigrations, sqlite } = await import("../app/.server/db");
  const { buildScaleDatabase, DEFAULT_SCALE_SEED } = await import("./seed/scale/build");
  const { refuseUnlessEmpty } = await import("./seed/tables");
  const seed = chosenSeed ?? DEFAULT_SCALE_SEED;

  runMigrations(sqlite);
  refuseUnlessEmpty(sqlite, { databasePath, force, seed: "O seed de escala", command: "npm run seed:scale" });
  console.log(`Gerando a base de escala em ${databasePath} (fator ${factor}, semente ${seed}, relógio ${now.toISOString()})…`);
  const result = await buildScaleDatabase(sqlite, { factor, seed, now, adminEmail, adminPassword, log: (m) => console.log(m) });
  sqlite.close();

  const bytes = fs.statSync(databasePath).size;
  console.log(`\nBase de escala criada em ${databasePath} em ${((Date.now() - started) / 1000).toFixed(1)} s (${(bytes / 1024 / 1024).toFixed(0)} MB).\n`);
  for (const [table, n] of Object.entries(result.counts)) console.log(`  ${table.padEnd(24)} ${n.toLocaleString("pt-BR")}`);
  console.log(`\nLogin (administrador): ${result.adminEmail}  senha: ${adminPassword}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
