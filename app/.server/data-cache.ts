import type { SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { prepared, sqlite } from "./db";

/**
 * Values read again and again between changes (the dashboard's and the KPIs' figures, the
 * schedule's entries of a period, the pipeline's board, the lists' doctor filters) are kept until
 * the data changes. The data's version is SQLite's own:
 * `PRAGMA data_version` moves when another connection commits, `total_changes()` when this one
 * writes, so no write anywhere can leave a stale figure, and a page viewed between writes costs a
 * lookup instead of a scan. Rows of the audit trail and sessions' touches are left out
 * (`withoutNewVersion`): no figure reads them, and every view of a patient's data adds an entry,
 * every signed-in user touches their session once a minute, so counting them would recompute the
 * dashboard after each patient page and every few seconds in a clinic of ten users.
 *
 * A value that reads only a few tables can be kept over writes to the others instead
 * (`cachedUntilTablesChange`, `tablesWriteCache`): triggers count each table's writes in
 * `table_versions`, from any connection. The lists' pages and searches, the schedule's entries, the
 * pipeline's board, the pickers and the fee reports are kept so: a task, a payment or a message
 * written meanwhile leaves them.
 */
/** Values kept: figures are a few hundred bytes, a schedule period up to 140 entries (≈ 30 KB), a board 100 cards. */
const MAX_ENTRIES = 256;
const entries = new Map<string, { version: string; value: unknown }>();
let versionStatements: { data: () => number; changes: () => number } | undefined;
/** Rows this connection wrote that no figure depends on (audit entries). */
let changesLeftOut = 0;

function statements() {
  return (versionStatements ??= (() => {
    const data = sqlite.prepare("pragma data_version").pluck();
    const changes = sqlite.prepare("select total_changes()").pluck();
    return { data: () => data.get() as number, changes: () => changes.get() as number };
  })());
}

function dataVersion(): string {
  const { data, changes } = statements();
  return `${data()}:${changes() - changesLeftOut}`;
}

/**
 * Runs `write`, whose rows no cached figure reads (an audit entry), without giving the data a new
 * version. Rows written alongside it by the caller's own statements still count.
 */
export function withoutNewVersion<T>(write: () => T): T {
  const { changes } = statements();
  const before = changes();
  try {
    return write();
  } finally {
    changesLeftOut += changes() - before;
  }
}

/** `compute()`, or the value it gave for the same `key` if the database has not changed since. */
export function cachedUntilWrite<T>(key: string, compute: () => T): T {
  return keptIn(entries, MAX_ENTRIES, key, compute);
}

/**
 * A store of its own for values kept until the next write, holding up to `maxEntries`: for values
 * made from what users type (searches), which would otherwise push the figures out of the shared one.
 */
export function writeCache(maxEntries: number) {
  const own = new Map<string, { version: string; value: unknown }>();
  return <T,>(key: string, compute: () => T): T => keptIn(own, maxEntries, key, compute);
}

/** Tables whose writes are counted in `table_versions` (migrations 0036, 0037, 0040, 0041, 0046, 0048 and 0051, by triggers). */
export type VersionedTable =
  | "messages"
  | "documents"
  | "tasks"
  | "subtasks"
  | "profiles"
  | "surgery_fee_lines"
  | "doctors"
  | "surgeries"
  | "payers"
  | "patients"
  | "appointments"
  | "clinic_holidays"
  | "opme_requests"
  | "opme_quotes";
/** Values kept over a few tables (`cachedUntilTablesChange`). */
const tableEntries = new Map<string, { version: string; value: unknown }>();

/**
 * `compute()`, or the value it gave for the same `key` while none of `tables` has been written: for
 * a report that reads only those, which writes elsewhere (an appointment, a patient, a payment) would
 * otherwise make it compute again. It must read nothing else. Within a transaction the value is
 * computed afresh, and not kept (`keptIn`).
 */
export function cachedUntilTablesChange<T>(tables: readonly VersionedTable[], key: string, compute: () => T): T {
  return keptOverTables(tableEntries, MAX_ENTRIES, tables, key, compute);
}

/**
 * A store of its own for values kept while the tables each is read from are not written
 * (`cachedUntilTablesChange`), holding up to `maxEntries`: for a list's pages and searches, which
 * read a table and the patients and doctors it names. A search of patients is then kept over the
 * appointments, tasks, payments and messages written meanwhile, where `writeCache` would read it
 * again after each.
 */
export function tablesWriteCache(maxEntries: number) {
  const own = new Map<string, { version: string; value: unknown }>();
  return <T,>(tables: readonly VersionedTable[], key: string, compute: () => T): T => keptOverTables(own, maxEntries, tables, key, compute);
}

function keptOverTables<T>(
  store: Map<string, { version: string; value: unknown }>,
  maxEntries: number,
  tables: readonly VersionedTable[],
  key: string,
  compute: () => T,
): T {
  if (sqlite.inTransaction) return compute();
  const tableVersion = prepared("select version from table_versions where table_name = ?").pluck();
  const versions = tables.map((table) => tableVersion.get(table));
  // A table whose row is missing (deleted by hand) is taken to change with every write.
  const version = versions.some((v) => typeof v !== "number") ? `any:${dataVersion()}` : versions.join(":");
  return keptIn(store, maxEntries, `${tables.join(",")}|${key}`, compute, version);
}

function keptIn<T>(
  store: Map<string, { version: string; value: unknown }>,
  maxEntries: number,
  key: string,
  compute: () => T,
  version = dataVersion(),
): T {
  const hit = store.get(key);
  if (hit && hit.version === version) return hit.value as T;
  const value = compute();
  // Not kept from inside a transaction: if it rolls back, its rows are gone but not the version read
  // there (total_changes() does not go back; a table's count does, and is reached again by other
  // rows), so the value would be handed out as current.
  if (sqlite.inTransaction) return value;
  // Set anew, so the oldest computed is the first forgotten.
  store.delete(key);
  if (store.size >= maxEntries) store.delete(store.keys().next().value!);
  store.set(key, { version, value });
  return value;
}

/** A condition's SQL with its values, as part of a key (a search's filters, a list's page). */
export function sqlKey(condition: SQL): string {
  const { sql: text, params } = keyDialect.sqlToQuery(condition);
  return JSON.stringify([text, params]);
}
const keyDialect = new SQLiteSyncDialect();
