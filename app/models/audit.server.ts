import { type SQL, and, asc, between, desc, eq, sql } from "drizzle-orm";
import { auditLog, profiles, users } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { BREAK_REASONS, type ChainReport, verifyChainInWorker } from "~/.server/audit-chain";
import { databasePath, db } from "~/.server/db";
import { type KeysetOrder, countMatches, keysetPage, locateIn } from "~/.server/pagination";
import { addDaysInClinic, startOfIsoDateInClinic } from "~/lib/dates";
import { type ListState, PAGE_SIZE } from "~/lib/list-params";
import type { AUDIT_LIST } from "~/lib/lists";

type AuditState = ListState<"id", NonNullable<(typeof AUDIT_LIST)["filters"]>>;

/**
 * A date range as a range of ids: entries' times never go backwards along the chain
 * (app/.server/audit-chain.ts), so the first entry at or after `from` and the last before the day
 * after `to` bound the range, each found with one step through the time index. The page then walks
 * the primary key: no sort, at any size.
 */
function idRange(from: string | null, to: string | null): SQL | undefined {
  const start = from ? startOfIsoDateInClinic(from) : null;
  const endDay = to ? startOfIsoDateInClinic(to) : null;
  const end = endDay ? addDaysInClinic(endDay, 1) : null;
  if (!start && !end) return undefined;
  const first = start
    ? db.select({ id: auditLog.id }).from(auditLog).where(sql`${auditLog.createdAt} >= ${start.getTime()}`).orderBy(asc(auditLog.createdAt)).limit(1).get()?.id
    : 1;
  const last = end
    ? db.select({ id: auditLog.id }).from(auditLog).where(sql`${auditLog.createdAt} < ${end.getTime()}`).orderBy(desc(auditLog.createdAt)).limit(1).get()?.id
    : Number.MAX_SAFE_INTEGER;
  if (first === undefined || last === undefined) return sql`0`;
  return between(auditLog.id, first, last);
}

/** The filters as SQL; an e-mail that names no account matches nothing. */
export function auditWhere(filters: AuditState["filters"]): SQL | undefined {
  let userId: number | undefined;
  if (filters.user) {
    userId = db.select({ id: users.id }).from(users).where(eq(users.email, filters.user)).get()?.id ?? -1;
  }
  return and(
    userId !== undefined ? eq(auditLog.userId, userId) : undefined,
    filters.entity ? eq(auditLog.entity, filters.entity) : undefined,
    filters.action ? eq(auditLog.action, filters.action) : undefined,
    idRange(filters.from, filters.to),
  );
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

/** One page of the trail, newest first, through the primary key (keyset). */
export function listAudit(state: AuditState) {
  const where = auditWhere(state.filters);
  const counted = countMatches(auditLog, where);
  const page = keysetPage(
    state,
    ORDER,
    (position, orderBy, limit, offset) =>
      db
        .select({ ...AUDIT_ROW, cursorKey: auditLog.id })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.userId))
        .leftJoin(profiles, eq(profiles.id, auditLog.userId))
        .where(and(where, position))
        // Key and tie-breaker are the same column: the order is the primary key's.
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
    counted.totalCapped ? null : counted.total,
    locateIn(auditLog, where, ORDER),
  );
  return { ...page, ...counted, pageSize: PAGE_SIZE };
}

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

/** The last verification of the chain (an audit entry of its own), or null when none ran yet. */
export function lastChainCheck(): ChainStatus | null {
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
