import { type SQL, and, desc, eq, gte, lte, sql } from "drizzle-orm";
import { financialTransactions, patients, surgeries } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { writeCache } from "~/.server/data-cache";
import { keysetList, pageUntilWrite } from "~/.server/pagination";
import type { TransactionType } from "~/lib/enums";
import type { ListParams } from "~/lib/list-params";
import type { TransactionFilters } from "~/lib/lists";
import type { TransactionInput } from "~/validation/transaction";
import { ledgerTotals } from "./kpi-financial.server";
import { surgeryOptionLabel } from "./task-options.server";

/**
 * /financial (SPEC §3 financial_transactions): the cash book. Amounts are positive cents; the
 * type says which way the money went. Admins only (ADR 0018); every write is audited.
 */
export class TransactionError extends DomainError<keyof TransactionInput & string> {}

type TransactionState = ListParams<"transactionDate"> & { filters: TransactionFilters };
const t = financialTransactions;

function transactionWhere(filters: TransactionFilters): SQL | undefined {
  return and(
    filters.type ? eq(t.type, filters.type) : undefined,
    filters.category ? eq(t.category, filters.category) : undefined,
    filters.from ? gte(t.transactionDate, filters.from) : undefined,
    filters.to ? lte(t.transactionDate, filters.to) : undefined,
  );
}

const LIST_FIELDS = {
  id: t.id,
  type: t.type,
  amountCents: t.amountCents,
  category: t.category,
  description: t.description,
  transactionDate: t.transactionDate,
  surgeryId: t.surgeryId,
};

/** The cash book, a page kept until the next write (`pageUntilWrite`). */
export function listTransactions(state: TransactionState) {
  return pageUntilWrite("transactions", state, () => readTransactions(state));
}

function readTransactions(state: TransactionState) {
  const where = transactionWhere(state.filters);
  const order = { key: t.transactionDate, id: t.id, dir: state.dir };
  return keysetList(
    t,
    where,
    state,
    order,
    (at, orderBy, limit, offset) =>
      db
        .select({ ...LIST_FIELDS, cursorKey: order.key })
        .from(t)
        .where(at)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  );
}

/** The cash book's first and last possible days: its whole history as a period. */
const EVERY_DAY = { from: "0001-01-01", to: "9999-12-31" };

/** Summaries of the filters viewed, kept until the next write (their own store: dates are typed). */
const summariesUntilWrite = writeCache(32);

/**
 * Total Revenue, Total Expenses and Balance over the list's filter, kept until the next write.
 * Without a category: whole years and months from the rollups the triggers keep (kpi_rollups
 * 'ledger'), the loose days at the range's ends from the (type, date) index, where a sum over every
 * transaction of a type read 250 000 index entries (30 ms) on each view. With a category: its slice
 * of the (category, date) index.
 */
export function transactionSummary(filters: TransactionFilters) {
  return summariesUntilWrite(JSON.stringify(filters), () => computeTransactionSummary(filters));
}

/** `transactionSummary` computed now (the bench's first view after a write). */
export function computeTransactionSummary(filters: TransactionFilters) {
  const period = { from: filters.from ?? EVERY_DAY.from, to: filters.to ?? EVERY_DAY.to };
  const ledger = filters.category ? null : period.from > period.to ? { receita: 0, despesa: 0 } : ledgerTotals(period);
  const sumOf = (type: TransactionType) => {
    if (filters.type && filters.type !== type) return 0;
    if (ledger) return ledger[type];
    const row = db
      .select({ total: sql<number>`coalesce(sum(${t.amountCents}), 0)` })
      .from(t)
      .where(transactionWhere({ ...filters, type }))
      .get();
    return Number(row?.total ?? 0);
  };
  const revenueCents = sumOf("receita");
  const expensesCents = sumOf("despesa");
  return { revenueCents, expensesCents, balanceCents: revenueCents - expensesCents };
}

export function getTransaction(id: number) {
  const row = db.select().from(t).where(eq(t.id, id)).get();
  if (!row) return null;
  return { ...row, surgeryLabel: row.surgeryId ? surgeryLabel(row.surgeryId) : null };
}

function surgeryLabel(id: number) {
  const row = db
    .select({ id: surgeries.id, surgeryType: surgeries.surgeryType, scheduledDate: surgeries.scheduledDate, patientName: patients.name })
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .where(eq(surgeries.id, id))
    .get();
  return row ? surgeryOptionLabel(row) : null;
}

function values(tx: Tx, input: TransactionInput) {
  if (input.surgeryId !== null && !tx.select({ id: surgeries.id }).from(surgeries).where(eq(surgeries.id, input.surgeryId)).get()) {
    throw new TransactionError("Cirurgia não encontrada.", "surgeryId");
  }
  return {
    type: input.transactionType,
    amountCents: input.amount,
    category: input.transactionCategory,
    description: input.description,
    transactionDate: input.transactionDate,
    surgeryId: input.surgeryId,
  };
}

export function createTransaction(userId: number, input: TransactionInput) {
  return db.transaction((tx) => {
    const row = tx.insert(t).values({ ...values(tx, input), createdBy: userId }).returning({ id: t.id }).get();
    recordAudit(tx, { userId, action: "create", entity: "financial_transaction", entityId: row.id, changes: values(tx, input) });
    return row.id;
  });
}

export function updateTransaction(userId: number, id: number, input: TransactionInput) {
  db.transaction((tx) => {
    const before = tx.select().from(t).where(eq(t.id, id)).get();
    if (!before) throw new TransactionError("Transação não encontrada.");
    const next = values(tx, input);
    tx.update(t).set({ ...next, updatedAt: new Date() }).where(eq(t.id, id)).run();
    recordAudit(tx, { userId, action: "update", entity: "financial_transaction", entityId: id, changes: diffChanges(before as Record<string, unknown>, next) });
  });
}

export function deleteTransaction(userId: number, id: number) {
  db.transaction((tx) => {
    const before = tx.select().from(t).where(eq(t.id, id)).get();
    if (!before) throw new TransactionError("Transação não encontrada.");
    tx.delete(t).where(eq(t.id, id)).run();
    recordAudit(tx, { userId, action: "delete", entity: "financial_transaction", entityId: id, changes: before });
  });
}

/** The export: the list's filter and order, every matching row (streamed by csvExport). */
export function transactionExport({ dir }: { dir: "asc" | "desc" }, filters: TransactionFilters) {
  const fields = LIST_FIELDS;
  const order = dir === "asc" ? [t.transactionDate, t.id] : [desc(t.transactionDate), desc(t.id)];
  return { fields, query: db.select(fields).from(t).where(transactionWhere(filters)).orderBy(...order) };
}
