import Database from "better-sqlite3";

/**
 * The models open the app's database when first imported (app/.server/db.ts keeps one connection
 * on globalThis). The browser tests import them only for their pure search-key functions and write
 * through their own connection (db.ts), so the runner gets an empty in-memory stand-in instead of
 * creating db/clinic.sqlite. Import this module before any model.
 */
globalThis.__sinapseSqlite ??= new Database(":memory:");
