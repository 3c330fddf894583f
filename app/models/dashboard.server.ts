/**
 * The figures of the /dashboard screen (SPEC §2 /dashboard), every one computed from the
 * database with SQL aggregates over index ranges, or read from counters the database keeps
 * (row_counts, pipeline_stage_totals): no rows are loaded into JS and no big table is scanned.
 *
 * The earlier prototype showed fixed numbers (95.2 %, 12.5 dias, 4.8/5.0, 92.5 %, trends of
 * 12/5/8 %, a status distribution all at 0). They are gone: a figure is either computed here
 * or shown as '—' with a hint saying why there is no data.
 *
 * "This month" and "last month" are calendar months in São Paulo time (`monthRangeInClinic`),
 * whatever the server's TZ. Instants (created_at, start_time, scheduled_date) are epoch
 * milliseconds compared against the month's [start, end) instants; `transaction_date` is an
 * ISO 'YYYY-MM-DD' calendar day compared as text against the São Paulo dates of those bounds.
 * `now` is a parameter so tests can pin the clock.
 */
import { and, count, eq, getTableName, gte, lt, lte, ne, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { appointments, financialTransactions, patients, pipelineStageTotals, surgeries } from "~db/schema";
import { cachedUntilWrite } from "~/.server/data-cache";
import { tableCount } from "~/.server/pagination";
import { db } from "~/.server/db";
import { type InstantRange, addDaysInClinic, isoDateInClinic, monthRangeInClinic } from "~/lib/dates";
import { PIPELINE_STAGES, type PipelineStage } from "~/lib/pipeline";

/** A month-over-month comparison. `percent` is null when last month had nothing to compare with. */
export interface MonthTrend {
  thisMonth: number;
  lastMonth: number;
  /** (thisMonth − lastMonth) / lastMonth × 100, one decimal; null when lastMonth is 0. */
  percent: number | null;
}

/** A share of a whole. `percent` is null when the whole is empty (no data, not 0 %). */
export interface Ratio {
  part: number;
  whole: number;
  /** part / whole × 100, one decimal; null when whole is 0. */
  percent: number | null;
}

export interface StageCount {
  stage: PipelineStage;
  label: string;
  count: number;
}

export interface DashboardStats {
  /** The São Paulo month the monthly figures refer to, as 'YYYY-MM-DD' of its first day. */
  monthStart: string;
  patients: { total: number; trend: MonthTrend };
  appointments: { total: number; trend: MonthTrend };
  surgeries: { total: number; trend: MonthTrend };
  /** Only computed for users who may see financial data; null otherwise. */
  revenue: { monthCents: number; trend: MonthTrend } | null;
  successRate: Ratio;
  averageWait: { days: number | null; appointments: number; windowDays: number };
  billingRate: Ratio;
  /** All ten pipeline stages in board order, zeros included. */
  stageDistribution: StageCount[];
}

/** Window of the average-wait figure, in São Paulo calendar days back from now. */
export const AVERAGE_WAIT_WINDOW_DAYS = 90;

/** Pipeline stages a surgery ends in: it will not move on (success rate denominator). */
export const FINISHED_STAGES = ["concluido", "negado", "cancelado"] as const satisfies readonly PipelineStage[];

/** Receivable states that mean the surgery has been billed to the payer (a guia was sent). */
export const BILLED_RECEIVABLE_STATUSES = ["faturado", "glosa", "pago"] as const;

const MS_PER_DAY = 86_400_000;

function roundOne(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * Trend = (this month − last month) / last month × 100, rounded to one decimal.
 * With nothing last month there is no base to compare with: null (the screen shows a hint),
 * never a division by zero nor an invented +100 %.
 */
export function monthTrend(thisMonth: number, lastMonth: number): MonthTrend {
  const percent = lastMonth === 0 ? null : roundOne(((thisMonth - lastMonth) / lastMonth) * 100);
  return { thisMonth, lastMonth, percent };
}

/** part / whole × 100, rounded to one decimal; null when whole is 0. */
export function ratio(part: number, whole: number): Ratio {
  return { part, whole, percent: whole === 0 ? null : roundOne((part / whole) * 100) };
}

/**
 * A row count with this-month and last-month counts of `column` falling in those months. The
 * total is the table's maintained counter (row_counts); the months are one range of the column's
 * index, so no figure reads more than two months of entries.
 */
function totalWithTrend(
  table: typeof patients | typeof appointments | typeof surgeries,
  column: AnySQLiteColumn,
  thisMonth: InstantRange,
  lastMonth: InstantRange,
) {
  const row = db
    .select({
      thisMonth: sql<number>`count(case when ${column} >= ${thisMonth.start.getTime()} then 1 end)`,
      lastMonth: sql<number>`count(case when ${column} < ${thisMonth.start.getTime()} then 1 end)`,
    })
    .from(table)
    .where(and(gte(column, lastMonth.start), lt(column, thisMonth.end)))
    .get()!;
  // `_.name` types the name; getTableName reads it (drizzle's `_` exists for the type only).
  return { total: tableCount(getTableName(table) as typeof table._.name), trend: monthTrend(Number(row.thisMonth), Number(row.lastMonth)) };
}

/**
 * The dashboard's figures as of the current minute, recomputed only when the data has changed
 * since (any write, by any connection) or the minute has turned: between writes a view costs a
 * lookup instead of eight aggregates over the big tables.
 */
export function getCachedDashboardStats({ includeRevenue, now = new Date() }: { includeRevenue: boolean; now?: Date }): DashboardStats {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  return cachedUntilWrite(`dashboard:${includeRevenue}:${minute.getTime()}`, () => getDashboardStats({ now: minute, includeRevenue }));
}

export function getDashboardStats({ now = new Date(), includeRevenue }: { now?: Date; includeRevenue: boolean }): DashboardStats {
  const thisMonth = monthRangeInClinic(now);
  const lastMonth = monthRangeInClinic(now, -1);

  // Total Pacientes = count(patients). Trend: patients registered (created_at) this month vs last month.
  const patientStats = totalWithTrend(patients, patients.createdAt, thisMonth, lastMonth);

  // Consultas = count(appointments), every status. Trend: appointments starting (start_time) this month vs last.
  const appointmentStats = totalWithTrend(appointments, appointments.startTime, thisMonth, lastMonth);

  // Cirurgias = count(surgeries), every stage. Trend: surgeries scheduled (scheduled_date) this month vs last.
  const surgeryStats = totalWithTrend(surgeries, surgeries.scheduledDate, thisMonth, lastMonth);
  const totals = stageTotals();

  return {
    monthStart: isoDateInClinic(thisMonth.start)!,
    patients: patientStats,
    appointments: appointmentStats,
    surgeries: surgeryStats,
    revenue: includeRevenue ? monthlyRevenue(thisMonth, lastMonth) : null,
    successRate: surgerySuccessRate(totals),
    averageWait: averageWait(now),
    billingRate: billingRate(totals),
    stageDistribution: stageDistribution(totals),
  };
}

/**
 * Receita Mensal = sum(amount_cents) of transactions of type 'receita' whose transaction_date
 * falls in the current São Paulo month (first day inclusive, first day of next month
 * exclusive; ISO dates compare correctly as text). Trend: the same sum for last month.
 */
function monthlyRevenue(thisMonth: InstantRange, lastMonth: InstantRange) {
  const thisFrom = isoDateInClinic(thisMonth.start)!;
  const thisTo = isoDateInClinic(thisMonth.end)!;
  const lastFrom = isoDateInClinic(lastMonth.start)!;
  const date = financialTransactions.transactionDate;
  const amount = financialTransactions.amountCents;
  const row = db
    .select({
      thisMonth: sql<number>`coalesce(sum(case when ${date} >= ${thisFrom} then ${amount} end), 0)`,
      lastMonth: sql<number>`coalesce(sum(case when ${date} < ${thisFrom} then ${amount} end), 0)`,
    })
    .from(financialTransactions)
    .where(and(eq(financialTransactions.type, "receita"), gte(date, lastFrom), lt(date, thisTo)))
    .get()!;
  const monthCents = Number(row.thisMonth);
  return { monthCents, trend: monthTrend(monthCents, Number(row.lastMonth)) };
}

/**
 * Taxa de Sucesso = surgeries whose current_stage is 'concluido' ÷ surgeries in a finished
 * stage ('concluido', 'negado', 'cancelado'); surgeries still moving through the pipeline are
 * not counted either way. One decimal; null (shown as '—') when no surgery has finished.
 * Read from the board's per-stage totals (pipeline_stage_totals, kept by triggers).
 */
function surgerySuccessRate(totals: StageTotals): Ratio {
  const finished = FINISHED_STAGES.reduce((sum, stage) => sum + totals.cards(stage), 0);
  return ratio(totals.cards("concluido"), finished);
}

/**
 * Tempo Médio de Espera = average of (start_time − created_at) in days, i.e. from booking to
 * the appointment, over appointments that are not cancelled and start in the last 90 days
 * (now − 90 São Paulo calendar days ≤ start_time ≤ now). Appointments recorded after they
 * started (created_at > start_time: entered retroactively or imported) have no booking wait
 * and are left out rather than counted as negative or zero waits. One decimal; null without data.
 */
function averageWait(now: Date) {
  const from = addDaysInClinic(now, -AVERAGE_WAIT_WINDOW_DAYS);
  const row = db
    .select({
      n: count(),
      avgMs: sql<number | null>`avg(${appointments.startTime} - ${appointments.createdAt})`,
    })
    .from(appointments)
    .where(
      and(
        ne(appointments.status, "cancelled"),
        gte(appointments.startTime, from),
        lte(appointments.startTime, now),
        lte(appointments.createdAt, appointments.startTime),
      ),
    )
    .get()!;
  const days = row.n === 0 || row.avgMs === null ? null : roundOne(Number(row.avgMs) / MS_PER_DAY);
  return { days, appointments: row.n, windowDays: AVERAGE_WAIT_WINDOW_DAYS };
}

/**
 * Taxa de Cobrança = performed surgeries (current_stage 'concluido') that have been billed
 * (receivable_status 'faturado', 'glosa' or 'pago', or a billed_at date) ÷ performed surgeries.
 * One decimal; null (shown as '—') when no surgery has been performed. Both counts are kept per
 * stage by triggers (pipeline_stage_totals.cards and billed_cards, migration 0025).
 */
function billingRate(totals: StageTotals): Ratio {
  return ratio(totals.billedCards("concluido"), totals.cards("concluido"));
}

/**
 * Status distribution = count(surgeries) group by current_stage, returned for all ten stages
 * of the pipeline in board order (a stage with no surgery is 0).
 */
function stageDistribution(totals: StageTotals): StageCount[] {
  return PIPELINE_STAGES.map(({ id, label }) => ({ stage: id, label, count: totals.cards(id) }));
}

interface StageTotals {
  cards: (stage: PipelineStage) => number;
  billedCards: (stage: PipelineStage) => number;
}

/** The ten rows of pipeline_stage_totals (surgeries and billed surgeries per stage). */
function stageTotals(): StageTotals {
  const rows = new Map(db.select().from(pipelineStageTotals).all().map((row) => [row.stage, row]));
  return { cards: (stage) => rows.get(stage)?.cards ?? 0, billedCards: (stage) => rows.get(stage)?.billedCards ?? 0 };
}
