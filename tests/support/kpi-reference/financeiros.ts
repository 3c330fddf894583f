/**
 * REFERENCE IMPLEMENTATION for the tests (not app code): the figures of KPIs Financeiros recomputed
 * from the raw tables (financial_transactions, surgeries, receivable_glosas) on every call, as the
 * screen did before the maintained aggregates (docs/decisions/0024-kpi-aggregates-surgical-financial.md).
 * tests/unit/kpi-aggregates-surgical-financial.test.ts compares the app's figures with these. The
 * buckets, statuses and percent rounding are the model's own (imported).
 */
import { startOfIsoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { sqlite } from "~/.server/db";
import { type KpiPeriod, dateTextRange, instantRange } from "~/lib/kpi-period";
import {
  FINANCIAL_AGEING_SQL,
  FINANCIAL_TOTAL_SQL,
  type FinancialKpis,
  ageingFigures,
  filterParams,
  glosaFigures,
  paymentDaysFigures,
} from "~/models/kpi-financial.server";
import { type KpiFilters } from "~/models/kpi-surgical.server";
import { kpiPercent } from "~/lib/kpi";

const FIN_DAY_MS = 86_400_000;

// Ageing has no maintained aggregate: the reference reads the open receivables with the model's own
// query (FINANCIAL_AGEING_SQL), as the screen does.

/**
 * Prazo médio de pagamento = avg(paid_at − billed_at) in seconds ÷ 86400, per payer, over the
 * surgeries paid in the period (receivable 'Pago', paid_at within the period) that had been billed.
 * Payers are walked in id order (`cross join` keeps that order, so grouping needs no sort) and each
 * one's paid surgeries sought by (receivable_status, payer_id, paid_at).
 */
const FINANCIAL_PAYMENT_DAYS_SQL = (filters: KpiFilters) => `
  select p.id as payer_id, p.name as payer,
         count(*) as paid,
         sum((s.paid_at - s.billed_at) / 1000.0) as seconds
    from payers p
    cross join surgeries s on s.receivable_status = 'pago' and s.payer_id = p.id
                    and s.paid_at >= @start and s.paid_at < @end
   where s.billed_at is not null and s.paid_at >= s.billed_at${filters.payerId ? " and p.id = @payer" : ""}${filters.doctorId ? " and s.doctor_id = @doctor" : ""}
   group by p.id`;

/**
 * Taxa de glosa = sum(denied_cents of the glosas) ÷ sum(billed_amount_cents), and Recuperado =
 * sum(recovered_cents) ÷ sum(denied_cents), per payer, over the surgeries of the period (scheduled
 * in it) that were billed (a billed amount). Payers are walked in id order (`cross join`), each one's
 * surgeries sought by (payer_id, scheduled_date, …, billed_amount_cents) and each surgery's glosas
 * by surgery_id.
 */
const FINANCIAL_GLOSA_SQL = (filters: KpiFilters) => `
  select p.id as payer_id, p.name as payer,
         sum(s.billed_amount_cents) as billed,
         sum((select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id)) as denied,
         sum((select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)) as recovered
    from payers p
    cross join surgeries s on s.payer_id = p.id and s.scheduled_date >= @start and s.scheduled_date < @end
   where s.billed_amount_cents > 0${filters.payerId ? " and p.id = @payer" : ""}${filters.doctorId ? " and s.doctor_id = @doctor" : ""}
   group by p.id`;

export function referenceFinancialKpis(period: KpiPeriod, filters: KpiFilters = {}, now: Date = new Date()): FinancialKpis {
  const [from, toExclusive] = dateTextRange(period);
  const total = sqlite.prepare(FINANCIAL_TOTAL_SQL).pluck();
  const revenueCents = Number(total.get({ type: "receita", from, toExclusive }));
  const expensesCents = Number(total.get({ type: "despesa", from, toExclusive }));
  // Margem de lucro = round((receita − despesas) ÷ receita × 100) (SPEC §9, whole percent); '—' without revenue.
  const marginPercent = kpiPercent(revenueCents - expensesCents, revenueCents, 0);

  const today = todayIsoInClinic(now);
  const ageingOn = period.to < today ? period.to : today;
  // Aged at the end of the ageing day: a receivable billed that day is 0 days old.
  const asOf = startOfIsoDateInClinic(ageingOn)!.getTime() + FIN_DAY_MS - 1;
  const ageingRow = sqlite.prepare(FINANCIAL_AGEING_SQL(filters)).get({ asOf, ...filterParams(filters) }) as Record<string, number>;
  const ageing = ageingFigures(ageingRow);

  const [start, end] = instantRange(period);
  const range = { start, end, ...filterParams(filters) };

  const paidRows = sqlite.prepare(FINANCIAL_PAYMENT_DAYS_SQL(filters)).all(range) as Array<{ payer_id: number; payer: string; paid: number; seconds: number }>;
  const paymentDays = paymentDaysFigures(paidRows.map((row) => ({ payerId: row.payer_id, payer: row.payer, paid: row.paid, seconds: row.seconds })));

  const glosaRows = sqlite.prepare(FINANCIAL_GLOSA_SQL(filters)).all(range) as Array<{ payer_id: number; payer: string; billed: number; denied: number; recovered: number }>;
  const glosa = glosaFigures(glosaRows.map((row) => ({ payerId: row.payer_id, payer: row.payer, billed: row.billed, denied: row.denied, recovered: row.recovered })));

  return { revenueCents, expensesCents, marginPercent, ageingOn, ageing, paymentDays, glosa };
}
