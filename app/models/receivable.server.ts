import { type SQL, and, asc, count, desc, eq, gte, inArray, isNotNull, lt, sql, sum } from "drizzle-orm";
import {
  doctors,
  patients,
  payers,
  profiles,
  receivableGlosaLines,
  receivableGlosas,
  receivableMoves,
  receivablePayments,
  surgeries,
  surgeryFeeLines,
} from "~db/schema";
import { recordAudit } from "~/.server/audit";
import type { SessionUser } from "~/.server/auth";
import { type Intent, intent } from "~/.server/intent-action";
import { type DB, type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { cachedUntilWrite, writeCache } from "~/.server/data-cache";
import { type KeysetOrder, countMatches, keysetList, keysetPage, pageUntilWrite } from "~/.server/pagination";
import { addDaysInClinic, startOfIsoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { RECEIVABLE_STATUS_LABELS, type ReceivableStatus } from "~/lib/enums";
import { PAGE_SIZE, type ListParams } from "~/lib/list-params";
import { hrefWithParams } from "~/lib/url";
import {
  type PaidFilters,
  RECEIVABLE_MESSAGES,
  REMOVABLE_STATUSES,
  REOPENABLE_STATUSES,
  type ReceivableFilters,
  canMoveReceivable,
} from "~/lib/receivables";
import { appealSchema, glosaSchema, paymentSchema, reopenSchema } from "~/validation/receivable";
import { SURGERY_SEARCH } from "./surgery.server";
import { planWordSearch, wordSearchLocate, wordSearchPage, wordSearchSlice } from "./word-search.server";

/**
 * The receivable's life on a surgery (docs/decisions/0019-receivables-glosas-and-tiss.md): its
 * entry when concluded, the allowed moves, 'reabrir', removal, and the lists and sums of
 * /financeiro/*. Every change is one transaction, logged in `receivable_moves` and the audit trail.
 */

/** A refused move or removal; the screen shows it, the API answers 400 `{ error }`. */
export class ReceivableError extends DomainError {}

// ---------------------------------------------------------------------------- who sees what

/**
 * Which receivables a user sees: admins and staff all of them; a doctor only the surgeries they
 * performed (their doctor record, linked to their account); any other account none.
 */
export type ReceivableScope = { doctorId: number | null } | "all";

export function receivableScope(user: SessionUser): ReceivableScope {
  if (user.role === "admin" || user.role === "staff") return "all";
  const row = db.select({ id: doctors.id }).from(doctors).where(eq(doctors.userId, user.id)).get();
  return { doctorId: row?.id ?? null };
}

function scopeWhere(scope: ReceivableScope): SQL | undefined {
  if (scope === "all") return undefined;
  return scope.doctorId ? eq(surgeries.doctorId, scope.doctorId) : sql`0`;
}

// ---------------------------------------------------------------------------- entering the receivables

function isConcluded(row: { currentStage: string; status: string }) {
  return row.currentStage === "concluido" || row.status === "completed";
}

function logMove(
  tx: Tx,
  entry: {
    surgeryId: number;
    kind: (typeof receivableMoves.$inferInsert)["kind"];
    from: ReceivableStatus | null;
    to: ReceivableStatus | null;
    userId: number | null;
    reason?: string | null;
    amountCents?: number | null;
    now: Date;
  },
) {
  tx.insert(receivableMoves)
    .values({
      surgeryId: entry.surgeryId,
      kind: entry.kind,
      fromStatus: entry.from,
      toStatus: entry.to,
      movedBy: entry.userId,
      reason: entry.reason ?? null,
      amountCents: entry.amountCents ?? null,
      createdAt: entry.now,
      updatedAt: entry.now,
    })
    .run();
}

/**
 * Called inside the transaction of every write that can conclude a surgery (the pipeline's move,
 * the surgery form): a surgery that has just become concluded (stage Concluído or status
 * completed), dated today or earlier, becomes receivable as 'realizado'; one that stops being
 * concluded before anything was billed leaves the receivables again. Both are logged.
 */
export function syncReceivableOnConclusion(tx: Tx, surgeryId: number, userId: number | null, wasConcluded: boolean, now = new Date()) {
  const row = tx
    .select({
      currentStage: surgeries.currentStage,
      status: surgeries.status,
      scheduledDate: surgeries.scheduledDate,
      receivableStatus: surgeries.receivableStatus,
    })
    .from(surgeries)
    .where(eq(surgeries.id, surgeryId))
    .get();
  if (!row) return;
  const concluded = isConcluded(row) && row.scheduledDate.getTime() <= now.getTime();
  if (concluded && !wasConcluded && row.receivableStatus === null) {
    tx.update(surgeries).set({ receivableStatus: "realizado" }).where(eq(surgeries.id, surgeryId)).run();
    logMove(tx, { surgeryId, kind: "concluded", from: null, to: "realizado", userId, now });
  } else if (!isConcluded(row) && wasConcluded && row.receivableStatus === "realizado") {
    tx.update(surgeries).set({ receivableStatus: null }).where(eq(surgeries.id, surgeryId)).run();
    logMove(tx, { surgeryId, kind: "remove", from: "realizado", to: null, userId, reason: "A cirurgia saiu de Concluído", now });
  }
}

/** Whether a surgery row counts as concluded, for callers to pass as `wasConcluded`. */
export { isConcluded as isSurgeryConcluded };

// ---------------------------------------------------------------------------- lists

const receivableFields = {
  id: surgeries.id,
  cursorKey: surgeries.scheduledDate,
  patientId: surgeries.patientId,
  patientName: patients.name,
  doctorName: doctors.name,
  surgeryType: surgeries.surgeryType,
  scheduledDate: surgeries.scheduledDate,
  payerId: surgeries.payerId,
  payerName: sql<string | null>`coalesce(${payers.name}, ${surgeries.payerName})`,
  guideNumber: surgeries.guideNumber,
  billedAmountCents: surgeries.billedAmountCents,
  status: surgeries.receivableStatus,
  billedAt: surgeries.billedAt,
  paidAt: surgeries.paidAt,
  paidCents: sql<number>`coalesce((select sum(${receivablePayments.amountCents}) from ${receivablePayments} where ${receivablePayments.surgeryId} = ${surgeries.id}), 0)`,
  glosaCents: sql<number>`coalesce((select sum(${receivableGlosas.deniedCents} - ${receivableGlosas.recoveredCents}) from ${receivableGlosas} where ${receivableGlosas.surgeryId} = ${surgeries.id}), 0)`,
};

export interface ReceivableQuery {
  q: string;
  status: ReceivableStatus | null;
  payerId: number | null;
}

/**
 * The receivables a query's filters keep (its search is planned apart: `receivableSearch`).
 * `receivable_status is not null` is spelt out: the list's partial indexes need it.
 */
function receivableWhere(query: Omit<ReceivableQuery, "q">, scope: ReceivableScope): SQL | undefined {
  return and(
    query.status ? eq(surgeries.receivableStatus, query.status) : isNotNull(surgeries.receivableStatus),
    query.payerId ? eq(surgeries.payerId, query.payerId) : undefined,
    scopeWhere(scope),
  );
}

/**
 * A query's receivables, found as the surgeries list finds a search (./word-search.server.ts), the
 * filters tested with it; where testing each receivable from the latest took 45-145 ms on a first
 * view. Its count, with or without a search, is kept until the next write.
 */
function receivableSearch(query: ReceivableQuery, scope: ReceivableScope) {
  return planWordSearch(SURGERY_SEARCH, query.q, receivableWhere(query, scope));
}

function selectReceivables(where: SQL | undefined, orderBy: SQL[], limit: number, offset: number) {
  return db
    .select(receivableFields)
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .innerJoin(doctors, eq(doctors.id, surgeries.doctorId))
    .leftJoin(payers, eq(payers.id, surgeries.payerId))
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset)
    .all();
}

/** One page of /financeiro/cirurgias-receber (keyset pages by date, totals capped: ADR 0009). */
export function listReceivables(state: ListParams<"scheduledDate">, filters: ReceivableFilters, scope: ReceivableScope) {
  return pageUntilWrite("receivables", [state, filters, scope], () => readReceivables(state, filters, scope));
}

function readReceivables(state: ListParams<"scheduledDate">, filters: ReceivableFilters, scope: ReceivableScope) {
  const order: KeysetOrder = { key: SURGERY_SEARCH.order, id: surgeries.id, dir: state.dir };
  const search = receivableSearch({ q: state.q, status: filters.status, payerId: filters.payerId }, scope);
  const page = keysetPage(
    state,
    order,
    (position, orderBy, limit, offset, ahead, cursor) => {
      const source = wordSearchPage(SURGERY_SEARCH, search, order, { position, cursor, ahead, limit, offset });
      return selectReceivables(source.where, orderBy, limit, source.offset);
    },
    search.totalCapped ? null : search.total,
    wordSearchLocate(SURGERY_SEARCH, search, order),
  );
  return { ...page, total: search.total, totalCapped: search.totalCapped, pageSize: PAGE_SIZE };
}

/** Most items one API call returns; `offset` pages further. */
export const API_ITEMS_LIMIT = 500;

/** GET /api/financeiro/cirurgias-a-receber: the same query, `limit` items from `offset`, newest first. */
export function receivableItems(query: ReceivableQuery, scope: ReceivableScope, limit: number, offset: number) {
  const search = receivableSearch(query, scope);
  const source = wordSearchSlice(SURGERY_SEARCH, search, limit, offset);
  if (!source) return [];
  return selectReceivables(source.where, [desc(surgeries.scheduledDate), desc(surgeries.id)], limit, source.offset).map(toItem);
}

type ReceivableRow = Omit<ReturnType<typeof selectReceivables>[number], "cursorKey">;

/** The API's item: snake_case, cents as integers, instants as ISO 8601. */
function toItem(row: ReceivableRow) {
  return {
    id: row.id,
    patient_name: row.patientName,
    doctor_name: row.doctorName,
    surgery_type: row.surgeryType,
    scheduled_date: row.scheduledDate.toISOString(),
    payer_id: row.payerId,
    payer_name: row.payerName,
    guide_number: row.guideNumber,
    billed_amount_cents: row.billedAmountCents,
    status: row.status,
    billed_at: row.billedAt?.toISOString() ?? null,
    paid_ts: row.paidAt?.toISOString() ?? null,
    paid_amount_cents: row.paidCents,
    glosa_cents: row.glosaCents,
  };
}

/** GET /api/financeiro/resumo and the screen's cards: how many surgeries are 'realizado' and 'faturado'. */
export function receivableSummary(scope: ReceivableScope) {
  return cachedUntilWrite(`receivable-summary:${JSON.stringify(scope)}`, () => computeReceivableSummary(scope));
}

function computeReceivableSummary(scope: ReceivableScope) {
  const rows = db
    .select({ status: surgeries.receivableStatus, n: count() })
    .from(surgeries)
    .where(and(inArray(surgeries.receivableStatus, ["realizado", "faturado"]), scopeWhere(scope)))
    .groupBy(surgeries.receivableStatus)
    .all();
  const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
  return { realizadas: of("realizado"), faturadas: of("faturado") };
}

// ---------------------------------------------------------------------------- paid

/** Surgeries paid in [from, to] (calendar days in the clinic's zone, both inclusive), by payer. */
export function paidWhere(filters: PaidFilters, scope: ReceivableScope): SQL | undefined {
  const from = filters.from ? startOfIsoDateInClinic(filters.from) : null;
  const to = filters.to ? startOfIsoDateInClinic(filters.to) : null;
  return and(
    eq(surgeries.receivableStatus, "pago"),
    filters.payerId ? eq(surgeries.payerId, filters.payerId) : undefined,
    from ? gte(surgeries.paidAt, from) : isNotNull(surgeries.paidAt),
    to ? lt(surgeries.paidAt, addDaysInClinic(to, 1)) : undefined,
    scopeWhere(scope),
  );
}

/** The paid list's rows: the receivables' query, ordered and paged by the day paid. */
function selectPaid(where: SQL | undefined, orderBy: SQL[], limit: number, offset: number) {
  return selectReceivables(where, orderBy, limit, offset).map((row) => ({ ...row, cursorKey: row.paidAt }));
}

/**
 * The paid list's totals (the count and 'Valor faturado'), the same on every view and page until a
 * write: kept by filter and scope, in a store of their own (dates are typed).
 */
const paidTotalsUntilWrite = writeCache(32);

export function listPaid(state: ListParams<"paidAt">, filters: PaidFilters, scope: ReceivableScope) {
  return pageUntilWrite("paid", [state, filters, scope], () => readPaid(state, filters, scope));
}

function readPaid(state: ListParams<"paidAt">, filters: PaidFilters, scope: ReceivableScope) {
  const where = paidWhere(filters, scope);
  const order: KeysetOrder = { key: surgeries.paidAt, id: surgeries.id, dir: state.dir };
  const { counted, billedTotalCents } = paidTotalsUntilWrite(JSON.stringify(["paid", filters, scope]), () => ({
    counted: countMatches(surgeries, where),
    billedTotalCents: paidBilledCents(where),
  }));
  return { ...keysetList(surgeries, where, state, order, selectPaid, counted), billedTotalCents };
}

/** The billed amount of every paid surgery of `where` (`paidWhere`; all of them, not only the counted ones), from the paid indexes alone. */
export function paidBilledCents(where: SQL | undefined): number {
  return Number(db.select({ billed: sum(surgeries.billedAmountCents) }).from(surgeries).where(where).get()?.billed ?? 0);
}

export function paidItems(filters: PaidFilters, scope: ReceivableScope, limit: number, offset: number) {
  return selectPaid(paidWhere(filters, scope), [desc(surgeries.paidAt), desc(surgeries.id)], limit, offset).map(toItem);
}

// ---------------------------------------------------------------------------- one receivable

export function getReceivable(id: number, scope: ReceivableScope = "all") {
  const [row] = selectReceivables(and(eq(surgeries.id, id), isNotNull(surgeries.receivableStatus), scopeWhere(scope)), [], 1, 0);
  if (!row) return null;
  const { cursorKey: _key, ...rest } = row;
  return rest;
}

/** A receivable's history, oldest first, with who made each move. */
export function receivableHistory(surgeryId: number, limit = 200) {
  return db
    .select({
      id: receivableMoves.id,
      kind: receivableMoves.kind,
      fromStatus: receivableMoves.fromStatus,
      toStatus: receivableMoves.toStatus,
      amountCents: receivableMoves.amountCents,
      reason: receivableMoves.reason,
      movedByName: profiles.name,
      createdAt: receivableMoves.createdAt,
    })
    .from(receivableMoves)
    .leftJoin(profiles, eq(profiles.id, receivableMoves.movedBy))
    .where(eq(receivableMoves.surgeryId, surgeryId))
    .orderBy(asc(receivableMoves.createdAt), asc(receivableMoves.id))
    .limit(limit)
    .all();
}

/** A surgery's fee lines (the fee engine's), for the glosa form's per-line amounts. */
export function feeLinesOf(surgeryId: number, conn: DB | Tx = db) {
  return conn
    .select({
      id: surgeryFeeLines.id,
      role: surgeryFeeLines.role,
      doctorName: doctors.name,
      amountCents: surgeryFeeLines.amountCents,
    })
    .from(surgeryFeeLines)
    .innerJoin(doctors, eq(doctors.id, surgeryFeeLines.doctorId))
    .where(eq(surgeryFeeLines.surgeryId, surgeryId))
    .orderBy(asc(surgeryFeeLines.id))
    .limit(100)
    .all();
}

// ---------------------------------------------------------------------------- moves

export interface GlosaInput {
  tissCode: string;
  reason: string;
  /** Denied cents per fee line; or `deniedCents` for the whole when the surgery has no fee lines. */
  lines?: { feeLineId: number; deniedCents: number }[];
  deniedCents?: number;
}

export interface PaymentInput {
  /** ISO YYYY-MM-DD; today when omitted. */
  paidOn?: string;
  /** Cents received; what is still owed when omitted. */
  amountCents?: number;
  /** When less than owed arrives: the glosa that explains the difference (required then). */
  glosa?: Omit<GlosaInput, "lines" | "deniedCents">;
}

export interface MoveDetails {
  glosa?: GlosaInput;
  payment?: PaymentInput;
}

function lockReceivable(tx: Tx, id: number) {
  const row = tx
    .select({
      id: surgeries.id,
      status: surgeries.receivableStatus,
      billedAmountCents: surgeries.billedAmountCents,
      billedAt: surgeries.billedAt,
      paidAt: surgeries.paidAt,
    })
    .from(surgeries)
    .where(eq(surgeries.id, id))
    .get();
  if (!row || row.status === null) throw new ReceivableError("Recebível não encontrado.");
  return row as typeof row & { status: ReceivableStatus };
}

function paidSoFar(tx: Tx, surgeryId: number) {
  return Number(tx.select({ n: sum(receivablePayments.amountCents) }).from(receivablePayments).where(eq(receivablePayments.surgeryId, surgeryId)).get()?.n ?? 0);
}

function openGlosaCents(tx: Tx, surgeryId: number) {
  return Number(
    tx
      .select({ n: sql<number>`sum(${receivableGlosas.deniedCents} - ${receivableGlosas.recoveredCents})` })
      .from(receivableGlosas)
      .where(and(eq(receivableGlosas.surgeryId, surgeryId), sql`${receivableGlosas.appealOutcome} is null`))
      .get()?.n ?? 0,
  );
}

function feeLinesTotal(tx: Tx, surgeryId: number) {
  return Number(tx.select({ n: sum(surgeryFeeLines.amountCents) }).from(surgeryFeeLines).where(eq(surgeryFeeLines.surgeryId, surgeryId)).get()?.n ?? 0);
}

const TISS_CODE = /^\d{4}$/;

function recordGlosa(tx: Tx, userId: number, surgeryId: number, input: GlosaInput, billedCents: number, now: Date): number {
  if (!TISS_CODE.test(input.tissCode ?? "")) throw new ReceivableError("Informe o código TISS da glosa (4 dígitos).");
  const reason = (input.reason ?? "").trim();
  if (!reason) throw new ReceivableError("Informe o motivo da glosa.");
  const feeLines = feeLinesOf(surgeryId, tx);
  const lines: { feeLineId: number | null; description: string; deniedCents: number }[] = [];
  if (input.lines?.length) {
    for (const line of input.lines) {
      const fee = feeLines.find((f) => f.id === line.feeLineId);
      if (!fee) throw new ReceivableError("Uma das linhas de honorários não pertence a esta cirurgia.");
      if (!Number.isSafeInteger(line.deniedCents) || line.deniedCents < 0) throw new ReceivableError("Valor glosado inválido.");
      if (line.deniedCents > fee.amountCents) {
        throw new ReceivableError(`O valor glosado de ${fee.doctorName} passa do valor da linha de honorários.`);
      }
      if (line.deniedCents > 0) lines.push({ feeLineId: fee.id, description: `${fee.role} · ${fee.doctorName}`, deniedCents: line.deniedCents });
    }
  } else if (input.deniedCents !== undefined) {
    if (!Number.isSafeInteger(input.deniedCents) || input.deniedCents <= 0) throw new ReceivableError("Informe o valor glosado.");
    lines.push({ feeLineId: null, description: "Valor total da guia", deniedCents: input.deniedCents });
  }
  const denied = lines.reduce((total, line) => total + line.deniedCents, 0);
  if (denied <= 0) throw new ReceivableError("Informe o valor glosado.");
  if (billedCents > 0 && denied > billedCents) throw new ReceivableError("O valor glosado passa do valor faturado.");
  const glosa = tx
    .insert(receivableGlosas)
    .values({ surgeryId, tissCode: input.tissCode, reason, deniedCents: denied, createdBy: userId, createdAt: now, updatedAt: now })
    .returning({ id: receivableGlosas.id })
    .get();
  for (const line of lines) tx.insert(receivableGlosaLines).values({ glosaId: glosa.id, ...line }).run();
  return denied;
}

/**
 * Moves a receivable along SPEC §4 (only RECEIVABLE_MOVES; anything else is refused):
 * - faturado: the billing day is now; the billed amount is the surgery's, else its fee lines' total;
 * - glosa: the denied amount per fee line (or in total) with the TISS code and text;
 * - pago: a payment (day and amount, by default today and all that is owed). Less than owed opens
 *   a glosa for the difference (its code and text are then required) and the status is 'glosa';
 *   from 'glosa' the payment is what the appeal recovered, and what it did not is lost.
 * One transaction: the status, the amounts, the history row and the audit entry, or nothing.
 */
export function moveReceivable(userId: number, id: number, to: ReceivableStatus, details: MoveDetails = {}, now = new Date()): ReceivableStatus {
  return db.transaction((tx) => moveReceivableIn(tx, userId, id, to, details, now));
}

/**
 * The move itself, inside a transaction the caller holds: a fee statement's import applies all its
 * lines through it in one transaction (`source` ties the payments and the history to the import).
 */
export function moveReceivableIn(
  tx: Tx,
  userId: number,
  id: number,
  to: ReceivableStatus,
  details: MoveDetails,
  now: Date,
  source: { importId: number } | null = null,
): ReceivableStatus {
  const before = lockReceivable(tx, id);
  if (!canMoveReceivable(before.status, to)) {
    throw new ReceivableError(
      `Não é possível mudar de ${RECEIVABLE_STATUS_LABELS[before.status]} para ${RECEIVABLE_STATUS_LABELS[to] ?? to}.`,
    );
  }
  const changes: Record<string, unknown> = { receivableStatus: [before.status, to] };
  let finalStatus: ReceivableStatus = to;
  let amountCents: number | null = null;
  let reason: string | null = null;

  if (to === "faturado") {
    const billed = before.billedAmountCents ?? feeLinesTotal(tx, id);
    if (!billed) throw new ReceivableError("Informe o valor faturado da cirurgia (ou calcule seus honorários) antes de faturar.");
    tx.update(surgeries).set({ receivableStatus: "faturado", billedAt: now, billedAmountCents: billed }).where(eq(surgeries.id, id)).run();
    changes.billedAt = [before.billedAt, now];
    amountCents = billed;
  } else if (to === "pendente") {
    tx.update(surgeries).set({ receivableStatus: "pendente" }).where(eq(surgeries.id, id)).run();
  } else if (to === "glosa") {
    if (!details.glosa) throw new ReceivableError("Informe o código TISS, o motivo e o valor da glosa.");
    amountCents = recordGlosa(tx, userId, id, details.glosa, before.billedAmountCents ?? 0, now);
    reason = `${details.glosa.tissCode} — ${details.glosa.reason.trim()}`;
    tx.update(surgeries).set({ receivableStatus: "glosa" }).where(eq(surgeries.id, id)).run();
  } else if (to === "pago") {
    const payment = details.payment ?? {};
    const paidOn = payment.paidOn ?? todayIsoInClinic(now);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(paidOn) || !startOfIsoDateInClinic(paidOn)) throw new ReceivableError("Data de pagamento inválida.");
    if (paidOn > todayIsoInClinic(now)) throw new ReceivableError("A data de pagamento não pode estar no futuro.");
    const billed = before.billedAmountCents ?? 0;
    const glosaOpen = before.status === "glosa" ? openGlosaCents(tx, id) : 0;
    const owed = before.status === "glosa" ? glosaOpen : Math.max(billed - paidSoFar(tx, id), 0);
    const amount = payment.amountCents ?? owed;
    if (!Number.isSafeInteger(amount) || amount < 0) throw new ReceivableError("Valor pago inválido.");
    if (amount > owed) throw new ReceivableError("O valor pago passa do valor em aberto.");
    if (amount === 0 && before.status !== "glosa") throw new ReceivableError("Informe o valor pago.");
    let glosaId: number | null = null;
    if (before.status === "glosa") {
      glosaId = settleGlosas(tx, id, amount, now);
    }
    if (amount > 0) {
      tx.insert(receivablePayments)
        .values({ surgeryId: id, paidOn, amountCents: amount, glosaId, importId: source?.importId ?? null, createdBy: userId, createdAt: now, updatedAt: now })
        .run();
    }
    amountCents = amount;
    const paidAt = startOfIsoDateInClinic(paidOn)!;
    if (before.status !== "glosa" && amount < owed) {
      // Less than owed: the difference is a glosa, and the receivable waits for the appeal.
      if (!payment.glosa) throw new ReceivableError("O valor pago é menor que o devido: informe o código TISS e o motivo da glosa da diferença.");
      recordGlosa(tx, userId, id, { ...payment.glosa, deniedCents: owed - amount }, billed, now);
      finalStatus = "glosa";
      reason = `Pagamento parcial; glosa ${payment.glosa.tissCode} — ${payment.glosa.reason.trim()}`;
    }
    tx.update(surgeries).set({ receivableStatus: finalStatus, paidAt }).where(eq(surgeries.id, id)).run();
    changes.paidAt = [before.paidAt, paidAt];
    changes.receivableStatus = [before.status, finalStatus];
  }
  logMove(tx, { surgeryId: id, kind: source ? "import" : "move", from: before.status, to: finalStatus, userId, amountCents, reason, now });
  if (source) changes.importId = source.importId;
  recordAudit(tx, { userId, action: "update", entity: "receivable", entityId: id, changes });
  return finalStatus;
}

/**
 * Glosa → pago: what an appeal recovered is spread over the open glosas, oldest first; each gets
 * its outcome (all recovered: deferido; part: parcial; nothing: indeferido). Returns the first
 * glosa the payment is tied to.
 */
function settleGlosas(tx: Tx, surgeryId: number, recovered: number, now: Date): number | null {
  const open = tx
    .select({ id: receivableGlosas.id, denied: receivableGlosas.deniedCents, recovered: receivableGlosas.recoveredCents })
    .from(receivableGlosas)
    .where(and(eq(receivableGlosas.surgeryId, surgeryId), sql`${receivableGlosas.appealOutcome} is null`))
    .orderBy(asc(receivableGlosas.id))
    .all();
  let left = recovered;
  let first: number | null = null;
  for (const glosa of open) {
    const room = glosa.denied - glosa.recovered;
    const take = Math.min(room, left);
    left -= take;
    const total = glosa.recovered + take;
    const outcome = total === glosa.denied ? "deferido" : total > 0 ? "parcial" : "indeferido";
    tx.update(receivableGlosas).set({ recoveredCents: total, appealOutcome: outcome, updatedAt: now }).where(eq(receivableGlosas.id, glosa.id)).run();
    if (take > 0 && first === null) first = glosa.id;
  }
  return first;
}

/** An admin's 'reabrir': a billing made by mistake (faturado or pendente) goes back to 'realizado', with its reason. */
export function reopenReceivable(userId: number, id: number, reason: string, now = new Date()) {
  const why = reason.trim();
  if (why.length < 5) throw new ReceivableError("Explique por que o faturamento está sendo desfeito.");
  db.transaction((tx) => {
    const before = lockReceivable(tx, id);
    if (!(REOPENABLE_STATUSES as readonly string[]).includes(before.status)) {
      throw new ReceivableError("Só é possível reabrir um recebível faturado ou pendente, sem pagamento nem glosa registrados.");
    }
    tx.update(surgeries).set({ receivableStatus: "realizado", billedAt: null }).where(eq(surgeries.id, id)).run();
    logMove(tx, { surgeryId: id, kind: "reopen", from: before.status, to: "realizado", userId, reason: why, now });
    recordAudit(tx, { userId, action: "update", entity: "receivable", entityId: id, changes: { receivableStatus: [before.status, "realizado"], billedAt: [before.billedAt, null], reason: why } });
  });
}

export function receivableRemoveBlock(status: ReceivableStatus | null): string | null {
  if (status && (REMOVABLE_STATUSES as readonly string[]).includes(status)) return null;
  return "Um recebível com pagamento ou glosa registrados não pode ser excluído: ele faz parte do histórico financeiro.";
}

/**
 * 'Excluir' on Cirurgias a receber: the surgery leaves the receivables (it will not be billed). The
 * surgery, its patient, fee lines and history stay; the removal is logged and the surgery comes
 * back as 'realizado' only if it is concluded again. Refused once money or a glosa is recorded.
 */
export function removeReceivable(userId: number, id: number, now = new Date()) {
  db.transaction((tx) => {
    const before = lockReceivable(tx, id);
    const refusal = receivableRemoveBlock(before.status);
    if (refusal) throw new ReceivableError(refusal);
    tx.update(surgeries).set({ receivableStatus: null, billedAt: null }).where(eq(surgeries.id, id)).run();
    logMove(tx, { surgeryId: id, kind: "remove", from: before.status, to: null, userId, reason: "Excluído de Cirurgias a receber", now });
    recordAudit(tx, { userId, action: "update", entity: "receivable", entityId: id, changes: { receivableStatus: [before.status, null] } });
  });
}

// ---------------------------------------------------------------------------- glosas and payments

/** A receivable's glosas (with their per-line amounts) and payments, for its dialog. */
export function receivableMoney(surgeryId: number) {
  const glosas = db
    .select({
      id: receivableGlosas.id,
      tissCode: receivableGlosas.tissCode,
      reason: receivableGlosas.reason,
      deniedCents: receivableGlosas.deniedCents,
      recoveredCents: receivableGlosas.recoveredCents,
      appealJustification: receivableGlosas.appealJustification,
      appealSentOn: receivableGlosas.appealSentOn,
      appealOutcome: receivableGlosas.appealOutcome,
      createdAt: receivableGlosas.createdAt,
    })
    .from(receivableGlosas)
    .where(eq(receivableGlosas.surgeryId, surgeryId))
    .orderBy(asc(receivableGlosas.id))
    .limit(100)
    .all();
  const lines = glosas.length
    ? db
        .select({ glosaId: receivableGlosaLines.glosaId, description: receivableGlosaLines.description, deniedCents: receivableGlosaLines.deniedCents })
        .from(receivableGlosaLines)
        .where(inArray(receivableGlosaLines.glosaId, glosas.map((g) => g.id)))
        .orderBy(asc(receivableGlosaLines.id))
        .limit(1000)
        .all()
    : [];
  const payments = db
    .select({ id: receivablePayments.id, paidOn: receivablePayments.paidOn, amountCents: receivablePayments.amountCents, glosaId: receivablePayments.glosaId })
    .from(receivablePayments)
    .where(eq(receivablePayments.surgeryId, surgeryId))
    .orderBy(asc(receivablePayments.paidOn), asc(receivablePayments.id))
    .limit(500)
    .all();
  const withLines = glosas.map((glosa) => ({
    ...glosa,
    lines: lines.filter((line) => line.glosaId === glosa.id),
    /** Lost once the appeal's outcome is known; until then nothing is counted as lost. */
    lostCents: glosa.appealOutcome ? glosa.deniedCents - glosa.recoveredCents : 0,
  }));
  const paidCents = payments.reduce((total, p) => total + p.amountCents, 0);
  return {
    glosas: withLines,
    payments,
    paidCents,
    recoveredCents: withLines.reduce((total, g) => total + g.recoveredCents, 0),
    lostCents: withLines.reduce((total, g) => total + g.lostCents, 0),
    openGlosaCents: withLines.filter((g) => !g.appealOutcome).reduce((total, g) => total + g.deniedCents - g.recoveredCents, 0),
  };
}

/** The appeal (recurso) of a glosa still open: its justification and the day it was sent. */
export function recordAppeal(userId: number, surgeryId: number, input: { glosaId: number; justification: string; sentOn: string }, now = new Date()) {
  if (input.sentOn > todayIsoInClinic(now)) throw new ReceivableError("A data de envio do recurso não pode estar no futuro.");
  db.transaction((tx) => {
    const glosa = tx
      .select({ id: receivableGlosas.id, outcome: receivableGlosas.appealOutcome })
      .from(receivableGlosas)
      .where(and(eq(receivableGlosas.id, input.glosaId), eq(receivableGlosas.surgeryId, surgeryId)))
      .get();
    if (!glosa) throw new ReceivableError("Glosa não encontrada.");
    if (glosa.outcome) throw new ReceivableError("Esta glosa já tem o resultado do recurso.");
    tx.update(receivableGlosas)
      .set({ appealJustification: input.justification, appealSentOn: input.sentOn, updatedAt: now })
      .where(eq(receivableGlosas.id, glosa.id))
      .run();
    recordAudit(tx, { userId, action: "update", entity: "receivable_glosa", entityId: glosa.id, changes: { appealSentOn: input.sentOn } });
  });
}

/**
 * The /financeiro/cirurgias-receber action's intents: each status change, the appeal and the
 * removal; those made from a receivable's details return to them (`back` is the list's URL).
 */
export function receivableIntents(back: string): Record<string, Intent> {
  const viewBack = ({ id }: { id: number }) => hrefWithParams(back, { view: id });
  return {
    bill: intent({
      permission: ["receivables", "edit"],
      record: true,
      run: ({ user, id }) => moveReceivable(user.id, id, "faturado"),
      success: RECEIVABLE_MESSAGES.billed,
      failure: "Erro ao atualizar status",
    }),
    pending: intent({
      permission: ["receivables", "edit"],
      record: true,
      run: ({ user, id }) => moveReceivable(user.id, id, "pendente"),
      success: RECEIVABLE_MESSAGES.moved,
      failure: "Erro ao atualizar status",
      back: viewBack,
    }),
    glosa: intent({
      permission: ["receivables", "edit"],
      schema: glosaSchema,
      record: true,
      run: ({ user, id, input }) =>
        moveReceivable(user.id, id, "glosa", {
          glosa: {
            tissCode: input.tissCode,
            reason: input.reason,
            lines: input.feeLine.length ? input.feeLine.map((feeLineId, i) => ({ feeLineId, deniedCents: input.denied[i] ?? 0 })) : undefined,
            deniedCents: input.feeLine.length ? undefined : (input.deniedTotal ?? undefined),
          },
        }),
      success: "Glosa registrada",
      failure: "Erro ao atualizar status",
      back: viewBack,
    }),
    pay: intent({
      permission: ["receivables", "edit"],
      schema: paymentSchema,
      record: true,
      run: ({ user, id, input }) =>
        moveReceivable(user.id, id, "pago", {
          payment: {
            paidOn: input.paidOn,
            amountCents: input.amount ?? undefined,
            glosa: input.tissCode ? { tissCode: input.tissCode, reason: input.glosaReason ?? "" } : undefined,
          },
        }),
      success: "Pagamento registrado",
      failure: "Erro ao atualizar status",
      back: viewBack,
    }),
    appeal: intent({
      permission: ["receivables", "edit"],
      schema: appealSchema,
      record: true,
      run: ({ user, id, input }) => recordAppeal(user.id, id, input),
      success: "Recurso registrado",
      failure: "Erro ao salvar recurso",
      back: viewBack,
    }),
    reopen: intent({
      permission: ["receivables", "edit"],
      schema: reopenSchema,
      record: true,
      run: ({ user, id, input }) => reopenReceivable(user.id, id, input.reason),
      success: RECEIVABLE_MESSAGES.reopened,
      failure: "Erro ao atualizar status",
      back: viewBack,
    }),
    delete: intent({
      permission: ["receivables", "delete"],
      record: true,
      run: ({ user, id }) => removeReceivable(user.id, id),
      success: RECEIVABLE_MESSAGES.deleted,
      failure: "Falha ao excluir",
    }),
  };
}
