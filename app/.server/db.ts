import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import fs from "node:fs";
import path from "node:path";
import * as schema from "~db/schema";
import { sealLegacyEntries } from "./audit-chain";
import { fillSearchKeys } from "./search-keys";
import { databasePath } from "./database-path";
import { PAGE_CACHE_KIB } from "./page-cache";
import { registerFunctions } from "./sql-functions";
import { startWalCheckpointer } from "./wal-checkpointer";

export { databasePath };

/**
 * Opens the SQLite file with the pragmas every connection needs.
 * synchronous=FULL: see docs/decisions/0002-sqlite-durability.md.
 */
export function openDatabase(file: string = databasePath) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Patient data: the file, its WAL and shared-memory files are readable by this account only
  // (0600). The umask covers files SQLite creates from now on; chmod fixes ones made before.
  const previousMask = process.umask(0o077);
  process.umask(previousMask | 0o077);
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  registerFunctions(sqlite);
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      fs.chmodSync(file + suffix, 0o600);
    } catch {
      // not created (yet), or an in-memory database
    }
  }
  return sqlite;
}

export function runMigrations(sqlite: Database.Database) {
  migrate(drizzle(sqlite), { migrationsFolder: path.resolve(import.meta.dirname ?? ".", "../../drizzle") });
  // Audit entries written before the hash chain existed are chained once, in id order (ADR 0011).
  sealLegacyEntries(sqlite);
  // Search keys of rows written before they existed (migration 0031), or by hand since.
  fillSearchKeys(sqlite);
}

declare global {
  // Survives dev-server module reloads so one process keeps one connection.
  var __sinapseSqlite: Database.Database | undefined;
  var __sinapseOptimizer: NodeJS.Timeout | undefined;
  var __sinapseCheckpointer: ReturnType<typeof startWalCheckpointer> | undefined;
}

export const sqlite = (globalThis.__sinapseSqlite ??= openDatabase());

/**
 * Keeps the query planner's statistics current as the tables grow: once when the process opens
 * the database (0x10002: analyse what needs it, bounded so a start stays fast) and every few hours.
 * The same turns store the search keys of rows written by hand meanwhile (app/.server/search-keys.ts).
 */
function optimizePlanner() {
  try {
    sqlite.pragma("optimize = 0x10002");
  } catch (error) {
    console.error("PRAGMA optimize failed", error);
  }
  try {
    fillSearchKeys(sqlite);
  } catch (error) {
    // Before the migration that adds the keys (db/migrate.ts opens the database first): nothing to fill.
    const message = `${error} ${error instanceof Error ? error.cause : ""}`;
    if (!/no such (column|table)/.test(message)) console.error("Filling search keys failed", error);
  }
}
if (!globalThis.__sinapseOptimizer) {
  optimizePlanner();
  globalThis.__sinapseOptimizer = setInterval(optimizePlanner, 6 * 60 * 60 * 1000);
  globalThis.__sinapseOptimizer.unref();
}

/**
 * The production server checkpoints the WAL in a thread of its own (./wal-checkpointer.ts). Not under
 * Vitest (tests/unit/wal-checkpointer.test.ts starts its own), in development, in the scripts (seeds,
 * migrations, backups), nor with CHECKPOINT_WORKER=off: there the connection checkpoints itself.
 */
if (!globalThis.__sinapseCheckpointer && process.env.NODE_ENV === "production" && !process.env.VITEST && process.env.CHECKPOINT_WORKER !== "off") {
  globalThis.__sinapseCheckpointer = startWalCheckpointer(sqlite, databasePath);
}

const statements = new Map<string, Database.Statement>();

/**
 * `sql` prepared once per process and kept by its text: preparing costs more than running most of
 * a page's small reads. A statement's mode (`pluck()`, `raw()`) stays set on it, so each SQL text
 * keeps one mode wherever it is used. Prepared again if the connection was replaced (tests).
 */
export function prepared(sql: string): Database.Statement {
  let statement = statements.get(sql);
  if (!statement || !statement.database.open) {
    statement = sqlite.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}

/**
 * A drizzle query built and prepared on its first use, for reads every view of a page runs:
 * building the SQL from the query builder costs more than running a keyed read. Its parameters
 * are `sql.placeholder(name)`s, given to `execute`/`get`/`all` as `{ name: value }`.
 */
export function preparedQuery<Query>(build: () => Query): () => Query {
  let query: Query | undefined;
  return () => (query ??= build());
}

export const db = drizzle(sqlite, { schema });
/**
 * Every transaction begins IMMEDIATE: it takes the write lock at BEGIN, waiting for it up to the
 * busy timeout. A deferred one that read first and then wrote failed at once with "database is
 * locked" (a 500) whenever another connection had committed in between, since SQLite cannot let a
 * transaction write on top of a snapshot that is no longer the latest: the backup and maintenance
 * scripts, a second server process, or the test suite's fixtures. A nested transaction (a
 * savepoint) is unaffected; `{ behavior: "deferred" }` still asks for the old kind.
 */
const beginDeferred = db.transaction.bind(db);
db.transaction = ((run, config) => beginDeferred(run, { behavior: "immediate", ...config })) as typeof db.transaction;
export type DB = typeof db;
/** The transaction handle drizzle passes to `db.transaction(tx => …)`. */
export type Tx = Parameters<Parameters<DB["transaction"]>[0]>[0];
