import { sqlite } from "./db";

/**
 * Figures computed from the whole database (the dashboard's, the KPIs') are kept until the data
 * changes. The data's version is SQLite's own: `PRAGMA data_version` moves when another connection
 * commits, `total_changes()` when this one writes, so no write anywhere can leave a stale figure,
 * and a page viewed between writes costs a lookup instead of a scan.
 */
const MAX_ENTRIES = 64;
const entries = new Map<string, { version: string; value: unknown }>();
let versionStatements: { data: () => number; changes: () => number } | undefined;

function dataVersion(): string {
  versionStatements ??= (() => {
    const data = sqlite.prepare("pragma data_version").pluck();
    const changes = sqlite.prepare("select total_changes()").pluck();
    return { data: () => data.get() as number, changes: () => changes.get() as number };
  })();
  return `${versionStatements.data()}:${versionStatements.changes()}`;
}

/** `compute()`, or the value it gave for the same `key` if the database has not changed since. */
export function cachedUntilWrite<T>(key: string, compute: () => T): T {
  const version = dataVersion();
  const hit = entries.get(key);
  if (hit && hit.version === version) return hit.value as T;
  const value = compute();
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, { version, value });
  return value;
}
