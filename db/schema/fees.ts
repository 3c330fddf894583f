import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ACCESS_ROUTES, ACCOMMODATIONS, SURGERY_TEAM_ROLES, URGENCY_MODES } from "../../app/lib/enums";
import { users } from "./auth";
import { doctors } from "./clinical";
import { bool, id, instant, timestamps } from "./columns";
import { enumCheck } from "./helpers";
import { medicalCodes } from "./master-data";
import { surgeries } from "./surgery";

/**
 * What the fee engine (app/lib/fees) prices a surgery from, besides the payer's rules: its
 * procedures, its team and its fee settings (accommodation, urgency). The lines it computes are
 * `surgery_fee_lines` (db/schema/surgery.ts). ADR 0018.
 */

/** The procedures (CBHPM/TUSS codes) of a surgery, in the order they were entered. */
export const surgeryProcedures = sqliteTable(
  "surgery_procedures",
  {
    id: id(),
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "cascade" }),
    medicalCodeId: integer("medical_code_id")
      .notNull()
      .references(() => medicalCodes.id, { onDelete: "restrict" }),
    position: integer("position").notNull(),
    /** Access route relative to the principal procedure; for a bilateral one, same or different incision (CBHPM 4.1–4.3). */
    accessRoute: text("access_route", { enum: ACCESS_ROUTES }).notNull().default("same"),
    bilateral: bool("bilateral").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    enumCheck("surgery_procedures_access_route_check", t.accessRoute, ACCESS_ROUTES),
    uniqueIndex("surgery_procedures_surgery_position_unique").on(t.surgeryId, t.position),
    index("surgery_procedures_code_surgery_idx").on(t.medicalCodeId, t.surgeryId),
  ],
);

/** The surgical team: one doctor per role (surgeon, 1st–4th assistant, anaesthetist). */
export const surgeryTeamMembers = sqliteTable(
  "surgery_team_members",
  {
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "cascade" }),
    role: text("role", { enum: SURGERY_TEAM_ROLES }).notNull(),
    doctorId: integer("doctor_id")
      .notNull()
      .references(() => doctors.id, { onDelete: "restrict" }),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.surgeryId, t.role] }),
    enumCheck("surgery_team_members_role_check", t.role, SURGERY_TEAM_ROLES),
    index("surgery_team_members_doctor_idx").on(t.doctorId),
  ],
);

/** Accommodation and urgency of a surgery, and when its fee lines were last computed. */
export const surgeryFeeSettings = sqliteTable(
  "surgery_fee_settings",
  {
    surgeryId: integer("surgery_id")
      .primaryKey()
      .references(() => surgeries.id, { onDelete: "cascade" }),
    accommodation: text("accommodation", { enum: ACCOMMODATIONS }).notNull().default("enfermaria"),
    /** 'auto': derived from the surgery's time (19h–7h, weekends, holidays); 'sim'/'nao': set by hand. */
    urgency: text("urgency", { enum: URGENCY_MODES }).notNull().default("auto"),
    computedAt: instant("computed_at"),
    computedBy: integer("computed_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    enumCheck("surgery_fee_settings_accommodation_check", t.accommodation, ACCOMMODATIONS),
    enumCheck("surgery_fee_settings_urgency_check", t.urgency, URGENCY_MODES),
    check("surgery_fee_settings_computed_check", sql`${t.computedBy} is null or ${t.computedAt} is not null`),
  ],
);

/**
 * The honorários per doctor (/honorarios/medicos), kept by triggers on `surgery_fee_lines` in the
 * same transaction as every write (migration 0042): per doctor and São Paulo month of the lines'
 * service date ('' for lines without one), how many lines, how many surgeries have a line of the
 * doctor in the month, and the cents paid as principal, auxiliar and anestesista. A period is read
 * as its whole months from here and its loose days from the lines' `(doctor_id, service_date …)`
 * index (app/models/honorarios.server.ts).
 */
export const feeDoctorMonths = sqliteTable(
  "fee_doctor_months",
  {
    doctorId: integer("doctor_id").notNull(),
    month: text("month").notNull(),
    lines: integer("lines").notNull(),
    surgeries: integer("surgeries").notNull(),
    principalCents: integer("principal_cents").notNull(),
    auxiliarCents: integer("auxiliar_cents").notNull(),
    anestesistaCents: integer("anestesista_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.doctorId, t.month] })],
);

/**
 * A doctor's surgeries whose lines fall in more than one month of `fee_doctor_months` (a date
 * changed on some lines only, or some without a date): counted once in each, so a period that
 * holds several of those months counts them again (`feesByDoctor` takes the extra off). Kept by
 * the same triggers; usually empty, since a surgery's lines are priced together with its date.
 */
export const feeDoctorSplitSurgeries = sqliteTable(
  "fee_doctor_split_surgeries",
  {
    doctorId: integer("doctor_id").notNull(),
    surgeryId: integer("surgery_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.doctorId, t.surgeryId] })],
);
