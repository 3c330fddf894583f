import Database from "better-sqlite3";
import path from "node:path";

/**
 * The database file behind one of the test servers (see tests/e2e/serve.mjs), opened beside the
 * running server to insert fixtures or check what a screen wrote. WAL mode lets both work at once.
 */
export function openTestDb(server: "app" | "isolated" | "onboarding" | "demo" = "app") {
  const db = new Database(path.resolve(import.meta.dirname, `../.tmp/${server}${process.env.E2E_DB_SUFFIX ?? ""}.sqlite`));
  db.pragma("busy_timeout = 10000");
  db.pragma("foreign_keys = ON");
  return db;
}

/** A unique suffix so tests running side by side on one database never collide. */
export function uniqueTag() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
