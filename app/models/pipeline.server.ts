import { type SQL, and, asc, count, eq, inArray, lt, sql, sum } from "drizzle-orm";
import { clinicHolidays, doctors, patients, pipelineStageTotals, pipelineStages, surgeries } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { type DB, type Tx, db } from "~/.server/db";
import { type VersionedTable, cachedUntilTablesChange } from "~/.server/data-cache";
import { DomainError } from "~/.server/domain-error";
import { sentAsJson } from "~/.server/sent-as-json";
import { type KeysetOrder, keysetPage, locateIn, pageIds } from "~/.server/pagination";
import { ansClockFor } from "~/lib/ans";
import { ansDueOn, ansState } from "~/lib/ans-clock";
import { formatDateTime, formatIsoDate, isoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { PAGE_SIZE, type ListParams } from "~/lib/list-params";
import { type FieldList, keptFor, packRows } from "~/lib/packed-rows";
import type { PipelineFilters } from "~/lib/lists";
import { PIPELINE_STAGE_IDS, type PipelineStage, stageLabel, surgeryStatusForStage } from "~/lib/pipeline";
import { OPME_JUSTIFICATION_MESSAGE, approvalNeedsJustification } from "~/lib/opme";
import type { MoveInput } from "~/validation/pipeline";
import { opmeStateForMove, opmeSupplierCounts } from "./opme.server";
import { instantiateChecklist } from "./stage-checklist.server";
import { isSurgeryConcluded, syncReceivableOnConclusion } from "./receivable.server";
import { listStageHistory } from "./surgery.server";
import { enqueueCalendarPush } from "~/.server/google-calendar-outbox";

/**
 * Cards a column shows on the board; the rest are a 'Ver todas' away (the column's own pages).
 * Ten columns of ten keep the board within the page budget (≤ 250 KB of HTML).
 */
export const COLUMN_CARD_LIMIT = 10;
const DAY_MS = 86_400_000;

/** A move the pipeline refuses (unknown surgery, completion of a surgery still to come …). */
export class PipelineError extends DomainError<keyof MoveInput & string> {}

// ---------------------------------------------------------------------------- holidays

/** The clinic's extra non-business days (Settings), small by nature: read whole. */
export function clinicHolidaySet(conn: DB | Tx = db): ReadonlySet<string> {
  return new Set(conn.select({ day: clinicHolidays.day }).from(clinicHolidays).limit(5000).all().map((row) => row.day));
}

// ---------------------------------------------------------------------------- board

type BoardFilters = Pick<PipelineFilters, "doctorId" | "payerId" | "hospitalId" | "ans">;

/** The stages that can hold an overdue clock: the only columns the 'Atrasadas ANS' filter reads. */
const CLOCK_STAGES = PIPELINE_STAGE_IDS.filter((stage) => ansClockFor(stage) !== null);

function boardWhere(filters: BoardFilters, today: string): SQL | undefined {
  return and(
    filters.doctorId ? eq(surgeries.doctorId, filters.doctorId) : undefined,
    filters.payerId ? eq(surgeries.payerId, filters.payerId) : undefined,
    filters.hospitalId ? eq(surgeries.hospitalId, filters.hospitalId) : undefined,
    filters.ans === "atrasadas" ? lt(surgeries.ansDueOn, today) : undefined,
  );
}

const CARD_FIELDS = {
  id: surgeries.id,
  cursorKey: surgeries.scheduledDate,
  patientName: patients.name,
  doctorName: doctors.name,
  surgeryType: surgeries.surgeryType,
  hospital: surgeries.hospital,
  payerName: surgeries.payerName,
  scheduledDate: surgeries.scheduledDate,
  currentStage: surgeries.currentStage,
  stageChangedAt: surgeries.stageChangedAt,
  createdAt: surgeries.createdAt,
  ansDueOn: surgeries.ansDueOn,
};

type CardRow = ReturnType<ReturnType<typeof cardQuery>["all"]>[number];

/** What a card shows, computed once on the server: days in the stage and the ANS clock. */
function toCard(row: Omit<CardRow, "cursorKey">, now: Date, today: string, holidays: ReadonlySet<string>) {
  const since = row.stageChangedAt ?? row.createdAt;
  const stage = row.currentStage as PipelineStage;
  const ans = ansState(stage, row.ansDueOn, today, holidays);
  return {
    id: row.id,
    patientName: row.patientName,
    doctorName: row.doctorName,
    surgeryType: row.surgeryType,
    hospital: row.hospital,
    payerName: row.payerName,
    scheduledText: formatDateTime(row.scheduledDate),
    stage,
    daysInStage: Math.max(0, Math.floor((now.getTime() - since.getTime()) / DAY_MS)),
    // Null on a card whose stage runs no ANS clock: the board is sent as JSON (`sentAsJson`).
    ans: ans ?? null,
    ansDueText: ans ? formatIsoDate(ans.dueOn) : null,
  };
}

export type PipelineCard = ReturnType<typeof toCard>;

/**
 * The OPME quote count of the cards shown (one indexed read for the visible cards only): a card
 * with an OPME request, or in 'OPME em Cotação', carries how many different suppliers quoted (the
 * others null).
 */
function withOpme<Card extends { id: number; stage: PipelineStage }>(cards: Card[]): Array<Card & { opme: { suppliers: number } | null }> {
  const counts = opmeSupplierCounts(cards.map((card) => card.id));
  return cards.map((card) => {
    const suppliers = counts.get(card.id) ?? (card.stage === "opme_cotacao" ? 0 : undefined);
    return { ...card, opme: suppliers === undefined ? null : { suppliers } };
  });
}

/**
 * Cards with their patient's and doctor's names. The '+' keeps the doctor join from driving the
 * read: for a stage holding most surgeries (Concluído: 89 000 of 100 000 at the scale seed) SQLite's statistics
 * otherwise made it walk every doctor's surgeries in that stage and sort them all, 150–200 ms,
 * instead of reading the stage's first cards in date order from its index (0.1 ms). A doctor
 * filter still seeks its own index through the WHERE clause.
 */
function cardQuery(conn: DB, where: SQL | undefined) {
  return conn
    .select(CARD_FIELDS)
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .innerJoin(doctors, eq(doctors.id, sql`+${surgeries.doctorId}`))
    .where(where);
}

/** Cards and billed total per column: the maintained counters when nothing filters, else one grouped read through an index. */
export function stageTotals(filters: BoardFilters, today: string): Record<PipelineStage, { cards: number; billedCents: number }> {
  const totals = Object.fromEntries(PIPELINE_STAGE_IDS.map((stage) => [stage, { cards: 0, billedCents: 0 }])) as Record<
    PipelineStage,
    { cards: number; billedCents: number }
  >;
  const where = boardWhere(filters, today);
  const rows = where
    ? db
        .select({ stage: surgeries.currentStage, cards: count(), billedCents: sum(surgeries.billedAmountCents).mapWith(Number) })
        .from(surgeries)
        .where(where)
        // Overdue clocks are few: group them after reading them through their own index (the '+'
        // keeps SQLite from walking the stage index over every surgery to save that small sort).
        .groupBy(filters.ans === "atrasadas" ? sql`+${surgeries.currentStage}` : surgeries.currentStage)
        .all()
    : db.select().from(pipelineStageTotals).all();
  for (const row of rows) {
    if (row.stage in totals) totals[row.stage as PipelineStage] = { cards: row.cards, billedCents: row.billedCents ?? 0 };
  }
  return totals;
}

/**
 * The board: per stage, the first COLUMN_CARD_LIMIT cards by scheduled date (then id), with the
 * column's count and billed total. Eleven small indexed reads, whatever the table's size.
 */
export function loadBoard(filters: BoardFilters, now = new Date()) {
  const today = todayIsoInClinic(now);
  const holidays = clinicHolidaySet();
  const totals = stageTotals(filters, today);
  const where = boardWhere(filters, today);
  const stages = filters.ans === "atrasadas" ? CLOCK_STAGES : PIPELINE_STAGE_IDS;
  const shown = PIPELINE_STAGE_IDS.map((stage) => {
    const rows =
      stages.includes(stage) && totals[stage].cards > 0
        ? columnCards(and(eq(surgeries.currentStage, stage), where), filters, [asc(surgeries.scheduledDate), asc(surgeries.id)], COLUMN_CARD_LIMIT)
        : [];
    return {
      stage,
      label: stageLabel(stage),
      cards: rows.map((row) => toCard(row, now, today, holidays)),
      total: stages.includes(stage) ? totals[stage].cards : 0,
      billedCents: stages.includes(stage) ? totals[stage].billedCents : 0,
    };
  });
  const cards = new Map(withOpme(shown.flatMap((column) => column.cards)).map((card) => [card.id, card]));
  const columns = shown.map((column) => ({ ...column, cards: column.cards.map((card) => cards.get(card.id)!) }));
  return { columns };
}

/**
 * The board as `loadBoard` reads it, kept until a table it reads is written (`BOARD_TABLES`,
 * app/.server/data-cache.ts) and for at most the rest of the minute: days in a stage and the ANS
 * clocks count from the time it was read. Every view of the board between moves is then a lookup;
 * callers share the value and must not change it.
 */
export function boardUntilWrite(filters: BoardFilters, now = new Date()) {
  return keptThisMinute("pipeline-board", [], filters, now, () => loadBoard(filters, now));
}

type BoardCardRow = ReturnType<typeof loadBoard>["columns"][number]["cards"][number];

/** Every field of a board's card, as the browser receives them (`packRows`). */
const BOARD_CARD_FIELDS = {
  id: true,
  patientName: true,
  doctorName: true,
  surgeryType: true,
  hospital: true,
  payerName: true,
  scheduledText: true,
  stage: true,
  daysInStage: true,
  ans: true,
  ansDueText: true,
  opme: true,
} satisfies FieldList<BoardCardRow>;

const packedBoards = new WeakMap<object, ReturnType<typeof packBoard>>();

function packBoard(board: ReturnType<typeof loadBoard>) {
  return { columns: board.columns.map(({ cards, ...column }) => ({ ...column, cards: packRows(cards, BOARD_CARD_FIELDS) })) };
}

/**
 * The board as the page sends it (`boardUntilWrite`), each column's cards as rows of values
 * (app/lib/packed-rows.ts): packed once per kept board, so every view between writes hands the
 * page the same value, sent as JSON text made once (`sentAsJson`).
 */
export function boardForPage(filters: BoardFilters, now = new Date()) {
  const board = boardUntilWrite(filters, now);
  return keptFor(packedBoards, board, () => sentAsJson(packBoard(board)));
}

/**
 * A column's page as `loadColumn` reads it, kept like the board (`boardUntilWrite`): until a table
 * it reads is written and for at most the rest of the minute.
 */
export function columnUntilWrite(stage: PipelineStage, state: ListParams<"scheduledDate">, filters: BoardFilters, now = new Date()) {
  const page = [state.page, state.after ?? null, state.before ?? null];
  return keptThisMinute("pipeline-column", [stage, page], filters, now, () => loadColumn(stage, state, filters, now));
}

/**
 * Every table the board and a column read: the cards (surgeries, with their maintained per-stage
 * totals), their patients' and doctors' names, the clinic's holidays the ANS clocks count and the
 * OPME quotes a card shows. An appointment, a task or a payment written meanwhile leaves them.
 */
const BOARD_TABLES = ["surgeries", "patients", "doctors", "clinic_holidays", "opme_requests", "opme_quotes"] as const satisfies readonly VersionedTable[];

/** `compute()` kept until a board's table is written and the end of `now`'s minute, under `kind`, `values` and the board's filters. */
function keptThisMinute<T>(kind: string, values: unknown[], filters: BoardFilters, now: Date, compute: () => T): T {
  const minute = Math.floor(now.getTime() / 60_000);
  const key = `${kind}:${minute}:${JSON.stringify([...values, filters.doctorId, filters.payerId, filters.hospitalId, filters.ans])}`;
  return cachedUntilTablesChange(BOARD_TABLES, key, compute);
}

/**
 * The index holding a column's cards in date order under the board's filters (one doctor, payer or
 * hospital, else the stage's); none for overdue ANS clocks, few enough to be found by their own.
 */
function columnIndex(filters: BoardFilters): string | undefined {
  if (filters.ans) return undefined;
  if (filters.doctorId) return "surgeries_doctor_stage_date_idx";
  if (filters.payerId) return "surgeries_payer_stage_date_idx";
  if (filters.hospitalId) return "surgeries_hospital_stage_date_idx";
  return "surgeries_stage_date_idx";
}

/**
 * A column's cards under `where` (its stage, the board's filters, a page's position) in `orderBy`:
 * their ids read from the surgeries alone through the index that holds the column in date order
 * (`columnIndex`, `pageIds`), then those cards with their names. Left to the planner with the
 * joins, a page past a cursor in 'Concluído' skip-scanned the hospitals' index and sorted every card
 * past it (260 ms against 0.2), and other statistics can lead the first page the same way.
 */
function columnCards(where: SQL | undefined, filters: BoardFilters, orderBy: SQL[], limit: number, offset = 0) {
  const ids = pageIds(surgeries, surgeries.id, where, orderBy, { limit, offset, index: columnIndex(filters) });
  return ids.length ? cardQuery(db, inArray(surgeries.id, ids)).orderBy(...orderBy).all() : [];
}

/** One column opened on its own: keyset pages of PAGE_SIZE cards in date order. */
export function loadColumn(stage: PipelineStage, state: ListParams<"scheduledDate">, filters: BoardFilters, now = new Date()) {
  const today = todayIsoInClinic(now);
  const holidays = clinicHolidaySet();
  const totals = stageTotals(filters, today)[stage];
  const where = and(eq(surgeries.currentStage, stage), boardWhere(filters, today));
  const order: KeysetOrder = { key: surgeries.scheduledDate, id: surgeries.id, dir: "asc" };
  const page = keysetPage(
    state,
    order,
    (position, orderBy, limit, offset) => columnCards(and(where, position), filters, orderBy, limit, offset),
    totals.cards,
    locateIn(surgeries, where, order),
  );
  return {
    ...page,
    rows: withOpme(page.rows.map((row) => toCard(row, now, today, holidays))),
    total: totals.cards,
    totalCapped: false,
    billedCents: totals.billedCents,
    pageSize: PAGE_SIZE,
  };
}

// ---------------------------------------------------------------------------- moves

/**
 * The ANS columns after a stage change: a move to 'Enviado Pré-aut' (re)starts both clocks; every
 * stage change recomputes the last day of the clock that applies in the new stage.
 */
export function ansColumnsFor(
  to: PipelineStage,
  requestedAt: Date | null,
  now: Date,
  holidays: ReadonlySet<string>,
): { ansRequestedAt: Date | null; ansDueOn: string | null } {
  const ansRequestedAt = to === "enviado_pre_aut" ? now : requestedAt;
  return { ansRequestedAt, ansDueOn: ansDueOn(to, ansRequestedAt ? isoDateInClinic(ansRequestedAt) : null, holidays) };
}

/**
 * Moves a card: sets the stage, the status that goes with it (ADR 0004), the ANS clock and, for
 * 'Negado', the denial reason, and logs the move (from, to, who, when) — one transaction. The
 * `from` is the stage the card is in when the move commits, not the one the person saw: when two
 * people move the same card at once, the later move wins and the log holds both, chained.
 * Returns false when the card was already in that stage (nothing written).
 */
export function moveSurgery(userId: number, id: number, input: MoveInput, now = new Date()): boolean {
  return db.transaction((tx) => {
    const before = tx
      .select({
        id: surgeries.id,
        currentStage: surgeries.currentStage,
        status: surgeries.status,
        scheduledDate: surgeries.scheduledDate,
        ansRequestedAt: surgeries.ansRequestedAt,
        ansDueOn: surgeries.ansDueOn,
        denialReason: surgeries.denialReason,
        denialAppeal: surgeries.denialAppeal,
      })
      .from(surgeries)
      .where(eq(surgeries.id, id))
      .get();
    if (!before) throw new PipelineError("Cirurgia não encontrada. Ela pode ter sido excluída.");
    const to = input.to;
    if (before.currentStage === to) return false;
    if (to === "concluido") {
      const day = isoDateInClinic(before.scheduledDate);
      if (day && day > todayIsoInClinic(now)) {
        throw new PipelineError("Uma cirurgia com data futura não pode ser movida para Concluído.", "to");
      }
    }
    // Issue 8: approval with fewer than three OPME suppliers quoting needs a justification (logged as the move's note).
    const justification = to === "aprovado" ? (input.justification ?? null) : null;
    if (to === "aprovado" && !justification && approvalNeedsJustification(opmeStateForMove(tx, id, before.currentStage))) {
      throw new PipelineError(OPME_JUSTIFICATION_MESSAGE, "justification");
    }
    const denial =
      to === "negado" ? { denialReason: input.denialReason, denialAppeal: input.denialAppeal } : {};
    const after = {
      currentStage: to,
      status: surgeryStatusForStage(to),
      ...ansColumnsFor(to, before.ansRequestedAt, now, clinicHolidaySet(tx)),
      ...denial,
    };
    tx.update(surgeries).set(after).where(eq(surgeries.id, id)).run();
    // A surgery just concluded becomes receivable ('realizado'), in this same transaction (ADR 0019).
    syncReceivableOnConclusion(tx, id, userId, isSurgeryConcluded(before), now);
    const note = to === "negado" ? `${input.denialReason}${input.denialAppeal ? " (a clínica vai recorrer)" : ""}` : justification;
    tx.insert(pipelineStages)
      .values({ surgeryId: id, stage: to, fromStage: before.currentStage, movedBy: userId, note, createdAt: now, updatedAt: now })
      .run();
    // Issue 9: the stage's checklist becomes a task with subtasks, once per surgery and stage.
    instantiateChecklist(tx, userId, id, to);
    const changes: Record<string, [unknown, unknown]> = {};
    for (const [key, value] of Object.entries(after)) {
      const old = before[key as keyof typeof before];
      const same = old instanceof Date && value instanceof Date ? old.getTime() === value.getTime() : old === value;
      if (!same) changes[key] = [old, value];
    }
    recordAudit(tx, { userId, action: "update", entity: "surgery", entityId: id, changes });
    // Cancelled or re-opened: its Google Calendar event goes or comes back.
    if (changes.status) enqueueCalendarPush(tx, "surgery", id);
    return true;
  });
}

// ---------------------------------------------------------------------------- history

/** Most moves a history shows (a surgery that moved more than this is shown with its latest). */
export const HISTORY_LIMIT = 200;

/**
 * A surgery's moves, oldest first, with who made them and how long the card stayed in each stage
 * (until the next move, or until now for the current one).
 */
export function stageHistory(surgeryId: number, now = new Date()) {
  const latest = listStageHistory(surgeryId, HISTORY_LIMIT + 1);
  const truncated = latest.length > HISTORY_LIMIT;
  const moves = latest.slice(0, HISTORY_LIMIT).reverse();
  return {
    truncated,
    moves: moves.map((move, i) => {
      const until = moves[i + 1]?.createdAt ?? now;
      return { ...move, current: i === moves.length - 1, durationMs: Math.max(0, until.getTime() - move.createdAt.getTime()) };
    }),
  };
}

/** Total time spent in each stage over the whole (shown) history, in board order. */
export function timePerStage(moves: ReturnType<typeof stageHistory>["moves"]) {
  const byStage = new Map<string, number>();
  for (const move of moves) byStage.set(move.stage, (byStage.get(move.stage) ?? 0) + move.durationMs);
  return PIPELINE_STAGE_IDS.filter((stage) => byStage.has(stage)).map((stage) => ({ stage, durationMs: byStage.get(stage)! }));
}
