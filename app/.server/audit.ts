import { auditLog } from "~db/schema";
import type { DB, Tx } from "./db";

type AuditAction = (typeof auditLog.$inferInsert)["action"];

export interface AuditEntry {
  userId: number | null;
  action: AuditAction;
  entity: string;
  entityId?: string | number | null;
  changes?: unknown;
}

/** Records one write. Call it inside the same transaction as the write it describes. */
export function recordAudit(conn: DB | Tx, entry: AuditEntry) {
  conn
    .insert(auditLog)
    .values({
      userId: entry.userId,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId == null ? null : String(entry.entityId),
      changes: entry.changes ?? null,
    })
    .run();
}

/** The fields whose values differ, as { field: [before, after] }. */
export function diffChanges<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of Object.keys(after)) {
    const a = before[key];
    const b = after[key];
    const same = a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
    if (!same) changes[key] = [a ?? null, b ?? null];
  }
  return changes;
}
