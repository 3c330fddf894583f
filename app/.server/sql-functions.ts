import type Database from "better-sqlite3";
import { normalizeSearch } from "~/lib/search";

/**
 * The SQL functions our queries use, on any connection (the server's, or an export's read-only one
 * in its worker: app/.server/export-rows.worker.ts). Nothing here opens a database, so a worker can
 * import it alone.
 * normalize_search(text): the same accent- and case-folding as app/lib/search.ts, for searching
 * free-text columns that keep no stored search key (appointment type, surgery hospital …).
 */
export function registerFunctions(conn: Database.Database) {
  conn.function("normalize_search", { deterministic: true }, (value: unknown) => normalizeSearch(value == null ? "" : String(value)));
}
