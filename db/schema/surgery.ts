import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { FEE_LINE_ROLES, RECEIVABLE_STATUSES, SURGERY_STATUSES } from "../../app/lib/enums";
import { PIPELINE_STAGE_IDS } from "../../app/lib/pipeline";
import { users } from "./auth";
import { doctors, patients } from "./clinical";
import { bool, id, instant, timestamps } from "./columns";
import { enumCheck, isoDateCheck } from "./helpers";
import { hospitals, medicalCodes, payers } from "./master-data";

/**
 * SPEC §3 surgeries, with their place on the pipeline board (`current_stage`) and, once
 * performed, their billing state (`receivable_status`, `billed_*`, `paid_at`).
 * `hospital` / `payer_name` keep the typed text; `hospital_id` / `payer_id` link to Cadastros when known.
 */
export const surgeries = sqliteTable(
  "surgeries",
  {
    id: id(),
    patientId: integer("patient_id")
      .notNull()
      .references(() => patients.id, { onDelete: "restrict" }),
    doctorId: integer("doctor_id")
      .notNull()
      .references(() => doctors.id, { onDelete: "restrict" }),
    surgeryType: text("surgery_type").notNull(),
    scheduledDate: instant("scheduled_date").notNull(),
    status: text("status", { enum: SURGERY_STATUSES }).notNull().default("scheduled"),
    estimatedDurationMin: integer("estimated_duration_min"),
    notes: text("notes"),
    hospital: text("hospital"),
    hospitalId: integer("hospital_id").references(() => hospitals.id, { onDelete: "set null" }),
    currentStage: text("current_stage", { enum: PIPELINE_STAGE_IDS }).notNull().default("aguarda_docs"),
    billedAmountCents: integer("billed_amount_cents"),
    guideNumber: text("guide_number"),
    payerName: text("payer_name"),
    payerId: integer("payer_id").references(() => payers.id, { onDelete: "set null" }),
    receivableStatus: text("receivable_status", { enum: RECEIVABLE_STATUSES }),
    billedAt: instant("billed_at"),
    paidAt: instant("paid_at"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    /** When the card entered `current_stage`: set by a trigger on every `pipeline_stages` row (migration 0004). */
    stageChangedAt: instant("stage_changed_at"),
    /** When the pre-authorisation was last sent to the payer (the move to 'Enviado Pré-aut'): both ANS clocks start here. */
    ansRequestedAt: instant("ans_requested_at"),
    /** Last day (ISO, São Paulo) of the ANS clock that applies in the current stage; null when none runs (app/lib/ans.ts). */
    ansDueOn: text("ans_due_on"),
    /** Why the payer denied the authorisation, and whether the clinic appeals (asked on the move to 'Negado'). */
    denialReason: text("denial_reason"),
    denialAppeal: bool("denial_appeal"),
    /**
     * The list search's key of the surgery's own text (type, hospital, payer and guide number,
     * folded by normalizeSearch): `search_class`, ' | ', then the folded guide number. Written with
     * the row (app/models/surgery.server.ts, app/.server/search-keys.ts).
     */
    searchText: text("search_text"),
    /**
     * The key without the guide number (type, hospital and payer): few distinct, counted in
     * surgery_search_keys, so a search tests each once (migration 0043). NULL, with `search_text`,
     * on rows written by hand until the next start stores both.
     */
    searchClass: text("search_class"),
    ...timestamps(),
  },
  (t) => [
    enumCheck("surgeries_status_check", t.status, SURGERY_STATUSES),
    enumCheck("surgeries_current_stage_check", t.currentStage, PIPELINE_STAGE_IDS),
    enumCheck("surgeries_receivable_status_check", t.receivableStatus, RECEIVABLE_STATUSES),
    check("surgeries_duration_check", sql`${t.estimatedDurationMin} is null or ${t.estimatedDurationMin} > 0`),
    check("surgeries_billed_amount_check", sql`${t.billedAmountCents} is null or ${t.billedAmountCents} >= 0`),
    index("surgeries_scheduled_date_idx").on(t.scheduledDate),
    index("surgeries_stage_date_idx").on(t.currentStage, t.scheduledDate),
    index("surgeries_status_date_idx").on(t.status, t.scheduledDate),
    // A doctor's surgeries, in (scheduled_date, id) order; and a search's rows by the doctors its
    // words find, their patient and the list's filters (the surgeries' and the receivables') read
    // from the index alone (app/models/word-search.server.ts). The id is named so the columns after
    // it keep that order.
    index("surgeries_doctor_date_idx").on(t.doctorId, t.scheduledDate, t.id, t.patientId, t.status, t.currentStage, t.receivableStatus, t.payerId),
    // A patient's surgeries, in (scheduled_date, id) order; and a search's rows patient by patient
    // (app/models/word-search.server.ts), their doctor, the list's filters (the surgeries' and the
    // receivables') and their key without the guide (whether they have one, and which) read from
    // the index alone.
    index("surgeries_patient_date_idx").on(t.patientId, t.scheduledDate, t.id, t.doctorId, t.status, t.currentStage, t.searchClass, t.receivableStatus, t.payerId),
    // Consultation → surgery conversion (kept by the KPI triggers): a patient's surgeries by creation.
    index("surgeries_patient_created_idx").on(t.patientId, t.createdAt),
    // The pipeline board's columns and totals per doctor, payer or hospital: seek the filter and the
    // stage, read the cards in (date, id) order and sum the billed amounts from the index alone.
    index("surgeries_doctor_stage_date_idx").on(t.doctorId, t.currentStage, t.scheduledDate, t.id, t.billedAmountCents),
    index("surgeries_payer_stage_date_idx").on(t.payerId, t.currentStage, t.scheduledDate, t.id, t.billedAmountCents),
    index("surgeries_hospital_stage_date_idx").on(t.hospitalId, t.currentStage, t.scheduledDate, t.id, t.billedAmountCents),
    index("surgeries_ans_due_idx").on(t.ansDueOn, t.currentStage, t.billedAmountCents).where(sql`${t.ansDueOn} is not null`),
    index("surgeries_receivable_date_idx").on(t.receivableStatus, t.scheduledDate),
    index("surgeries_paid_at_idx").on(t.paidAt),
    // A search's rows by their own text without the guide: seek each key that contains the word
    // (from surgery_search_keys), and within it each doctor a search's other words find, date,
    // patient and the lists' filters read from the index (app/models/word-search.server.ts).
    index("surgeries_search_class_idx").on(t.searchClass, t.doctorId, t.scheduledDate, t.patientId, t.status, t.currentStage, t.receivableStatus, t.payerId),
    // The rows still without keys (written by hand since the last start).
    index("surgeries_search_keys_missing_idx").on(t.id).where(sql`${t.searchClass} is null`),
    // Cirurgias a receber (ADR 0019): every receivable, or one payer's, or one status of one payer's,
    // in date order; cirurgias pagas by the day paid, also per payer, with the doctor (a doctor's
    // own) and the billed amount, so the list's 'Valor faturado' is summed from the index alone.
    index("surgeries_receivable_list_idx").on(t.scheduledDate).where(sql`${t.receivableStatus} is not null`),
    index("surgeries_payer_receivable_list_idx").on(t.payerId, t.scheduledDate).where(sql`${t.receivableStatus} is not null`),
    index("surgeries_receivable_payer_date_idx").on(t.receivableStatus, t.payerId, t.scheduledDate),
    index("surgeries_receivable_paid_idx").on(t.receivableStatus, t.paidAt, t.id, t.doctorId, t.billedAmountCents),
    index("surgeries_receivable_payer_paid_idx").on(t.receivableStatus, t.payerId, t.paidAt, t.id, t.doctorId, t.billedAmountCents),
    // Honorários per payer: seek the payer, slice the dates, read status, amounts and billing dates from the index.
    index("surgeries_payer_date_billing_idx").on(t.payerId, t.scheduledDate, t.receivableStatus, t.billedAmountCents, t.billedAt, t.paidAt),
    // KPIs Financeiros, receivables ageing: the open receivables (a few thousand of 100 000) read from
    // this index alone, whatever the filters (docs/decisions/0024-kpi-aggregates-surgical-financial.md).
    index("surgeries_open_receivables_idx")
      .on(t.scheduledDate, t.billedAt, t.billedAmountCents, t.doctorId, t.payerId, t.receivableStatus)
      .where(sql`${t.receivableStatus} in ('realizado', 'faturado', 'pendente', 'glosa')`),
    // A fee statement's line finds its surgery by the guide number (/financeiro/importar-honorarios).
    index("surgeries_guide_number_idx").on(t.guideNumber).where(sql`${t.guideNumber} is not null`),
  ],
);

/**
 * Every distinct key of the surgeries' own text without the guide (`search_class`: type, hospital,
 * payer), with how many surgeries have it: 100 000 surgeries share a few hundred, so a search tests
 * each key once and seeks the matching ones in `surgeries_search_class_idx`. Kept by triggers on
 * surgeries (migration 0043), as appointment_search_keys is; nothing in the app writes it.
 */
export const surgerySearchKeys = sqliteTable("surgery_search_keys", {
  key: text("key").primaryKey(),
  n: integer("n").notNull(),
});

/** SPEC §3 pipeline_stages: the log of moves on the board, newest last. */
export const pipelineStages = sqliteTable(
  "pipeline_stages",
  {
    id: id(),
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "cascade" }),
    stage: text("stage", { enum: PIPELINE_STAGE_IDS }).notNull(),
    fromStage: text("from_stage", { enum: PIPELINE_STAGE_IDS }),
    movedBy: integer("moved_by").references(() => users.id, { onDelete: "set null" }),
    /** What the move recorded besides the stage: the denial reason, or why approval went ahead without three OPME quotes. */
    note: text("note"),
    ...timestamps(),
  },
  (t) => [
    enumCheck("pipeline_stages_stage_check", t.stage, PIPELINE_STAGE_IDS),
    enumCheck("pipeline_stages_from_stage_check", t.fromStage, PIPELINE_STAGE_IDS),
    index("pipeline_stages_surgery_created_idx").on(t.surgeryId, t.createdAt),
  ],
);

/**
 * Cards and billed total of every board column, kept by triggers on `surgeries` (migrations 0007
 * and 0025), so the unfiltered board and the dashboard show their counts without counting
 * 100 000 rows. `billedCards`: the column's surgeries billed to the payer (receivable status
 * 'faturado', 'glosa' or 'pago', or a billed_at date), the dashboard's billing rate.
 */
export const pipelineStageTotals = sqliteTable("pipeline_stage_totals", {
  stage: text("stage", { enum: PIPELINE_STAGE_IDS }).primaryKey(),
  cards: integer("cards").notNull().default(0),
  billedCents: integer("billed_cents").notNull().default(0),
  billedCards: integer("billed_cards").notNull().default(0),
});

/** The clinic's own non-business days (municipal holidays, recesses) on top of the national calendar. */
export const clinicHolidays = sqliteTable(
  "clinic_holidays",
  {
    day: text("day").primaryKey(),
    name: text("name").notNull(),
    ...timestamps(),
  },
  (t) => [isoDateCheck("clinic_holidays_day_check", t.day)],
);

/**
 * Medical fees of one surgery, one line per professional, role and act (Honorários). Lines the fee
 * engine computed (app/lib/fees/engine.ts) keep how: the porte and its value, the act's share, the
 * assistant's share, the accommodation factor and the urgency surcharge, and `computed_cents`;
 * `amount_cents` is what is paid — the computed value, or an override with its reason (ADR 0018).
 * `service_date` repeats the surgery's date (kept by triggers) so the per-doctor totals read one index.
 * A doctor with fee lines cannot be deleted (restrict): history must keep its author.
 */
export const surgeryFeeLines = sqliteTable(
  "surgery_fee_lines",
  {
    id: id(),
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "cascade" }),
    doctorId: integer("doctor_id")
      .notNull()
      .references(() => doctors.id, { onDelete: "restrict" }),
    role: text("role", { enum: FEE_LINE_ROLES }).notNull(),
    medicalCodeId: integer("medical_code_id").references(() => medicalCodes.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents").notNull(),
    /** The surgery's scheduled date (epoch ms), copied by triggers (migration 0016). */
    serviceDate: instant("service_date"),
    /** 1..4 for an assistant. */
    position: integer("position"),
    /** The porte valued ('10A'; for the anaesthetist the equivalent of the porte anestésico). */
    porte: text("porte"),
    anestheticPorte: integer("anesthetic_porte"),
    porteValueCents: integer("porte_value_cents"),
    /** The act's share: 100 principal, 50 same route, 70 other route (whole percent). */
    procedurePercent: integer("procedure_percent"),
    /** An assistant's share of the surgeon's line (whole percent). */
    sharePercent: integer("share_percent"),
    accommodationFactor: integer("accommodation_factor"),
    urgencyPercent: integer("urgency_percent"),
    contralateral: bool("contralateral").notNull().default(false),
    /** What the engine computed; null for lines entered before the engine (imported history). */
    computedCents: integer("computed_cents"),
    overrideReason: text("override_reason"),
    overriddenBy: integer("overridden_by").references(() => users.id, { onDelete: "set null" }),
    overriddenAt: instant("overridden_at"),
    ...timestamps(),
  },
  (t) => [
    enumCheck("surgery_fee_lines_role_check", t.role, FEE_LINE_ROLES),
    check("surgery_fee_lines_amount_check", sql`${t.amountCents} >= 0`),
    check("surgery_fee_lines_position_check", sql`${t.position} is null or ${t.position} between 1 and 4`),
    index("surgery_fee_lines_surgery_idx").on(t.surgeryId),
    index("surgery_fee_lines_doctor_role_idx").on(t.doctorId, t.role),
    // Honorários per doctor over a date range: seek the doctor, slice the dates, sum from the index.
    index("surgery_fee_lines_doctor_date_idx").on(t.doctorId, t.serviceDate, t.role, t.surgeryId, t.amountCents),
    // Usage of a code (Honorários › CBHPM): its principal lines, counted per surgery from the index.
    index("surgery_fee_lines_code_role_idx").on(t.medicalCodeId, t.role, t.surgeryId),
  ],
);
