/**
 * `npm run audit:verify`: walks the audit trail's hash chain (ADR 0011). Exit 0 when every entry
 * checks out; 1 with the first broken entry otherwise; 2 when the database cannot be opened.
 *   DATABASE_PATH   the database (default db/clinic.sqlite)
 */
import path from "node:path";
import Database from "better-sqlite3";
import { BREAK_REASONS, verifyChainSync } from "../app/.server/audit-chain";

const databasePath = path.resolve(process.env.DATABASE_PATH ?? "db/clinic.sqlite");
let conn: Database.Database;
try {
  conn = new Database(databasePath, { readonly: true, fileMustExist: true });
} catch {
  console.error(`Banco de dados não encontrado: ${databasePath}`);
  process.exit(2);
}
const started = performance.now();
const report = verifyChainSync(conn);
conn.close();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (report.intact) {
  console.log(`Trilha de auditoria íntegra: ${report.entries} registros conferidos em ${seconds} s (último #${report.lastId ?? "-"}, hash ${report.lastHash?.slice(0, 16) ?? "-"}…).`);
} else {
  const broken = report.broken!;
  console.error(`Trilha de auditoria ROMPIDA no registro #${broken.id}: ${BREAK_REASONS[broken.reason]}.`);
  console.error(`Os ${report.entries} registros anteriores conferem (até #${report.lastId ?? "-"}).`);
  process.exit(1);
}
