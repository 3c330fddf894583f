/**
 * The access report of a patient (docs/decisions/0022-lgpd-rights.md): audit entries about the
 * patient and about their appointments, surgeries, documents, tasks and messages, newest first,
 * by keyset on the entry id. Each branch reads `audit_log_entity_idx (entity, entity_id)` and
 * stops after a page, so only a few pages of rows are ever merged, whatever the trail's size.
 */
import { prepared } from "./db";

export const ACCESS_PAGE_SIZE = 25;

/** The patient's records whose audit entries belong to the report: entity name → the table holding them. */
const RELATED = [
  ["appointment", "appointments"],
  ["surgery", "surgeries"],
  ["document", "documents"],
  ["task", "tasks"],
  ["message", "messages"],
] as const;

const COLUMNS = "a.id, a.created_at as at, a.user_id as userId, a.action, a.entity, a.entity_id as entityId, a.changes, a.ip";

/** One UNION ALL: the patient's own entries (and their referral's and consents'), then one branch per related table. */
export const ACCESS_SQL = `
select r.*, p.name as userName, u.email as userEmail from (
  select * from (select ${COLUMNS} from audit_log a
    where a.entity = 'patient' and a.entity_id = :pid and a.id < :before order by a.id desc limit :take)
${["patient_referral", "patient_consent"]
  .map(
    (entity) => `  union all
  select * from (select ${COLUMNS} from audit_log a
    where a.entity = '${entity}' and a.entity_id = :pid and a.id < :before order by a.id desc limit :take)`,
  )
  .join("\n")}
${RELATED.map(
  ([entity, table]) => `  union all
  select * from (select ${COLUMNS} from audit_log a
    where a.entity = '${entity}' and a.entity_id in (select cast(id as text) from ${table} where patient_id = :patientId)
      and a.id < :before order by a.id desc limit :take)`,
).join("\n")}
) r
left join profiles p on p.id = r.userId
left join users u on u.id = r.userId
order by r.id desc limit :take`;

export interface AccessEntry {
  id: number;
  at: Date;
  userId: number | null;
  userName: string | null;
  userEmail: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  ip: string | null;
  /** What the entry says beyond its action (field names changed, a consent, an export's counts). */
  detail: string | null;
}

function detailOf(changes: string | null): string | null {
  if (!changes) return null;
  try {
    const value = JSON.parse(changes) as Record<string, unknown>;
    if (Array.isArray(value.fields)) return `Campos: ${value.fields.join(", ")}`;
    if (Array.isArray(value.consent)) return `Consentimento: ${value.consent.join(" · ")}`;
    if (value.via === "api") return "Leitura pela API";
    if (typeof value.timeline === "string") return "Linha do tempo (páginas anteriores)";
    return null;
  } catch {
    return null;
  }
}

/** A page of the report: entries older than `before` (an entry id; null for the newest). */
export function patientAccessReport(patientId: number, before: number | null, pageSize = ACCESS_PAGE_SIZE) {
  const rows = prepared(ACCESS_SQL).all({
    pid: String(patientId),
    patientId,
    before: before ?? Number.MAX_SAFE_INTEGER,
    take: pageSize + 1,
  }) as (Omit<AccessEntry, "at" | "detail"> & { at: number; changes: string | null })[];
  const page = rows.slice(0, pageSize).map(({ changes, at, ...row }) => ({ ...row, at: new Date(at), detail: detailOf(changes) }));
  return { entries: page as AccessEntry[], next: rows.length > pageSize ? page[page.length - 1].id : null };
}
