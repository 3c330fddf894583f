import { type SQL, and, asc, between, desc, eq, sql } from "drizzle-orm";
import { auditLog, profiles, users } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { BREAK_REASONS, type ChainReport, verifyChainInWorker } from "~/.server/audit-chain";
import { writeCache } from "~/.server/data-cache";
import { databasePath, db, prepared } from "~/.server/db";
import { sentAsJson } from "~/.server/sent-as-json";
import { type KeysetOrder, type Locate, countMatches, keysetPage, locateIn } from "~/.server/pagination";
import { addDaysInClinic, startOfIsoDateInClinic } from "~/lib/dates";
import { type Cursor, type ListState, PAGE_SIZE } from "~/lib/list-params";
import type { AUDIT_LIST } from "~/lib/lists";

type AuditState = ListState<"id", NonNullable<(typeof AUDIT_LIST)["filters"]>>;

/**
 * A date range as a range of ids, [low, high]: entries' times never go backwards along the chain
 * (app/.server/audit-chain.ts), so the first entry at or after `from` and the last before the day
 * after `to` bound the range, each found with one step through the time index. The page then walks
 * the primary key: no sort, at any size. Undefined without dates; null when no entry is in them.
 */
function idRange(from: string | null, to: string | null): { low: number; high: number } | null | undefined {
  const start = from ? startOfIsoDateInClinic(from) : null;
  const endDay = to ? startOfIsoDateInClinic(to) : null;
  const end = endDay ? addDaysInClinic(endDay, 1) : null;
  if (!start && !end) return undefined;
  const low = start
    ? db.select({ id: auditLog.id }).from(auditLog).where(sql`${auditLog.createdAt} >= ${start.getTime()}`).orderBy(asc(auditLog.createdAt)).limit(1).get()?.id
    : 1;
  const high = end
    ? db.select({ id: auditLog.id }).from(auditLog).where(sql`${auditLog.createdAt} < ${end.getTime()}`).orderBy(desc(auditLog.createdAt)).limit(1).get()?.id
    : Number.MAX_SAFE_INTEGER;
  return low === undefined || high === undefined ? null : { low, high };
}

/** The id of the user a filter's e-mail names (-1 when it names no account, which matches nothing). */
const userIdOf = (email: string) => db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()?.id ?? -1;

/** The filters as SQL (`range`: their dates' ids, when already found); an e-mail that names no account matches nothing. */
export function auditWhere(filters: AuditState["filters"], range = idRange(filters.from, filters.to)): SQL | undefined {
  return and(
    filters.user ? eq(auditLog.userId, userIdOf(filters.user)) : undefined,
    filters.entity ? eq(auditLog.entity, filters.entity) : undefined,
    filters.action ? eq(auditLog.action, filters.action) : undefined,
    range === null ? sql`0` : range ? between(auditLog.id, range.low, range.high) : undefined,
  );
}

/**
 * The entries the filters match when they are every entry of an id range (the whole trail, or a
 * date range of it: no user, entity or action) and the trail holds every id of it: from the first
 * id after its last gap on (`audit_log_dense`, migration 0045; since 0044 the insert trigger takes
 * only the next id, and no entry is ever removed), which is the whole trail but for entries from
 * before 0004 with ids missing. Their total is then exact and the row a typed page starts after is
 * worked out from its number, where walking to it passed over every entry before it (page 50 000:
 * 1.25 million entries of a 470 MB table, 250 ms; seconds read from disk). Null otherwise.
 */
function denseSpan(
  filters: AuditState["filters"],
  range: ReturnType<typeof idRange>,
  last: number,
): { low: number; high: number } | null {
  if (filters.user || filters.entity || filters.action) return null;
  if (last === 0 || range === null) return { low: 1, high: 0 };
  const trail = prepared("select (select min(id) from audit_log) as first, (select first_id from audit_log_dense) as dense").get() as {
    first: number;
    dense: number | null;
  };
  const low = Math.max(range?.low ?? trail.first, trail.first);
  const high = Math.min(range?.high ?? last, last);
  return trail.dense !== null && low >= trail.dense ? { low, high } : null;
}

const AUDIT_ROW = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  userId: auditLog.userId,
  userName: profiles.name,
  userEmail: users.email,
  action: auditLog.action,
  entity: auditLog.entity,
  entityId: auditLog.entityId,
  changes: sql<string | null>`${auditLog.changes}`,
  ip: auditLog.ip,
};

const ORDER: KeysetOrder = { key: auditLog.id, id: auditLog.id, dir: "desc" };

/** The id of the trail's last entry (0 for none): every entry added moves it (the trail is append-only). */
const lastEntryId = () => (prepared("select coalesce(max(id), 0) from audit_log").pluck().get() as number);

/**
 * Pages and the last check kept while the trail ends at the same entry and nothing else is written
 * (`writeCache`: an account's name or e-mail moves the data's version; entries do not, so the last
 * entry's id is part of the key). A page viewed again, or each of its rows, is then not read, sent
 * value by value, or rendered again.
 */
const keptUntilNextEntry = writeCache(32);

/** One page of the trail, newest first, through the primary key (keyset), kept until the next entry. */
export function listAudit(state: AuditState) {
  const last = lastEntryId();
  return keptUntilNextEntry(JSON.stringify(["audit-page", state, last]), () => readAudit(state, last));
}

/** A page of the trail as it ends at entry `last`. */
function readAudit(state: AuditState, last: number) {
  const range = idRange(state.filters.from, state.filters.to);
  const span = denseSpan(state.filters, range, last);
  const where = span ? between(auditLog.id, span.low, span.high) : auditWhere(state.filters, range);
  const counted = span ? { total: Math.max(0, span.high - span.low + 1), totalCapped: false } : countMatches(auditLog, where);
  const page = keysetPage(
    state,
    ORDER,
    (position, orderBy, limit, offset, ahead, cursor) =>
      db
        .select({ ...AUDIT_ROW, cursorKey: auditLog.id })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.userId))
        .leftJoin(profiles, eq(profiles.id, auditLog.userId))
        .where(span ? spanPast(span, ahead, cursor) : and(where, position))
        // Key and tie-breaker are the same column: the order is the primary key's.
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
    counted.totalCapped ? null : counted.total,
    span ? locateInSpan(span) : locateIn(auditLog, where, ORDER),
  );
  return { ...page, rows: sentAsJson(page.rows), ...counted, pageSize: PAGE_SIZE };
}

/**
 * A span's entries beyond a page's cursor (`keysetPage`'s `cursor`: its id is its key) as one id
 * range. SQLite bounds a search of the primary key by one condition each way: given the span's and
 * the cursor's, it took the span's and passed over every entry up to the cursor (page 50 000: 44 ms).
 */
function spanPast({ low, high }: { low: number; high: number }, ahead: boolean, cursor?: Cursor) {
  if (!cursor) return between(auditLog.id, low, high);
  // Newest first: the list's own order reads below the cursor's entry, its reverse above it.
  return ahead ? between(auditLog.id, low, Math.min(high, cursor[1] - 1)) : between(auditLog.id, Math.max(low, cursor[1] + 1), high);
}

/** `keysetPage`'s `locate` in a span of every id (`denseSpan`): the entry `offset` rows from its newest (or, in reverse, its oldest). */
const locateInSpan =
  ({ low, high }: { low: number; high: number }): Locate =>
  (_orderBy, offset, ahead) => {
    const id = ahead ? high - offset : low + offset;
    return id >= low && id <= high ? [id, id] : null;
  };

/** Every entry the filters match, oldest first, for the CSV export (streamed, not paged). */
export function auditExport(filters: AuditState["filters"]) {
  const fields = {
    id: auditLog.id,
    createdAt: auditLog.createdAt,
    userId: auditLog.userId,
    userEmail: users.email,
    action: auditLog.action,
    entity: auditLog.entity,
    entityId: auditLog.entityId,
    ip: auditLog.ip,
    changes: sql<string | null>`${auditLog.changes}`,
    prevHash: auditLog.prevHash,
    hash: auditLog.hash,
  };
  const query = db
    .select(fields)
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(auditWhere(filters))
    .orderBy(asc(auditLog.id));
  return { fields, query };
}

export interface ChainStatus {
  checkedAt: Date;
  intact: boolean;
  entries: number;
  brokenId: number | null;
  reason: string | null;
}

/** The last verification of the chain (an audit entry of its own), or null when none ran yet; kept until the next entry. */
export function lastChainCheck(): ChainStatus | null {
  return keptUntilNextEntry(JSON.stringify(["chain-check", lastEntryId()]), readLastChainCheck);
}

function readLastChainCheck(): ChainStatus | null {
  const entry = db
    .select({ createdAt: auditLog.createdAt, changes: auditLog.changes })
    .from(auditLog)
    .where(eq(auditLog.action, "verify"))
    .orderBy(desc(auditLog.id))
    .limit(1)
    .get();
  if (!entry) return null;
  const result = (entry.changes ?? {}) as Partial<{ intact: boolean; entries: number; brokenId: number | null; reason: string | null }>;
  return {
    checkedAt: entry.createdAt,
    intact: result.intact === true,
    entries: result.entries ?? 0,
    brokenId: result.brokenId ?? null,
    reason: result.reason ?? null,
  };
}

/** Verifies the whole chain (in a worker thread: the server goes on answering) and records the result. */
export async function checkChain(userId: number | null): Promise<ChainReport> {
  const report = await verifyChainInWorker(databasePath);
  recordAudit(db, {
    userId,
    action: "verify",
    entity: "audit_log",
    changes: {
      intact: report.intact,
      entries: report.entries,
      brokenId: report.broken?.id ?? null,
      reason: report.broken ? BREAK_REASONS[report.broken.reason] : null,
    },
  });
  return report;
}
