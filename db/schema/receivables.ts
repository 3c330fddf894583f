import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { RECEIVABLE_STATUSES } from "../../app/lib/enums";
import { GLOSA_APPEAL_OUTCOMES, RECEIVABLE_MOVE_KINDS, TISS_VERSIONS } from "../../app/lib/receivables";
import { users } from "./auth";
import { id, instant, timestamps } from "./columns";
import { enumCheck, isoDateCheck } from "./helpers";
import { payers } from "./master-data";
import { surgeries, surgeryFeeLines } from "./surgery";

/**
 * The receivable's life (docs/decisions/0019-receivables-glosas-and-tiss.md): every change of a
 * surgery's `receivable_status` — the move, who made it, when, from and to, and why for a
 * 'reabrir' or a removal. Newest last.
 */
export const receivableMoves = sqliteTable(
  "receivable_moves",
  {
    id: id(),
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: RECEIVABLE_MOVE_KINDS }).notNull(),
    /** Null when the surgery entered the receivables (concluded) or re-entered them. */
    fromStatus: text("from_status", { enum: RECEIVABLE_STATUSES }),
    /** Null when the receivable was removed from the list ('excluir'). */
    toStatus: text("to_status", { enum: RECEIVABLE_STATUSES }),
    /** The amount the move recorded (a payment, a glosa), in cents. */
    amountCents: integer("amount_cents"),
    reason: text("reason"),
    movedBy: integer("moved_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    enumCheck("receivable_moves_kind_check", t.kind, RECEIVABLE_MOVE_KINDS),
    enumCheck("receivable_moves_from_check", t.fromStatus, RECEIVABLE_STATUSES),
    enumCheck("receivable_moves_to_check", t.toStatus, RECEIVABLE_STATUSES),
    index("receivable_moves_surgery_idx").on(t.surgeryId, t.createdAt),
  ],
);

/** Money received for a surgery's fees: one row per payment (a partial payment, an appeal's recovery). */
export const receivablePayments = sqliteTable(
  "receivable_payments",
  {
    id: id(),
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "restrict" }),
    /** ISO YYYY-MM-DD: the day the payer paid. */
    paidOn: text("paid_on").notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** The glosa this payment recovered (an appeal won), when it is one. */
    glosaId: integer("glosa_id").references(() => receivableGlosas.id, { onDelete: "set null" }),
    /** The fee statement (CSV) that recorded it, when imported. */
    importId: integer("import_id").references(() => feeStatementImports.id, { onDelete: "set null" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    isoDateCheck("receivable_payments_paid_on_check", t.paidOn),
    check("receivable_payments_amount_check", sql`${t.amountCents} > 0`),
    index("receivable_payments_surgery_idx").on(t.surgeryId),
    index("receivable_payments_paid_on_idx").on(t.paidOn),
  ],
);

/**
 * A glosa: what the payer refused to pay of a surgery's fees, why (TISS glosa code and text), and
 * the appeal (recurso): justification, the day it was sent, its outcome and what it recovered.
 * What is lost is `denied_cents - recovered_cents` once the outcome is known.
 */
export const receivableGlosas = sqliteTable(
  "receivable_glosas",
  {
    id: id(),
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "restrict" }),
    /** TISS 'Tabela 38 — Mensagens (glosas, negativas e outras)' code: 4 digits. */
    tissCode: text("tiss_code").notNull(),
    reason: text("reason").notNull(),
    deniedCents: integer("denied_cents").notNull(),
    appealJustification: text("appeal_justification"),
    /** ISO YYYY-MM-DD: the day the appeal was sent to the payer. */
    appealSentOn: text("appeal_sent_on"),
    appealOutcome: text("appeal_outcome", { enum: GLOSA_APPEAL_OUTCOMES }),
    recoveredCents: integer("recovered_cents").notNull().default(0),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    check("receivable_glosas_code_check", sql`length(${t.tissCode}) = 4 and ${t.tissCode} not glob '*[^0-9]*'`),
    check("receivable_glosas_denied_check", sql`${t.deniedCents} > 0`),
    check("receivable_glosas_recovered_check", sql`${t.recoveredCents} between 0 and ${t.deniedCents}`),
    isoDateCheck("receivable_glosas_sent_on_check", t.appealSentOn),
    enumCheck("receivable_glosas_outcome_check", t.appealOutcome, GLOSA_APPEAL_OUTCOMES),
    index("receivable_glosas_surgery_idx").on(t.surgeryId),
  ],
);

/**
 * The denied amount of a glosa per fee line. The fee line is referenced while it exists; its
 * description (role, professional, amount) is kept here so a recomputed fee split loses nothing.
 */
export const receivableGlosaLines = sqliteTable(
  "receivable_glosa_lines",
  {
    id: id(),
    glosaId: integer("glosa_id")
      .notNull()
      .references(() => receivableGlosas.id, { onDelete: "cascade" }),
    feeLineId: integer("fee_line_id").references(() => surgeryFeeLines.id, { onDelete: "set null" }),
    description: text("description").notNull(),
    deniedCents: integer("denied_cents").notNull(),
  },
  (t) => [
    check("receivable_glosa_lines_denied_check", sql`${t.deniedCents} > 0`),
    index("receivable_glosa_lines_glosa_idx").on(t.glosaId),
    index("receivable_glosa_lines_fee_line_idx").on(t.feeLineId),
  ],
);

/**
 * What /financeiro/importar-honorarios received: a fee statement kept as a file (PDF or image,
 * on disk under an opaque name, never in the database) or a CSV statement applied to the
 * receivables (the file is kept the same way; the payments it recorded point back here).
 */
export const feeStatementImports = sqliteTable(
  "fee_statement_imports",
  {
    id: id(),
    kind: text("kind", { enum: ["arquivo", "csv"] }).notNull(),
    originalName: text("original_name").notNull(),
    /** The file's opaque name in the documents directory (app/.server/uploads.ts); a CSV is kept too. */
    storageName: text("storage_name"),
    mimeType: text("mime_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256"),
    /** CSV: lines applied and their total. */
    rowsApplied: integer("rows_applied").notNull().default(0),
    amountCents: integer("amount_cents").notNull().default(0),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    uploadedAt: instant("uploaded_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    enumCheck("fee_statement_imports_kind_check", t.kind, ["arquivo", "csv"]),
    check("fee_statement_imports_size_check", sql`${t.sizeBytes} >= 0`),
    index("fee_statement_imports_uploaded_idx").on(t.uploadedAt),
    // The same file (by its bytes) is received once: a statement applied twice would pay twice.
    uniqueIndex("fee_statement_imports_sha256_unique").on(t.sha256).where(sql`${t.sha256} is not null`),
  ],
);

/** The TISS settings of an insurer: the schema version its guides follow and the clinic's code there. */
export const payerTissSettings = sqliteTable(
  "payer_tiss_settings",
  {
    payerId: integer("payer_id")
      .primaryKey()
      .references(() => payers.id, { onDelete: "cascade" }),
    tissVersion: text("tiss_version", { enum: TISS_VERSIONS }).notNull(),
    /** The clinic's code at this operator (codigoPrestadorNaOperadora). */
    providerCode: text("provider_code").notNull(),
    ...timestamps(),
  },
  (t) => [enumCheck("payer_tiss_settings_version_check", t.tissVersion, TISS_VERSIONS)],
);
