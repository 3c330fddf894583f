/**
 * The audit trail's hash chain (docs/decisions/0011-audit-trail-and-backups.md). Works on a plain
 * better-sqlite3 connection, so the server, `npm run audit:verify`, the seeds and the tests share it.
 *
 * Canonical form of an entry (version 1): the JSON array
 *   [id, prev_hash, created_at, user_id, action, entity, entity_id, changes, ip]
 * of the values exactly as SQLite stores them (integers as numbers, `changes` as its stored JSON
 * text, absent values as null), serialised by JSON.stringify. `hash` = sha256 hex of that string.
 * The first entry's prev_hash is GENESIS; every other entry's is the hash of the entry with the
 * next lower id.
 */
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";

export const GENESIS = "0".repeat(64);

export interface StoredEntry {
  id: number;
  prev_hash: string | null;
  created_at: number;
  user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  changes: string | null;
  ip: string | null;
  hash: string | null;
}

export function canonicalEntry(e: Omit<StoredEntry, "hash">): string {
  return JSON.stringify([e.id, e.prev_hash, e.created_at, e.user_id, e.action, e.entity, e.entity_id, e.changes, e.ip]);
}

export function entryHash(e: Omit<StoredEntry, "hash">): string {
  return createHash("sha256").update(canonicalEntry(e)).digest("hex");
}

export interface NewEntry {
  userId: number | null;
  action: string;
  entity: string;
  entityId: string | null;
  /** Already serialised JSON, or null. */
  changes: string | null;
  ip: string | null;
  now?: number;
}

const statements = new WeakMap<Database.Database, { last: Database.Statement; insert: Database.Statement }>();
function prepared(conn: Database.Database) {
  let s = statements.get(conn);
  if (!s) {
    s = {
      last: conn.prepare("select id, hash, created_at from audit_log order by id desc limit 1"),
      insert: conn.prepare(
        "insert into audit_log (id, prev_hash, created_at, user_id, action, entity, entity_id, changes, ip, hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
    };
    statements.set(conn, s);
  }
  return s;
}

/**
 * Appends one entry to the chain. Reading the last entry and inserting the next happen in one write
 * transaction (the caller's, or an IMMEDIATE one of its own), so SQLite's single writer orders
 * concurrent writers; the insert trigger, which takes only the next id chained to the last hash,
 * refuses a fork even if not.
 * Times never go backwards along the chain (a clock step back keeps the previous entry's time),
 * which lets a date range be read as an id range.
 */
export function appendEntry(conn: Database.Database, entry: NewEntry): StoredEntry {
  const run = () => {
    const s = prepared(conn);
    type Last = { id: number; hash: string | null; created_at: number } | undefined;
    let last = s.last.get() as Last;
    if (last && last.hash === null) {
      sealLegacyEntries(conn);
      last = s.last.get() as Last;
    }
    const row: StoredEntry = {
      id: (last?.id ?? 0) + 1,
      prev_hash: last ? last.hash : GENESIS,
      created_at: Math.max(entry.now ?? Date.now(), last?.created_at ?? 0),
      user_id: entry.userId,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId,
      changes: entry.changes,
      ip: entry.ip,
      hash: null,
    };
    row.hash = entryHash(row);
    s.insert.run(row.id, row.prev_hash, row.created_at, row.user_id, row.action, row.entity, row.entity_id, row.changes, row.ip, row.hash);
    return row;
  };
  return conn.inTransaction ? run() : conn.transaction(run).immediate();
}

/**
 * Seals entries written before the chain existed (hash still null), in id order, once: migration
 * 0004 adds the columns and `runMigrations` calls this. The update trigger allows exactly this
 * (setting the hash of an unsealed entry, nothing else).
 */
export function sealLegacyEntries(conn: Database.Database): number {
  const seal = () => {
    const first = conn.prepare("select min(id) as id from audit_log where hash is null").get() as { id: number | null };
    if (first.id === null) return 0;
    const before = conn.prepare("select hash from audit_log where id < ? order by id desc limit 1").get(first.id) as { hash: string } | undefined;
    let prev = before?.hash ?? GENESIS;
    const update = conn.prepare("update audit_log set prev_hash = ?, hash = ? where id = ?");
    const rows = conn.prepare("select * from audit_log where id >= ? order by id").all(first.id) as StoredEntry[];
    for (const row of rows) {
      const sealed = { ...row, prev_hash: prev };
      const hash = entryHash(sealed);
      update.run(prev, hash, row.id);
      prev = hash;
    }
    return rows.length;
  };
  return conn.inTransaction ? seal() : conn.transaction(seal).immediate();
}

export type BreakReason = "hash" | "link" | "unsealed" | "truncated";

export interface ChainReport {
  intact: boolean;
  /** Entries checked. */
  entries: number;
  lastId: number | null;
  lastHash: string | null;
  /** The first entry that does not check out, and why. */
  broken: { id: number; reason: BreakReason } | null;
}

export const BREAK_REASONS: Record<BreakReason, string> = {
  hash: "o conteúdo do registro não confere com o seu hash (registro alterado)",
  link: "o registro não aponta para o hash do anterior (registro removido, inserido ou reordenado)",
  unsealed: "registro sem hash",
  truncated: "registros do fim da trilha foram removidos",
};

/** Entries read at a time by `verifyChainSync` (the CLI and the tests), to bound its memory. */
const VERIFY_BATCH = 500;

/** Checks the whole chain in the caller's thread: `npm run audit:verify` and the tests. */
export function verifyChainSync(conn: Database.Database): ChainReport {
  const page = conn.prepare("select * from audit_log where id > ? order by id limit ?");
  let prev = GENESIS;
  let lastId = 0;
  let entries = 0;
  const report = (broken: ChainReport["broken"]): ChainReport => ({
    intact: broken === null,
    entries,
    lastId: lastId || null,
    lastHash: lastId ? prev : null,
    broken,
  });
  for (;;) {
    const rows = page.all(lastId, VERIFY_BATCH) as StoredEntry[];
    for (const row of rows) {
      if (row.hash === null) return report({ id: row.id, reason: "unsealed" });
      if (row.prev_hash !== prev) return report({ id: row.id, reason: "link" });
      if (entryHash(row) !== row.hash) return report({ id: row.id, reason: "hash" });
      prev = row.hash;
      lastId = row.id;
      entries += 1;
    }
    if (rows.length < VERIFY_BATCH) break;
  }
  const seq = conn.prepare("select seq from sqlite_sequence where name = 'audit_log'").pluck().get() as number | undefined;
  return report(cutOffAfter(lastId, seq ?? null));
}

/**
 * The break at the end, if entries were cut off after `lastId`: AUTOINCREMENT remembers the highest
 * id ever used (`seq`, from sqlite_sequence), and removing the last entries leaves it behind.
 */
function cutOffAfter(lastId: number, seq: number | null): ChainReport["broken"] {
  return seq !== null && seq > lastId ? { id: lastId + 1, reason: "truncated" } : null;
}

/**
 * The chain checked in one statement, so on one snapshot: the first entry that does not check out
 * and why, by the same tests in the same order as `verifyChainSync` (no hash, a `prev_hash` that is
 * not the previous entry's hash, a hash that is not its content's, hashed by `audit_entry_hash`:
 * app/.server/sql-functions.ts, `entryHash` itself); the entries before it (or all of them), the
 * last of those and its hash; and the highest id ever used (the end's check).
 */
const CHAIN_CHECK_SQL = `
  with first_break as materialized (
    select id, reason from (
      select a.id, case
        when a.hash is null then 'unsealed'
        when a.prev_hash is not coalesce((select p.hash from audit_log p where p.id < a.id order by p.id desc limit 1), '${GENESIS}') then 'link'
        when audit_entry_hash(a.id, a.prev_hash, a.created_at, a.user_id, a.action, a.entity, a.entity_id, a.changes, a.ip) is not a.hash then 'hash'
      end as reason
      from audit_log a order by a.id
    ) where reason is not null limit 1
  ),
  checked as (select id, hash from audit_log where id < coalesce((select id from first_break), 9223372036854775807))
  select (select id from first_break), (select reason from first_break), count(*), max(id),
    (select hash from checked order by id desc limit 1), (select seq from sqlite_sequence where name = 'audit_log')
  from checked`;

/**
 * Checks the whole chain of the database at `file` in a worker thread (`runInWorker`,
 * app/.server/export-rows.ts): 'Verificar integridade' hashes every entry (2.3 s for the scale
 * database's 530 500), which in the server's thread would hold up every request meanwhile.
 */
export async function verifyChainInWorker(file: string): Promise<ChainReport> {
  // Imported when called: the worker itself loads this module (for `entryHash`, through
  // sql-functions.ts) and has no use for the code that starts workers.
  const { runInWorker } = await import("./export-rows");
  type Row = [number | null, BreakReason | null, number, number | null, string | null, number | null];
  const [[breakId, reason, entries, lastId, lastHash, seq]] = (await runInWorker(file, CHAIN_CHECK_SQL)) as Row[];
  const broken = breakId !== null && reason !== null ? { id: breakId, reason } : cutOffAfter(lastId ?? 0, seq);
  return { intact: broken === null, entries, lastId, lastHash, broken };
}

/**
 * Runs `fn` with the append-only triggers lifted, then puts them back as they were: only for the
 * seeds' `--force`, which empties every table of the database it is about to refill. Inside the
 * caller's transaction, so a failure leaves the triggers in place.
 */
export function withAuditGuardsLifted<T>(conn: Database.Database, fn: () => T): T {
  const triggers = conn
    .prepare("select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'audit_log'")
    .all() as { name: string; sql: string }[];
  for (const t of triggers) conn.exec(`drop trigger "${t.name}"`);
  try {
    return fn();
  } finally {
    for (const t of triggers) conn.exec(t.sql);
  }
}
