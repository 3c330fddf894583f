/**
 * `npm run restore FILE`: replaces the database with the backup FILE (a sinapse-*.sqlite from
 * `npm run backup` or Configurações → Backups), after checking it with PRAGMA integrity_check.
 * The current database is kept beside it as <name>.before-restore-<time>; documents saved with the
 * backup replace the current ones, which are kept the same way. Stop the server first.
 *   DATABASE_PATH   the database to replace (default db/clinic.sqlite)
 *   DOCUMENTS_DIR   the stored documents (default db/documents/)
 */
import path from "node:path";
import { restoreBackup } from "../app/.server/backup";

const file = process.argv[2];
if (!file) {
  console.error("Uso: npm run restore -- <arquivo de backup .sqlite>");
  process.exit(2);
}
const databasePath = path.resolve(process.env.DATABASE_PATH ?? "db/clinic.sqlite");
try {
  const result = await restoreBackup(file, databasePath);
  console.log(`Backup verificado (integrity_check ok) e restaurado em ${result.restored}.`);
  if (result.previous) console.log(`O banco anterior foi mantido em ${result.previous}.`);
  if (result.previousDocuments) console.log(`Os documentos anteriores foram mantidos em ${result.previousDocuments}.`);
  console.log("Inicie o servidor (npm start): migrações pendentes são aplicadas na partida.");
} catch (error) {
  console.error(`Restauração recusada: ${error instanceof Error ? error.message : String(error)}`);
  console.error("O banco atual não foi alterado.");
  process.exit(1);
}
