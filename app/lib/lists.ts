/**
 * The list screens' URL state, declared once: sort keys, default order and filters. Browser-safe,
 * so the page (filter bar, table headers) and the server (loader, export, model) read the same
 * declaration.
 */
import {
  APPOINTMENT_STATUSES,
  DOCUMENT_CATEGORIES,
  FEE_SCHEDULE_KINDS,
  MEDICAL_CODE_TYPES,
  MESSAGE_STATUSES,
  ORDER_STATUSES,
  SOP_STATUSES,
  SURGERY_STATUSES,
  TASK_CATEGORIES,
  TASK_PRIORITIES,
  TASK_STATUSES,
  TRANSACTION_TYPES,
} from "./enums";
import { type FilterValues, defineList, idFilter, oneOfFilter, parseId } from "./list-params";
import { PIPELINE_STAGE_IDS } from "./pipeline";

export const PATIENT_SORTS = ["name", "createdAt"] as const;
export type PatientSort = (typeof PATIENT_SORTS)[number];
export const PATIENT_LIST = defineList({ sorts: PATIENT_SORTS, defaultSort: "name", defaultDir: "asc" });

export const DOCTOR_SORTS = ["name", "specialty"] as const;
export type DoctorSort = (typeof DOCTOR_SORTS)[number];
export const DOCTOR_LIST = defineList({ sorts: DOCTOR_SORTS, defaultSort: "name", defaultDir: "asc" });

export const APPOINTMENT_SORTS = ["startTime"] as const;
export type AppointmentSort = (typeof APPOINTMENT_SORTS)[number];
export const APPOINTMENT_LIST = defineList({
  sorts: APPOINTMENT_SORTS,
  defaultSort: "startTime",
  defaultDir: "desc",
  filters: { status: oneOfFilter("status", APPOINTMENT_STATUSES), doctorId: idFilter("doctor") },
});
export type AppointmentFilters = Partial<FilterValues<NonNullable<(typeof APPOINTMENT_LIST)["filters"]>>>;

export const SURGERY_SORTS = ["scheduledDate"] as const;
export type SurgerySort = (typeof SURGERY_SORTS)[number];
export const SURGERY_LIST = defineList({
  sorts: SURGERY_SORTS,
  defaultSort: "scheduledDate",
  defaultDir: "desc",
  filters: {
    status: oneOfFilter("status", SURGERY_STATUSES),
    stage: oneOfFilter("stage", PIPELINE_STAGE_IDS),
    doctorId: idFilter("doctor"),
  },
});
export type SurgeryFilters = FilterValues<NonNullable<(typeof SURGERY_LIST)["filters"]>>;

/** Audit actions as the screen filters and names them (db/schema/system.ts `audit_log.action`). */
export const AUDIT_ACTIONS = [
  "create", "update", "delete", "view", "export", "download", "login", "login_failed", "lockout", "logout",
  "grant_role", "verify", "backup", "restore",
] as const;
export type AuditActionName = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_ACTION_LABELS: Record<AuditActionName, string> = {
  create: "Criação",
  update: "Alteração",
  delete: "Exclusão",
  view: "Visualização",
  export: "Exportação",
  download: "Download",
  login: "Login",
  login_failed: "Login recusado",
  lockout: "Bloqueio",
  logout: "Logout",
  grant_role: "Perfil alterado",
  verify: "Verificação da trilha",
  backup: "Backup",
  restore: "Restauração",
};

const isoDateFilter = (param: string) => ({ param, parse: (raw: string) => (/^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : null) });

/** The audit trail: newest first, by id (the chain's order); filters by user e-mail, entity, action and dates. */
export const AUDIT_LIST = defineList({
  sorts: ["id"] as const,
  defaultSort: "id",
  defaultDir: "desc",
  filters: {
    user: { param: "user", parse: (raw: string) => (raw.trim().length <= 254 && raw.trim() ? raw.trim().toLowerCase() : null) },
    entity: { param: "entity", parse: (raw: string) => (/^[a-z_]{1,40}$/.test(raw.trim()) ? raw.trim() : null) },
    action: oneOfFilter("action", AUDIT_ACTIONS),
    from: isoDateFilter("from"),
    to: isoDateFilter("to"),
  },
});
export type AuditFilters = FilterValues<NonNullable<(typeof AUDIT_LIST)["filters"]>>;

export const MESSAGE_SORTS = ["createdAt"] as const;
/** The message log: newest first, filtered by status, patient and template. */
export const MESSAGE_LIST = defineList({
  sorts: MESSAGE_SORTS,
  defaultSort: "createdAt",
  defaultDir: "desc",
  filters: {
    status: oneOfFilter("status", MESSAGE_STATUSES),
    patientId: idFilter("patient"),
    templateId: idFilter("template"),
  },
});
export type MessageFilters = FilterValues<NonNullable<(typeof MESSAGE_LIST)["filters"]>>;

/**
 * The pipeline board: its filters (doctor, payer, hospital, overdue ANS clocks) and, for one
 * column opened on its own (`?coluna=`), the keyset pages of that column in date order.
 */
export const PIPELINE_LIST = defineList({
  sorts: ["scheduledDate"] as const,
  defaultSort: "scheduledDate",
  defaultDir: "asc",
  filters: {
    doctorId: idFilter("doctor"),
    payerId: idFilter("payer"),
    hospitalId: idFilter("hospital"),
    ans: oneOfFilter("ans", ["atrasadas"] as const),
    column: oneOfFilter("coluna", PIPELINE_STAGE_IDS),
  },
});
export type PipelineFilters = FilterValues<NonNullable<(typeof PIPELINE_LIST)["filters"]>>;
export const TASK_SORTS = ["dueDate"] as const;
export type TaskSort = (typeof TASK_SORTS)[number];
/** The status filter's values: the stored statuses plus 'overdue' (due before today, not completed). */
export const TASK_STATUS_FILTERS = [...TASK_STATUSES, "overdue"] as const;
export type TaskStatusFilter = (typeof TASK_STATUS_FILTERS)[number];
/** A real calendar date 'YYYY-MM-DD' (kept free of the date library: every list screen loads this module). */
function calendarDate(raw: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  // Four-digit years only, as `isValidIsoDate`: Date.UTC reads 0-99 as 1900-1999.
  if (!match || Number(match[1]) < 1000) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]) ? raw : null;
}
/** The tasks list (SPEC: by due date ascending, tasks without one last). `assignee=me` is 'Minhas tarefas'. */
export const TASK_LIST = defineList({
  sorts: TASK_SORTS,
  defaultSort: "dueDate",
  defaultDir: "asc",
  filters: {
    status: oneOfFilter("status", TASK_STATUS_FILTERS),
    category: oneOfFilter("category", TASK_CATEGORIES),
    priority: oneOfFilter("priority", TASK_PRIORITIES),
    assignee: { param: "assignee", parse: (raw: string) => (raw === "me" ? ("me" as const) : parseId(raw)) },
    dueFrom: { param: "dueFrom", parse: calendarDate },
    dueTo: { param: "dueTo", parse: calendarDate },
  },
});
export type TaskFilters = FilterValues<NonNullable<(typeof TASK_LIST)["filters"]>>;
/** /files: every patient document, newest first; by patient, category and upload date. */
export const DOCUMENT_SORTS = ["createdAt"] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];
export const DOCUMENT_LIST = defineList({
  sorts: DOCUMENT_SORTS,
  defaultSort: "createdAt",
  defaultDir: "desc",
  filters: {
    patientId: idFilter("patient"),
    category: oneOfFilter("category", DOCUMENT_CATEGORIES),
    from: isoDateFilter("de"),
    to: isoDateFilter("ate"),
  },
});
export type DocumentFilters = Partial<FilterValues<NonNullable<(typeof DOCUMENT_LIST)["filters"]>>>;
// Cadastros (master data): one list per tab, ordered by name (codes: by code, filtered by type).
export const PAYER_LIST = defineList({ sorts: ["name"] as const, defaultSort: "name", defaultDir: "asc" });
export const HOSPITAL_LIST = defineList({ sorts: ["name"] as const, defaultSort: "name", defaultDir: "asc" });
export const SUPPLIER_LIST = defineList({ sorts: ["name"] as const, defaultSort: "name", defaultDir: "asc" });
export const MEDICAL_CODE_LIST = defineList({
  sorts: ["code"] as const,
  defaultSort: "code",
  defaultDir: "asc",
  filters: { type: oneOfFilter("type", MEDICAL_CODE_TYPES) },
});

export const SOP_LIST = defineList({
  sorts: ["createdAt", "title"] as const,
  defaultSort: "createdAt",
  defaultDir: "desc",
  filters: { status: oneOfFilter("status", SOP_STATUSES) },
});

export const ORDER_LIST = defineList({
  sorts: ["createdAt"] as const,
  defaultSort: "createdAt",
  defaultDir: "desc",
  filters: { status: oneOfFilter("status", ORDER_STATUSES) },
});

/** /referrers: by name; `from`/`to` the commission period, kept when a dialog closes (the route defaults it to this month). */
export const REFERRER_LIST = defineList({
  sorts: ["name"] as const,
  defaultSort: "name",
  defaultDir: "asc",
  filters: { from: { param: "from", parse: calendarDate }, to: { param: "to", parse: calendarDate } },
});
export type ReferrerFilters = FilterValues<NonNullable<(typeof REFERRER_LIST)["filters"]>>;

/** /financial: newest first by the transaction's date; by type (receita/despesa), category and a date range. */
export const TRANSACTION_LIST = defineList({
  sorts: ["transactionDate"] as const,
  defaultSort: "transactionDate",
  defaultDir: "desc",
  filters: {
    type: oneOfFilter("type", TRANSACTION_TYPES),
    category: { param: "category", parse: (raw: string) => (raw.trim() && raw.trim().length <= 80 ? raw.trim() : null) },
    from: { param: "from", parse: calendarDate },
    to: { param: "to", parse: calendarDate },
  },
});
export type TransactionFilters = FilterValues<NonNullable<(typeof TRANSACTION_LIST)["filters"]>>;

/** /surgical-groups: doctors in (specialty, name) order, a page at a time (no search, no filters). */
export const SURGICAL_GROUP_LIST = defineList({ sorts: ["specialty"] as const, defaultSort: "specialty", defaultDir: "asc" });

/** /procedures: the medical codes in code order, by type and active. */
export const PROCEDURE_LIST = defineList({
  sorts: ["code"] as const,
  defaultSort: "code",
  defaultDir: "asc",
  filters: {
    type: oneOfFilter("type", MEDICAL_CODE_TYPES),
    active: oneOfFilter("active", ["sim", "nao"] as const),
  },
});
export type ProcedureFilters = FilterValues<NonNullable<(typeof PROCEDURE_LIST)["filters"]>>;
// Google Drive files and Google Forms (SPEC §7): newest first.
export const DRIVE_FILE_LIST = defineList({ sorts: ["uploadedAt"] as const, defaultSort: "uploadedAt", defaultDir: "desc" });
export const GOOGLE_FORM_LIST = defineList({ sorts: ["createdAt"] as const, defaultSort: "createdAt", defaultDir: "desc" });

/** /honorarios/tabelas: reference fee schedules by code, filtered by kind and year (search: code prefix or description). */
export const FEE_SCHEDULE_LIST = defineList({
  sorts: ["code"] as const,
  defaultSort: "code",
  defaultDir: "asc",
  filters: {
    kind: oneOfFilter("kind", FEE_SCHEDULE_KINDS),
    year: { param: "year", parse: (raw: string) => (/^(19|20|21)\d{2}$/.test(raw.trim()) ? Number(raw.trim()) : null) },
  },
});
export type FeeScheduleFilters = FilterValues<NonNullable<(typeof FEE_SCHEDULE_LIST)["filters"]>>;
