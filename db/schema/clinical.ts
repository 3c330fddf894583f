import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CONSENT_SOURCES, OTHER_CONSENT_PURPOSES } from "../../app/lib/consents";
import { APPOINTMENT_STATUSES } from "../../app/lib/enums";
import { users } from "./auth";
import { bool, id, instant, timestamps } from "./columns";
import { digitsCheck, enumCheck, isoDateCheck, searchText } from "./helpers";

/** SPEC §3 patients. `cpf` is 11 digits without punctuation; several patients may have none. */
export const patients = sqliteTable(
  "patients",
  {
    id: id(),
    name: text("name").notNull(),
    cpf: text("cpf"),
    /** ISO YYYY-MM-DD. */
    dateOfBirth: text("date_of_birth"),
    phone: text("phone"),
    email: text("email"),
    address: text("address"),
    /** Free text as typed (e.g. "Unimed"); SPEC keeps it a plain field, not a payer link. */
    insurance: text("insurance"),
    /** The insurer's card number (carteirinha), as printed. */
    insuranceCardNumber: text("insurance_card_number"),
    medicalHistory: text("medical_history"),
    /** Consent to receive WhatsApp messages (communication KPI optInPatients). */
    whatsappOptIn: bool("whatsapp_opt_in").notNull().default(false),
    whatsappOptInAt: instant("whatsapp_opt_in_at"),
    /** Set when the patient's identifiers were removed at their request (LGPD; docs/decisions/0022-lgpd-rights.md). */
    anonymizedAt: instant("anonymized_at"),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    digitsCheck("patients_cpf_check", t.cpf, 11),
    isoDateCheck("patients_date_of_birth_check", t.dateOfBirth),
    check("patients_name_check", sql`length(trim(${t.name})) > 0`),
    // NULLs are distinct in SQLite unique indexes, so patients without a CPF do not collide.
    uniqueIndex("patients_cpf_unique").on(t.cpf),
    index("patients_name_idx").on(t.name),
    // The list sorts by the normalised key (it starts with the name), so accents sort with their letter.
    index("patients_search_text_idx").on(t.searchText),
    index("patients_created_at_idx").on(t.createdAt),
    index("patients_whatsapp_opt_in_idx").on(t.whatsappOptIn),
    // KPIs Métricas: the first patient of the period with a given insurer text (which spelling labels it).
    index("patients_insurance_created_idx").on(t.insurance, t.createdAt),
  ],
);

/** SPEC §3 doctors. `commission_rate` is a fraction 0..1 (shown as a whole percentage). */
export const doctors = sqliteTable(
  "doctors",
  {
    id: id(),
    name: text("name").notNull(),
    specialty: text("specialty").notNull(),
    crm: text("crm").notNull(),
    crmUf: text("crm_uf"),
    phone: text("phone"),
    email: text("email"),
    commissionRate: real("commission_rate").notNull().default(0),
    active: bool("active").notNull().default(true),
    /** The doctor's own login, when they have one. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    check("doctors_commission_rate_check", sql`${t.commissionRate} between 0 and 1`),
    check("doctors_crm_uf_check", sql`${t.crmUf} is null or length(${t.crmUf}) = 2`),
    index("doctors_name_idx").on(t.name),
    index("doctors_specialty_name_idx").on(t.specialty, t.name),
    index("doctors_active_name_idx").on(t.active, t.name),
    uniqueIndex("doctors_user_unique").on(t.userId),
  ],
);

/** SPEC §3 appointments. A patient or doctor with appointments cannot be deleted (restrict). */
export const appointments = sqliteTable(
  "appointments",
  {
    id: id(),
    patientId: integer("patient_id")
      .notNull()
      .references(() => patients.id, { onDelete: "restrict" }),
    doctorId: integer("doctor_id")
      .notNull()
      .references(() => doctors.id, { onDelete: "restrict" }),
    startTime: instant("start_time").notNull(),
    endTime: instant("end_time").notNull(),
    status: text("status", { enum: APPOINTMENT_STATUSES }).notNull().default("scheduled"),
    type: text("type").notNull(),
    notes: text("notes"),
    location: text("location"),
    /**
     * The list search's key of the appointment's own text (type and location, folded by
     * normalizeSearch), written with the row (app/models/appointment.server.ts). NULL until then: rows
     * written by hand, or whose type or location changed without it (a trigger clears it), are
     * searched by folding their text on the fly and get their key back when the server starts
     * (app/.server/search-keys.ts).
     */
    searchText: text("search_text"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    enumCheck("appointments_status_check", t.status, APPOINTMENT_STATUSES),
    check("appointments_time_order_check", sql`${t.endTime} > ${t.startTime}`),
    index("appointments_start_time_idx").on(t.startTime),
    // The schedule's count of a day's appointments (those starting in it or running into it) read
    // from the index alone, without fetching each row for its end time.
    index("appointments_start_end_idx").on(t.startTime, t.endTime),
    // Double-booking checks and per-doctor / per-patient agendas.
    index("appointments_doctor_start_idx").on(t.doctorId, t.startTime),
    // A patient's agenda, in (start_time, id) order; and a search's rows patient by patient
    // (app/models/word-search.server.ts), their doctor, status and own key read from the index
    // alone. The id is named so the columns after it do not break that order.
    index("appointments_patient_start_idx").on(t.patientId, t.startTime, t.id, t.doctorId, t.status, t.searchText),
    index("appointments_status_start_idx").on(t.status, t.startTime),
    // KPI screens: a period's appointments, or one doctor's, read from the index alone (status,
    // booking time and patient included), so a month of a million-row table is a range scan.
    index("appointments_kpi_start_idx").on(t.startTime, t.status, t.doctorId, t.createdAt, t.patientId),
    index("appointments_kpi_doctor_start_idx").on(t.doctorId, t.startTime, t.status, t.createdAt, t.patientId),
    // A search's rows by their own text: seek each key that contains the word (from
    // appointment_search_keys), and within it each doctor a search's other words find, date,
    // patient and status read from the index (app/models/word-search.server.ts). Its first range
    // holds the rows still without a key (rows written by hand since the last start).
    index("appointments_search_text_idx").on(t.searchText, t.doctorId, t.startTime, t.patientId, t.status),
  ],
);

/**
 * Every distinct search key of the appointments' own text, with how many appointments have it.
 * Types and locations repeat ("Retorno | Consultório 2"), so a million appointments share a few
 * hundred keys: a search tests each key once instead of each appointment, and seeks the matching
 * keys in `appointments_search_text_idx`. Kept by triggers on appointments (migration 0032) in the
 * same transaction as every write, whatever path writes; nothing in the app writes it.
 */
export const appointmentSearchKeys = sqliteTable("appointment_search_keys", {
  key: text("key").primaryKey(),
  n: integer("n").notNull(),
});

/** Encaminhadores: professionals who refer patients. `commission_rate` is a fraction 0..1. */
export const referrers = sqliteTable(
  "referrers",
  {
    id: id(),
    name: text("name").notNull(),
    specialty: text("specialty"),
    crm: text("crm"),
    crmUf: text("crm_uf"),
    phone: text("phone"),
    email: text("email"),
    commissionRate: real("commission_rate").notNull().default(0),
    notes: text("notes"),
    active: bool("active").notNull().default(true),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    check("referrers_commission_rate_check", sql`${t.commissionRate} between 0 and 1`),
    check("referrers_crm_uf_check", sql`${t.crmUf} is null or length(${t.crmUf}) = 2`),
    index("referrers_name_idx").on(t.name),
    index("referrers_search_text_idx").on(t.searchText),
    index("referrers_active_idx").on(t.active),
  ],
);

/**
 * 'Encaminhado por': which referrer sent a patient (at most one per patient). A table of its own
 * rather than a column on patients, so the link is kept and removed with its referrer's screen.
 */
export const patientReferrals = sqliteTable(
  "patient_referrals",
  {
    patientId: integer("patient_id")
      .primaryKey()
      .references(() => patients.id, { onDelete: "cascade" }),
    referrerId: integer("referrer_id")
      .notNull()
      .references(() => referrers.id, { onDelete: "cascade" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [index("patient_referrals_referrer_idx").on(t.referrerId, t.patientId)],
);

/**
 * What /referrers shows of each referrer, kept by the SQLite triggers of migration
 * 0049_referrer_figures in the same transaction as any write to `patient_referrals` or to a
 * surgery's patient or payment (nothing in the app writes these tables): the patients they sent
 * and those patients' surgeries. A referrer of a large practice sends thousands of patients; the
 * list read them through a join per view.
 */
export const referrerCounts = sqliteTable("referrer_counts", {
  referrerId: integer("referrer_id").primaryKey(),
  patients: integer("patients").notNull(),
  surgeries: integer("surgeries").notNull(),
});

/**
 * The referred patients' surgeries paid ('pago') per São Paulo day of `paid_at`, by referrer: how
 * many and the sum of their `billed_amount_cents` (the commission's base), so a period of any
 * length reads at most one row per referrer and day with payments. Kept by the same triggers; rows
 * that fall back to zero are removed.
 */
export const referrerPaidDays = sqliteTable(
  "referrer_paid_days",
  {
    referrerId: integer("referrer_id").notNull(),
    day: text("day").notNull(),
    n: integer("n").notNull(),
    cents: integer("cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.referrerId, t.day] })],
);

/**
 * Consents other than WhatsApp's (which `patients.whatsapp_opt_in` and `whatsapp_consents` hold):
 * a log, one row per decision, never updated; the latest row of a purpose is its current state
 * (docs/decisions/0022-lgpd-rights.md).
 */
export const patientConsents = sqliteTable(
  "patient_consents",
  {
    id: id(),
    patientId: integer("patient_id")
      .notNull()
      .references(() => patients.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: OTHER_CONSENT_PURPOSES }).notNull(),
    granted: bool("granted").notNull(),
    source: text("source", { enum: CONSENT_SOURCES }).notNull(),
    recordedBy: integer("recorded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: instant("created_at")
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`)
      .$defaultFn(() => new Date()),
  },
  (t) => [
    enumCheck("patient_consents_purpose_check", t.purpose, OTHER_CONSENT_PURPOSES),
    enumCheck("patient_consents_source_check", t.source, CONSENT_SOURCES),
    index("patient_consents_patient_purpose_idx").on(t.patientId, t.purpose, t.id),
  ],
);
