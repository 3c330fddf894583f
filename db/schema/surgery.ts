import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { FEE_LINE_ROLES, RECEIVABLE_STATUSES, SURGERY_STATUSES } from "../../app/lib/enums";
import { PIPELINE_STAGE_IDS } from "../../app/lib/pipeline";
import { users } from "./auth";
import { doctors, patients } from "./clinical";
import { id, instant, timestamps } from "./columns";
import { enumCheck } from "./helpers";
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
    index("surgeries_doctor_date_idx").on(t.doctorId, t.scheduledDate),
    index("surgeries_patient_date_idx").on(t.patientId, t.scheduledDate),
    index("surgeries_payer_idx").on(t.payerId),
    index("surgeries_hospital_idx").on(t.hospitalId),
    index("surgeries_receivable_date_idx").on(t.receivableStatus, t.scheduledDate),
    index("surgeries_paid_at_idx").on(t.paidAt),
  ],
);

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
    ...timestamps(),
  },
  (t) => [
    enumCheck("pipeline_stages_stage_check", t.stage, PIPELINE_STAGE_IDS),
    enumCheck("pipeline_stages_from_stage_check", t.fromStage, PIPELINE_STAGE_IDS),
    index("pipeline_stages_surgery_created_idx").on(t.surgeryId, t.createdAt),
  ],
);

/**
 * Medical fees of one surgery, one line per professional and role (Honorários).
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
    ...timestamps(),
  },
  (t) => [
    enumCheck("surgery_fee_lines_role_check", t.role, FEE_LINE_ROLES),
    check("surgery_fee_lines_amount_check", sql`${t.amountCents} >= 0`),
    index("surgery_fee_lines_surgery_idx").on(t.surgeryId),
    index("surgery_fee_lines_doctor_role_idx").on(t.doctorId, t.role),
    index("surgery_fee_lines_code_idx").on(t.medicalCodeId),
  ],
);
