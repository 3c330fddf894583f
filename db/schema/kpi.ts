import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
