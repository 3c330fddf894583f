import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { FEE_SCHEDULE_KINDS, TRANSACTION_TYPES } from "../../app/lib/enums";
import { users } from "./auth";
import { id, timestamps } from "./columns";
import { enumCheck, isoDateCheck } from "./helpers";
import { surgeries } from "./surgery";

/** SPEC §3 financial_transactions. Amounts are positive cents; `type` says which way the money went. */
export const financialTransactions = sqliteTable(
  "financial_transactions",
  {
    id: id(),
    type: text("type", { enum: TRANSACTION_TYPES }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    category: text("category").notNull(),
    description: text("description"),
    /** ISO YYYY-MM-DD (a calendar day, not an instant). */
    transactionDate: text("transaction_date").notNull(),
    surgeryId: integer("surgery_id").references(() => surgeries.id, { onDelete: "set null" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    enumCheck("financial_transactions_type_check", t.type, TRANSACTION_TYPES),
    check("financial_transactions_amount_check", sql`${t.amountCents} > 0`),
    isoDateCheck("financial_transactions_date_check", t.transactionDate),
    index("financial_transactions_date_idx").on(t.transactionDate),
    // /financial: the list in date order by type or category, and the summary cards' sums read
    // from the index alone (type or category sought, the date range a slice of it, ties in id order).
    index("financial_transactions_type_date_amount_idx").on(t.type, t.transactionDate, t.id, t.amountCents),
    index("financial_transactions_category_date_idx").on(t.category, t.transactionDate, t.id, t.type, t.amountCents),
    index("financial_transactions_surgery_idx").on(t.surgeryId),
  ],
);

/** Reference fee tables (Honorários/tabelas): one row per code per table edition. */
export const referenceFeeSchedules = sqliteTable(
  "reference_fee_schedules",
  {
    id: id(),
    kind: text("kind", { enum: FEE_SCHEDULE_KINDS }).notNull(),
    year: integer("year").notNull(),
    /** Edition label within the year; '' when the table has a single edition (keeps the unique key NULL-free). */
    version: text("version").notNull().default(""),
    code: text("code").notNull(),
    description: text("description").notNull(),
    baseValueCents: integer("base_value_cents").notNull(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("reference_fee_schedules_kind_check", t.kind, FEE_SCHEDULE_KINDS),
    check("reference_fee_schedules_year_check", sql`${t.year} between 1990 and 2100`),
    check("reference_fee_schedules_value_check", sql`${t.baseValueCents} >= 0`),
    uniqueIndex("reference_fee_schedules_unique").on(t.kind, t.year, t.version, t.code),
    index("reference_fee_schedules_code_idx").on(t.code),
    index("reference_fee_schedules_year_idx").on(t.year),
  ],
);
