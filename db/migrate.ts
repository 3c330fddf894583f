/** Applies pending migrations to the database at DATABASE_PATH (default db/clinic.sqlite). */
import { databasePath, runMigrations, sqlite } from "../app/.server/db";

runMigrations(sqlite);
sqlite.close();
console.log(`Banco de dados atualizado: ${databasePath}`);
