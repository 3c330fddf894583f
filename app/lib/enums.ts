/**
 * Domain enumerations (SPEC §3, §4, §9): the stored values as `as const` tuples, usable as
 * `text(..., { enum })` in the Drizzle schema and as `z.enum(...)` in forms, plus their
 * Portuguese labels. Pure data: safe in the browser. Pipeline stages live in `./pipeline`,
 * user roles in `./permissions`.
 */

/** Label of a stored value; unknown values come back unchanged so bad data stays visible. */
export function labelFor<T extends string>(labels: Record<T, string>, value: string | null | undefined): string {
  if (value == null || value === "") return "";
  return Object.prototype.hasOwnProperty.call(labels, value) ? labels[value as T] : value;
}

/** `[{ value, label }]` in tuple order, for <select> options. */
export function enumOptions<T extends string>(values: readonly T[], labels: Record<T, string>) {
  return values.map((value) => ({ value, label: labels[value] }));
}

export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (values as readonly string[]).includes(value);
}

// ── Appointments ────────────────────────────────────────────────────────────
export const APPOINTMENT_STATUSES = ["scheduled", "confirmed", "completed", "cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  scheduled: "Agendada",
  confirmed: "Confirmada",
  completed: "Concluída",
  cancelled: "Cancelada",
};

/** Suggested appointment types (the column is free text; these feed the form's choices). */
export const APPOINTMENT_TYPES = [
  "Primeira consulta",
  "Retorno",
  "Avaliação pré-operatória",
  "Pós-operatório",
  "Teleconsulta",
  "Infiltração",
] as const;

// ── Surgeries ───────────────────────────────────────────────────────────────
export const SURGERY_STATUSES = ["scheduled", "completed", "cancelled"] as const;
export type SurgeryStatus = (typeof SURGERY_STATUSES)[number];
export const SURGERY_STATUS_LABELS: Record<SurgeryStatus, string> = {
  scheduled: "Agendada",
  completed: "Concluída",
  cancelled: "Cancelada",
};

/** Billing state of a performed surgery (Cirurgias a receber / pagas). */
export const RECEIVABLE_STATUSES = ["realizado", "faturado", "pendente", "glosa", "pago"] as const;
export type ReceivableStatus = (typeof RECEIVABLE_STATUSES)[number];
export const RECEIVABLE_STATUS_LABELS: Record<ReceivableStatus, string> = {
  realizado: "Realizado",
  faturado: "Faturado",
  pendente: "Pendente",
  glosa: "Glosa",
  pago: "Pago",
};

/** Role of a doctor in a surgery's fee split (Honorários). */
export const FEE_LINE_ROLES = ["principal", "auxiliar", "anestesista"] as const;
export type FeeLineRole = (typeof FEE_LINE_ROLES)[number];
export const FEE_LINE_ROLE_LABELS: Record<FeeLineRole, string> = {
  principal: "Cirurgião principal",
  auxiliar: "Auxiliar",
  anestesista: "Anestesista",
};

/** The surgical team of a surgery's fee split: the surgeon, up to four assistants and the anaesthetist. */
export const SURGERY_TEAM_ROLES = ["cirurgiao", "auxiliar_1", "auxiliar_2", "auxiliar_3", "auxiliar_4", "anestesista"] as const;
export type SurgeryTeamRole = (typeof SURGERY_TEAM_ROLES)[number];
export const SURGERY_TEAM_ROLE_LABELS: Record<SurgeryTeamRole, string> = {
  cirurgiao: "Cirurgião",
  auxiliar_1: "1º auxiliar",
  auxiliar_2: "2º auxiliar",
  auxiliar_3: "3º auxiliar",
  auxiliar_4: "4º auxiliar",
  anestesista: "Anestesista",
};

/** Access route of a procedure relative to the principal one (CBHPM 4.1, 4.2). */
export const ACCESS_ROUTES = ["same", "different"] as const;
export type AccessRouteValue = (typeof ACCESS_ROUTES)[number];
export const ACCESS_ROUTE_LABELS: Record<AccessRouteValue, string> = {
  same: "Mesma via",
  different: "Via diferente",
};

/** Accommodation: the ward is the CBHPM reference; an apartment doubles the portes (item 6.2). */
export const ACCOMMODATIONS = ["enfermaria", "apartamento"] as const;
export type AccommodationValue = (typeof ACCOMMODATIONS)[number];
export const ACCOMMODATION_LABELS: Record<AccommodationValue, string> = {
  enfermaria: "Enfermaria",
  apartamento: "Apartamento",
};

/** Whether a surgery was urgent: derived from its time, or set by hand. */
export const URGENCY_MODES = ["auto", "sim", "nao"] as const;
export type UrgencyMode = (typeof URGENCY_MODES)[number];
export const URGENCY_MODE_LABELS: Record<UrgencyMode, string> = {
  auto: "Automática (pelo horário)",
  sim: "Sim",
  nao: "Não",
};

// ── Finance ─────────────────────────────────────────────────────────────────
export const TRANSACTION_TYPES = ["receita", "despesa"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const TRANSACTION_TYPE_LABELS: Record<TransactionType, string> = {
  receita: "Receita",
  despesa: "Despesa",
};

/** Suggested categories per transaction type (the column is free text). */
export const TRANSACTION_CATEGORIES: Record<TransactionType, readonly string[]> = {
  receita: ["Consultas", "Cirurgias", "Honorários médicos", "Procedimentos ambulatoriais", "Outras receitas"],
  despesa: ["Aluguel", "Folha de pagamento", "Materiais", "OPME", "Impostos", "Software e sistemas", "Marketing", "Serviços", "Outras despesas"],
};

/** Kinds of reference fee tables (SPEC §9). */
export const FEE_SCHEDULE_KINDS = ["CBHPM", "TUSS", "CUSTOM"] as const;
export type FeeScheduleKind = (typeof FEE_SCHEDULE_KINDS)[number];
export const FEE_SCHEDULE_KIND_LABELS: Record<FeeScheduleKind, string> = {
  CBHPM: "CBHPM",
  TUSS: "TUSS",
  CUSTOM: "Tabela própria",
};

// ── Tasks ───────────────────────────────────────────────────────────────────
export const TASK_STATUSES = ["pending", "in_progress", "completed"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  pending: "Pendente",
  in_progress: "Em andamento",
  completed: "Concluída",
};

export const TASK_PRIORITIES = ["low", "medium", "high"] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
export const TASK_PRIORITY_LABELS: Record<TaskPriority, string> = {
  low: "Baixa",
  medium: "Normal",
  high: "Alta",
};

export const TASK_CATEGORIES = ["surgery", "administrative", "scheduling", "general"] as const;
export type TaskCategory = (typeof TASK_CATEGORIES)[number];
export const TASK_CATEGORY_LABELS: Record<TaskCategory, string> = {
  surgery: "Cirurgia",
  administrative: "Administrativo",
  scheduling: "Agendamento",
  general: "Geral",
};

// ── Cadastros (master data) ─────────────────────────────────────────────────
export const PAYER_TYPES = ["insurance", "government", "private"] as const;
export type PayerType = (typeof PAYER_TYPES)[number];
export const PAYER_TYPE_LABELS: Record<PayerType, string> = {
  insurance: "Convênio",
  government: "Público (SUS)",
  private: "Particular",
};

export const HOSPITAL_TYPES = ["public", "private", "mixed"] as const;
export type HospitalType = (typeof HOSPITAL_TYPES)[number];
export const HOSPITAL_TYPE_LABELS: Record<HospitalType, string> = {
  public: "Público",
  private: "Privado",
  mixed: "Misto",
};

export const SUPPLIER_TYPES = ["opme", "pharmaceutical", "equipment", "supplies", "other"] as const;
export type SupplierType = (typeof SUPPLIER_TYPES)[number];
export const SUPPLIER_TYPE_LABELS: Record<SupplierType, string> = {
  opme: "OPME",
  pharmaceutical: "Farmacêutico",
  equipment: "Equipamentos",
  supplies: "Suprimentos",
  other: "Outros",
};

/** Value column of the CBHPM table a payer pays by (the AMB publishes an original column and three bands). */
export const CBHPM_BANDS = ["original", "faixa_1", "faixa_2", "faixa_3"] as const;
export type CbhpmBand = (typeof CBHPM_BANDS)[number];
export const CBHPM_BAND_LABELS: Record<CbhpmBand, string> = {
  original: "Original",
  faixa_1: "Faixa I",
  faixa_2: "Faixa II",
  faixa_3: "Faixa III",
};

export const MEDICAL_CODE_TYPES = ["icd10", "cbhpm", "tuss", "custom"] as const;
export type MedicalCodeType = (typeof MEDICAL_CODE_TYPES)[number];
export const MEDICAL_CODE_TYPE_LABELS: Record<MedicalCodeType, string> = {
  icd10: "CID-10",
  cbhpm: "CBHPM",
  tuss: "TUSS",
  custom: "Personalizado",
};

// ── SOPs and orders ─────────────────────────────────────────────────────────
export const SOP_STATUSES = ["draft", "active", "archived"] as const;
export type SopStatus = (typeof SOP_STATUSES)[number];
export const SOP_STATUS_LABELS: Record<SopStatus, string> = {
  draft: "Rascunho",
  active: "Ativo",
  archived: "Arquivado",
};

export const ORDER_STATUSES = ["pending", "approved", "ordered", "delivered", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pendente",
  approved: "Aprovado",
  ordered: "Pedido realizado",
  delivered: "Entregue",
  cancelled: "Cancelado",
};

// ── Patient communication ───────────────────────────────────────────────────
export const TEMPLATE_STATUSES = ["aprovado", "rascunho", "inativo"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
export const TEMPLATE_STATUS_LABELS: Record<TemplateStatus, string> = {
  aprovado: "Aprovado",
  rascunho: "Rascunho",
  inativo: "Inativo",
};

/** The five template categories of SPEC §9, in their numbered order. */
export const TEMPLATE_CATEGORIES = ["pos_consulta", "agendamento", "boas_vindas", "procedimentos", "encerramento"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export const TEMPLATE_CATEGORY_LABELS: Record<TemplateCategory, string> = {
  pos_consulta: "Pós-Consulta",
  agendamento: "Agendamento e Confirmações",
  boas_vindas: "Primeira Consulta e Boas-Vindas",
  procedimentos: "Procedimentos e Cirurgias",
  encerramento: "Encerramento e Orientações Gerais",
};

export const MESSAGE_STATUSES = ["queued", "sent", "delivered", "read", "failed"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  queued: "Na fila",
  sent: "Enviada",
  delivered: "Entregue",
  read: "Lida",
  failed: "Falhou",
};

/**
 * Events an automation rule reacts to. `offset_minutes` is relative to the event's time:
 * negative = before (e.g. -1440 = reminder a day before the appointment), positive = after.
 */
export const AUTOMATION_TRIGGERS = [
  "appointment_created",
  "appointment_start",
  "appointment_completed",
  "surgery_scheduled",
  "surgery_date",
  "surgery_completed",
  "patient_created",
  "patient_birthday",
] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];
export const AUTOMATION_TRIGGER_LABELS: Record<AutomationTrigger, string> = {
  appointment_created: "Consulta agendada",
  appointment_start: "Horário da consulta",
  appointment_completed: "Consulta concluída",
  surgery_scheduled: "Cirurgia agendada",
  surgery_date: "Data da cirurgia",
  surgery_completed: "Cirurgia concluída",
  patient_created: "Paciente cadastrado",
  patient_birthday: "Aniversário do paciente",
};

/** Categories of a patient's document (/files). */
export const DOCUMENT_CATEGORIES = ["exame", "laudo", "termo_consentimento", "guia", "outros"] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];
export const DOCUMENT_CATEGORY_LABELS: Record<DocumentCategory, string> = {
  exame: "Exame",
  laudo: "Laudo",
  termo_consentimento: "Termo de consentimento",
  guia: "Guia",
  outros: "Outros",
};

/** Google Calendar push (docs/decisions/0020-google-integration.md): where events go, how the patient is named in them. */
export const GOOGLE_SYNC_MODES = ["off", "clinic", "doctor"] as const;
export type GoogleSyncMode = (typeof GOOGLE_SYNC_MODES)[number];
export const GOOGLE_SYNC_MODE_LABELS: Record<GoogleSyncMode, string> = {
  off: "Não enviar",
  clinic: "Um calendário para a clínica",
  doctor: "Um calendário por médico",
};
export const GOOGLE_NAME_PRIVACY = ["full", "initials", "none"] as const;
export type GoogleNamePrivacy = (typeof GOOGLE_NAME_PRIVACY)[number];
export const GOOGLE_NAME_PRIVACY_LABELS: Record<GoogleNamePrivacy, string> = {
  full: "Nome completo",
  initials: "Só as iniciais",
  none: "Sem o nome do paciente",
};
