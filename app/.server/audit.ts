/**
 * The audit trail: who did what, when, from where (docs/decisions/0011-audit-trail-and-backups.md).
 *
 *   recordAudit(tx, { userId, action, entity, entityId, changes })   a write, inside its transaction
 *   recordView(request, user, "patient", id)                         a view of a patient's data
 *   recordAuthEvent(request, { action: "login_failed", email })      logins, failures, lockouts, logouts
 *
 * Entries are appended to a hash chain (./audit-chain.ts) that the database refuses to change.
 * What an entry keeps is decided here, once, for every caller (`auditableChanges`): never a secret,
 * never a patient's values, never a copy of a deleted record.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { auditLog } from "~db/schema";
import { appendEntry } from "./audit-chain";
import { withoutNewVersion } from "./data-cache";
import { type DB, type Tx, prepared, sqlite } from "./db";

export type AuditAction = NonNullable<(typeof auditLog.$inferInsert)["action"]>;

export interface AuditEntry {
  userId: number | null;
  action: AuditAction;
  entity: string;
  entityId?: string | number | null;
  changes?: unknown;
  /** The client's address; by default the address of the request being handled (withAuditRequest). */
  ip?: string | null;
}

// ------------------------------------------------------------------------------------------ request

/**
 * The header server.mjs sets to the address the request came from (its socket's, or the first
 * X-Forwarded-For hop when TRUST_PROXY=1). server.mjs drops any copy the client sent.
 */
export const CLIENT_ADDRESS_HEADER = "x-sinapse-client-address";

/** The client's address as the server saw it, or null (a test, the dev server). */
export function clientAddress(request: Request): string | null {
  return request.headers.get(CLIENT_ADDRESS_HEADER)?.slice(0, 64) || null;
}

const requestScope = new AsyncLocalStorage<{ ip: string | null }>();

/**
 * Runs `fn` (an action's write) so that every audit entry it records carries the request's address
 * without each model taking the request. dispatchIntent wraps every intent in it.
 */
export function withAuditRequest<T>(request: Request, fn: () => T): T {
  return requestScope.run({ ip: clientAddress(request) }, fn);
}

// ------------------------------------------------------------------------------------------ what is kept

/** Keys whose values are never written to the trail, whatever the entity. */
const SECRET_KEY = /pass(word)?|senha|token|secret|totp|otp|recovery|cookie|hash|salt/i;

/**
 * Entities about a patient: their entries name the changed fields and keep no values, so that
 * deleting or anonymising a patient is not undone by the trail (the law asks for who, when and
 * what action, not for a copy of the record).
 */
const PATIENT_ENTITIES = new Set(["patient"]);

/** Fields of free text about a patient in other records (an appointment's notes …): named, not copied. */
const FREE_TEXT_FIELDS = new Set([
  "notes", "medicalHistory", "address", "observations", "description", "diagnosis", "clinicalNotes",
  "content", "body", "message", "text", "cpf", "phone", "email", "dateOfBirth",
]);

const REDACTED = "[removido]";

function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, SECRET_KEY.test(key) ? REDACTED : redactSecrets(item, depth + 1)]),
  );
}

/**
 * What the trail keeps of an entry's `changes`:
 * - a delete keeps nothing of the record (its id, who and when are the entry itself);
 * - a create or update of a patient keeps the names of the fields, `{ fields: [...] }`;
 * - other creates and updates keep their values, except free text about a patient (named only);
 * - anything else (an export's criteria, a login's e-mail) is kept;
 * - a secret (password, token, TOTP secret, recovery code) is never kept, at any depth.
 */
export function auditableChanges(entry: Pick<AuditEntry, "action" | "entity" | "changes">): unknown {
  const { action, entity, changes } = entry;
  if (changes === undefined || changes === null) return null;
  if (action === "delete") return null;
  const isRecord = typeof changes === "object" && !Array.isArray(changes) && !(changes instanceof Date);
  if ((action === "create" || action === "update") && isRecord) {
    const fields = changes as Record<string, unknown>;
    if (PATIENT_ENTITIES.has(entity)) return { fields: Object.keys(fields).sort() };
    const kept: Record<string, unknown> = {};
    const named: string[] = [];
    for (const [key, value] of Object.entries(fields)) {
      if (FREE_TEXT_FIELDS.has(key)) named.push(key);
      else kept[key] = SECRET_KEY.test(key) ? REDACTED : redactSecrets(value);
    }
    return named.length ? { ...kept, fields: named.sort() } : kept;
  }
  return redactSecrets(changes);
}

// ------------------------------------------------------------------------------------------ writing

/**
 * Records one entry. Call it inside the same transaction as the write it describes (`conn` is that
 * transaction, or `db`): the entry is appended on the same connection, so it commits or rolls back
 * with the write.
 */
export function recordAudit(_conn: DB | Tx, entry: AuditEntry) {
  writeEntry(entry);
}

function writeEntry(entry: AuditEntry) {
  const changes = auditableChanges(entry);
  // No cached figure reads the trail: an entry alone leaves the dashboard's and KPIs' cache valid.
  withoutNewVersion(() => appendEntry(sqlite, {
    userId: entry.userId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId).slice(0, 200),
    changes: changes === null ? null : JSON.stringify(changes),
    ip: entry.ip !== undefined ? entry.ip : (requestScope.getStore()?.ip ?? null),
  }));
}

/**
 * Records that `user` saw a patient's data: a list page (`entityId` null, `detail` the ids shown
 * and the search), one record (a dialog, a page, an API read) or a download. Call it in the
 * loader, after the permission check, with what the response will show.
 */
export function recordView(
  request: Request,
  user: { id: number },
  entity: string,
  entityId: string | number | null,
  detail?: Record<string, unknown>,
) {
  withoutSync(() => writeEntry({ userId: user.id, action: "view", entity, entityId, changes: detail ?? null, ip: clientAddress(request) }));
}

/**
 * Runs `write` (its own transaction) with `synchronous = NORMAL`, then puts FULL back. A view is
 * recorded on every page of patient data: syncing the WAL for each one cost 5–9 ms of blocked
 * server per page on the measured machine (docs/decisions/0008-performance-budget-and-server.md).
 * In WAL mode the entry still survives a killed process at once, and a power cut from the next
 * synced commit (any write, or a checkpoint) on; it is never half written (docs/decisions/0002).
 * Inside a caller's transaction nothing changes: that transaction's commit decides.
 */
function withoutSync<T>(write: () => T): T {
  if (sqlite.inTransaction) return write();
  prepared("PRAGMA synchronous = NORMAL").run();
  try {
    return write();
  } finally {
    prepared("PRAGMA synchronous = FULL").run();
  }
}

/** A file sent to the user (a stored document, a backup …). */
export function recordDownload(request: Request, user: { id: number }, entity: string, entityId: string | number, detail?: Record<string, unknown>) {
  writeEntry({ userId: user.id, action: "download", entity, entityId, changes: detail ?? null, ip: clientAddress(request) });
}

/**
 * A sign-in event, for the login code: a success (`login`, userId set), a failure (`login_failed`,
 * with the e-mail typed and the reason; userId when the account exists), a `lockout` (the account
 * or address is throttled) or a `logout`. The password is never passed here.
 */
export function recordAuthEvent(
  request: Request,
  event: {
    action: Extract<AuditAction, "login" | "login_failed" | "lockout" | "logout">;
    userId?: number | null;
    email?: string | null;
    reason?: string;
  },
) {
  const changes: Record<string, unknown> = {};
  if (event.email) changes.email = event.email.slice(0, 254);
  if (event.reason) changes.reason = event.reason.slice(0, 200);
  writeEntry({
    userId: event.userId ?? null,
    action: event.action,
    entity: "session",
    entityId: event.userId ?? null,
    changes: Object.keys(changes).length ? changes : null,
    ip: clientAddress(request),
  });
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
