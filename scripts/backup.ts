/**
 * `npm run backup`: an online backup of the database (the server may keep running), checked with
 * PRAGMA integrity_check, with the stored documents when they exist; keeps the newest backups.
 *   DATABASE_PATH     the database (default db/clinic.sqlite)
 *   BACKUP_DIR        where backups go (default db/backups/)
 *   DOCUMENTS_DIR     stored documents to copy beside the backup (default db/documents/, when present)
 *   BACKUP_RETENTION  how many backups to keep (default: Configurações → Backups, else 14)
 */
import path from "node:path";
import Database from "better-sqlite3";
import { appendEntry } from "../app/.server/audit-chain";
import { backupDir, makeBackup } from "../app/.server/backup";

const databasePath = path.resolve(process.env.DATABASE_PATH ?? "db/clinic.sqlite");

function retentionOf(conn: Database.Database): number {
  const fromEnv = Number(process.env.BACKUP_RETENTION);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  try {
    return (conn.prepare("select retention from backup_settings where id = 1").pluck().get() as number | undefined) ?? 14;
  } catch {
    return 14;
  }
}

let conn: Database.Database;
try {
  conn = new Database(databasePath, { fileMustExist: true });
  conn.pragma("busy_timeout = 5000");
} catch {
  console.error(`Banco de dados não encontrado: ${databasePath}`);
  process.exit(2);
}

const started = performance.now();
try {
  const result = await makeBackup(conn, { retention: retentionOf(conn) });
  appendEntry(conn, {
    userId: null,
    action: "backup",
    entity: "database",
    entityId: null,
    changes: JSON.stringify({ file: path.basename(result.file), documents: result.documents !== null, by: "npm run backup" }),
    ip: null,
  });
  const mb = (result.size / 1024 / 1024).toFixed(1);
  console.log(`Backup verificado (integrity_check ok): ${result.file} (${mb} MB, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  if (result.documents) console.log(`Documentos copiados para: ${result.documents}`);
  if (result.removed.length) console.log(`Backups antigos removidos (retenção): ${result.removed.join(", ")}`);
  console.log(`Pasta de backups: ${backupDir()}`);
} catch (error) {
  console.error(`Falha no backup: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  conn.close();
}
