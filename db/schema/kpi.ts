import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Maintained aggregates of the KPI screens Operacionais and Métricas
 * (docs/decisions/0023-kpi-aggregates.md). SQLite triggers (migration 0024_kpi_aggregate_triggers)
 * keep every row in step with the raw tables in the same transaction as the write, whatever path
 * writes (models, imports, seeds, LGPD anonymisation, raw SQL); nothing in the app writes them.
 *
 * Buckets are São Paulo calendar days: `grain` 'd' with `bucket` 'YYYY-MM-DD', or whole months:
 * `grain` 'm' with `bucket` 'YYYY-MM', so a ten-year period reads about 120 month rows plus the
 * days of its partial first and last months. Rows whose counts fall back to zero are kept.
 */

/**
 * São Paulo's UTC offset from each instant on (`from_ms`, epoch ms) until the next row: the
 * historical daylight saving time (until 2019) from the time zone database, filled by the
 * migration. The triggers find the São Paulo day of an instant with it.
 */
export const kpiClinicOffsets = sqliteTable("kpi_clinic_offsets", {
  fromMs: integer("from_ms").primaryKey(),
  offsetMs: integer("offset_ms").notNull(),
});

/**
 * Appointments per doctor (`doctor_id` 0: all doctors) and day or month of their start:
 * all, cancelled, completed, open (scheduled or confirmed), the booking lead of the non-cancelled
 * ones booked before they happened (count and sum of ms), and the completed ones followed by a
 * surgery of the same patient created within the conversion window.
 */
export const kpiAppointmentBuckets = sqliteTable(
  "kpi_appointment_buckets",
  {
    doctorId: integer("doctor_id").notNull(),
    grain: text("grain", { enum: ["d", "m"] }).notNull(),
    bucket: text("bucket").notNull(),
    total: integer("total").notNull().default(0),
    cancelled: integer("cancelled").notNull().default(0),
    completed: integer("completed").notNull().default(0),
    open: integer("open").notNull().default(0),
    leadN: integer("lead_n").notNull().default(0),
    leadMs: integer("lead_ms").notNull().default(0),
    converted: integer("converted").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.doctorId, t.grain, t.bucket] })],
);

/** São Paulo days on which a patient has at least one non-cancelled appointment (`n`: how many). */
export const kpiPatientDays = sqliteTable(
  "kpi_patient_days",
  {
    patientId: integer("patient_id").notNull(),
    day: text("day").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.patientId, t.day] })],
);

/**
 * Distinct active patients over any range, exactly: each patient-day (above) is a point
 * (its day, the patient's previous active day or '' for none), counted by day or month on both
 * axes. The patients active in [from, to] are the points with day in [from, to] and previous day
 * before `from`: one per patient, their first active day of the range.
 */
export const kpiActivePoints = sqliteTable(
  "kpi_active_points",
  {
    dayGrain: text("day_grain", { enum: ["d", "m"] }).notNull(),
    dayBucket: text("day_bucket").notNull(),
    prevGrain: text("prev_grain", { enum: ["d", "m"] }).notNull(),
    prevBucket: text("prev_bucket").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dayGrain, t.dayBucket, t.prevGrain, t.prevBucket] })],
);

/** Patients registered per day or month, by the insurer typed (raw text, '' for none). */
export const kpiNewPatients = sqliteTable(
  "kpi_new_patients",
  {
    grain: text("grain", { enum: ["d", "m"] }).notNull(),
    bucket: text("bucket").notNull(),
    insurance: text("insurance").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.grain, t.bucket, t.insurance] })],
);

/** Patients registered per day or month who have a referrer, by referrer. */
export const kpiNewPatientReferrers = sqliteTable(
  "kpi_new_patient_referrers",
  {
    grain: text("grain", { enum: ["d", "m"] }).notNull(),
    bucket: text("bucket").notNull(),
    referrerId: integer("referrer_id").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.grain, t.bucket, t.referrerId] })],
);

/** Outbound WhatsApp messages per day or month of creation, by status. */
export const kpiOutboundMessages = sqliteTable(
  "kpi_outbound_messages",
  {
    grain: text("grain", { enum: ["d", "m"] }).notNull(),
    bucket: text("bucket").notNull(),
    status: text("status").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.grain, t.bucket, t.status] })],
);

// ---------------------------------------------------------------------------------------------
// KPIs Cirúrgicos and Financeiros (docs/decisions/0024-kpi-aggregates-surgical-financial.md).
// Written only by the SQLite triggers of migration 0027_kpi_surgical_financial_triggers (on
// surgeries, pipeline_stages, receivable_glosas and financial_transactions), in the same
// transaction as the write that changes the figures; São Paulo days come from kpi_clinic_offsets.

/**
 * One row per surgery: what the KPI figures read of it, with its instants already turned into
 * São Paulo days. Rebuilt by triggers whenever the surgery, its stage history or its glosas change.
 */
export const kpiSurgeryFacts = sqliteTable(
  "kpi_surgery_facts",
  {
    surgeryId: integer("surgery_id").primaryKey(),
    /** São Paulo day of `scheduled_date`: the KPI cohort of the surgery. */
    day: text("day").notNull(),
    doctorId: integer("doctor_id").notNull(),
    payerId: integer("payer_id"),
    stage: text("stage").notNull(),
    procedure: text("procedure").notNull(),
    /** Day of `ans_requested_at`; null without a pre-authorisation request. */
    ansRequestedDay: text("ans_requested_day"),
    /** Day of the first move to Aprovado/Negado at or after the request. */
    ansAnsweredDay: text("ans_answered_day"),
    /** 1 when the history has a move to Aprovado or Negado. */
    ansAnswered: integer("ans_answered").notNull(),
    /** 1 when the history has a move to Negado. */
    ansDenied: integer("ans_denied").notNull(),
    /** Day of `paid_at` of a paid ('pago') surgery billed at or before it, with a payer; else null. */
    paidDay: text("paid_day"),
    /** paid_at − billed_at (ms) of that surgery. */
    paidMs: integer("paid_ms"),
    /** billed_amount_cents when > 0 and the surgery has a payer; else null. */
    billedCents: integer("billed_cents"),
    deniedCents: integer("denied_cents").notNull(),
    recoveredCents: integer("recovered_cents").notNull(),
  },
  (t) => [
    // Loose days of a period (and every figure with both the doctor and the payer filter): the
    // day's surgeries read from these indexes alone.
    index("kpi_surgery_facts_day_idx").on(t.day, t.doctorId, t.payerId, t.stage, t.procedure, t.billedCents, t.deniedCents, t.recoveredCents),
    index("kpi_surgery_facts_doctor_payer_day_idx").on(t.doctorId, t.payerId, t.day, t.stage, t.procedure),
    index("kpi_surgery_facts_paid_idx").on(t.paidDay, t.doctorId, t.payerId, t.paidMs).where(sql`${t.paidDay} is not null`),
    // Prazo ANS e negativas: the period's requests, read from these indexes alone.
    index("kpi_surgery_facts_ans_idx")
      .on(t.day, t.payerId, t.doctorId, t.ansRequestedDay, t.ansAnsweredDay, t.ansAnswered, t.ansDenied)
      .where(sql`${t.ansRequestedDay} is not null`),
    index("kpi_surgery_facts_doctor_ans_idx")
      .on(t.doctorId, t.day, t.payerId, t.ansRequestedDay, t.ansAnsweredDay, t.ansAnswered, t.ansDenied)
      .where(sql`${t.ansRequestedDay} is not null`),
    index("kpi_surgery_facts_payer_ans_idx")
      .on(t.payerId, t.day, t.doctorId, t.ansRequestedDay, t.ansAnsweredDay, t.ansAnswered, t.ansDenied)
      .where(sql`${t.ansRequestedDay} is not null`),
  ],
);

/** One row per completed stay in a pipeline stage (a `pipeline_stages` row followed by a later move). */
export const kpiStageStays = sqliteTable(
  "kpi_stage_stays",
  {
    /** The `pipeline_stages` row that opened the stay. */
    stageId: integer("stage_id").primaryKey(),
    surgeryId: integer("surgery_id").notNull(),
    stage: text("stage").notNull(),
    /** The stay's length in tenths of a day, rounded half up (what the screen shows). */
    tenths: integer("tenths").notNull(),
    /** The surgery's day, doctor and payer (the cohort the stay belongs to). */
    day: text("day").notNull(),
    doctorId: integer("doctor_id").notNull(),
    payerId: integer("payer_id"),
  },
  (t) => [
    index("kpi_stage_stays_surgery_idx").on(t.surgeryId),
    // Loose days of a period, and the doctor-and-payer filter over any period, from the index alone.
    index("kpi_stage_stays_day_idx").on(t.day, t.stage, t.tenths, t.doctorId, t.payerId),
    index("kpi_stage_stays_doctor_payer_day_idx").on(t.doctorId, t.payerId, t.day, t.stage, t.tenths),
  ],
);

/**
 * Sums per calendar unit, a year ('y', 'YYYY') or a month ('m', 'YYYY-MM'), so any period is at
 * most three ranges of these rows (whole years, whole months before and after them) plus at most
 * ~60 loose days read from kpi_surgery_facts / kpi_stage_stays / financial_transactions.
 * `doctor_id` / `payer_id` 0 mean all; a surgery counts in the all row, its doctor's and its
 * payer's (both filters together read the fact tables). Metrics and their keys:
 * - 'stage' (k1 stage), 'procedure' (k1 surgery_type): n surgeries, by scheduled day;
 * - 'stay' (k1 stage, k2 tenths of a day): n completed stays of the day's surgeries;
 * - 'paid' (k2 payer; payer_id 0): n paid surgeries and v1 Σ paid_at − billed_at (ms), by paid day;
 * - 'glosa' (k2 payer; payer_id 0): n billed surgeries, v1 billed, v2 denied, v3 recovered cents;
 * - 'ledger' (k1 type; doctor and payer 0): n transactions and v1 Σ amount_cents, by transaction day.
 * Rows that fall to zero stay (readers skip n = 0).
 */
export const kpiRollups = sqliteTable(
  "kpi_rollups",
  {
    metric: text("metric").notNull(),
    doctorId: integer("doctor_id").notNull(),
    payerId: integer("payer_id").notNull(),
    level: text("level").notNull(),
    unit: text("unit").notNull(),
    k1: text("k1").notNull(),
    k2: integer("k2").notNull(),
    n: integer("n").notNull(),
    v1: integer("v1").notNull(),
    v2: integer("v2").notNull(),
    v3: integer("v3").notNull(),
  },
  (t) => [primaryKey({ columns: [t.metric, t.doctorId, t.payerId, t.level, t.unit, t.k1, t.k2] })],
);

/**
 * One row per OPME request with its surgery's São Paulo day, doctor, payer and procedure (copied
 * from kpi_surgery_facts by the triggers of migration 0028), so /kpis/opme reads a period's
 * requests as a range of these indexes instead of every surgery of the period; and its quotes'
 * facts (migration 0030), recomputed from the request's few quotes by triggers on every write to
 * its items, quotes, prices and choice. A quote's total = Σ unit_price_cents × the item's quantity;
 * a quote is complete when it prices every item of the request. The 'opme' and 'opme_saving'
 * rollups (kpi_rollups) follow from triggers on this table.
 */
/** What a period's OPME figures sum, after the day in each covering index of kpi_opme_requests. */
const opmeSums = (t: Record<"procedure" | "chosenSupplierId" | "quotes" | "chosenCents" | "chosenComplete" | "completeQuotes" | "highestCents", AnySQLiteColumn>) =>
  [t.procedure, t.chosenSupplierId, t.quotes, t.chosenCents, t.chosenComplete, t.completeQuotes, t.highestCents] as const;

export const kpiOpmeRequests = sqliteTable(
  "kpi_opme_requests",
  {
    requestId: integer("request_id").primaryKey(),
    surgeryId: integer("surgery_id").notNull(),
    day: text("day").notNull(),
    doctorId: integer("doctor_id").notNull(),
    payerId: integer("payer_id"),
    procedure: text("procedure").notNull(),
    /** Number of quotes. */
    quotes: integer("quotes").notNull().default(0),
    /** Number of complete quotes. */
    completeQuotes: integer("complete_quotes").notNull().default(0),
    /** The highest complete quote's total; null without a complete quote. */
    highestCents: integer("highest_cents"),
    /** The chosen quote's supplier and total; null without a choice. */
    chosenSupplierId: integer("chosen_supplier_id"),
    chosenCents: integer("chosen_cents"),
    /** 1 when the chosen quote is complete. */
    chosenComplete: integer("chosen_complete").notNull().default(0),
  },
  (t) => [
    index("kpi_opme_requests_surgery_idx").on(t.surgeryId),
    // Covering the loose days of a period (ADR 0024), for all, one doctor, one payer or both.
    index("kpi_opme_requests_doctor_payer_day_idx").on(t.doctorId, t.payerId, t.day, ...opmeSums(t)),
    index("kpi_opme_requests_day_idx").on(t.day, ...opmeSums(t)),
    index("kpi_opme_requests_doctor_day_idx").on(t.doctorId, t.day, ...opmeSums(t)),
    index("kpi_opme_requests_payer_day_idx").on(t.payerId, t.day, ...opmeSums(t)),
  ],
);
