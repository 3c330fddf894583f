import type Database from "better-sqlite3";
import { normalizeSearch } from "~/lib/search";
import { type StoredEntry, entryHash } from "./audit-chain";

/**
 * The SQL functions our queries use, on any connection (the server's, or an export's read-only one
 * in its worker: app/.server/export-rows.worker.ts). Nothing here opens a database, so a worker can
 * import it alone.
 * normalize_search(text): the same accent- and case-folding as app/lib/search.ts, for searching
 * free-text columns that keep no stored search key (appointment type, surgery hospital …).
 * audit_entry_hash(id, prev_hash, created_at, user_id, action, entity, entity_id, changes, ip): an
 * audit entry's hash as app/.server/audit-chain.ts makes it, for checking the chain in a worker.
 */
export function registerFunctions(conn: Database.Database) {
  conn.function("normalize_search", { deterministic: true }, (value: unknown) => normalizeSearch(value == null ? "" : String(value)));
  conn.function(
    "audit_entry_hash",
    { deterministic: true },
    // The stored values as SQLite gives them, in canonical order (`canonicalEntry`).
    (id, prev_hash, created_at, user_id, action, entity, entity_id, changes, ip) =>
      entryHash({ id, prev_hash, created_at, user_id, action, entity, entity_id, changes, ip } as StoredEntry),
  );
}
