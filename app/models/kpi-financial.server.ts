/**
 * KPIs Financeiros (/kpis/financeiros, admin only: the route guards with `requireFinanceAccess`):
 * the clinic's money for a period. The formula of each figure is written beside it and shown to
 * the user.
 *
 * Read from maintained aggregates, never from full scans (docs/decisions/0024-kpi-aggregates-surgical-financial.md):
 * the ledger's sums per type and the surgeries' payment and glosa sums per payer are kept by
 * triggers in kpi_rollups per year and month, and in kpi_surgery_facts per surgery for a period's
 * loose days (app/models/kpi-rollups.server.ts); the receivables ageing, relative to its day, reads
 * the open receivables' covering index. tests/unit/kpi-aggregates-surgical-financial.test.ts compares every figure
 * with the former full recomputation.
 *
 * - Revenue and expenses are the ledger (`financial_transactions`), whose `transaction_date` is a
 *   calendar day compared as text with the period's dates. The ledger has no doctor nor payer, so
 *   the doctor and payer filters do not apply to these three figures.
 * - The receivables' figures are surgeries' fees: the doctor and payer filters apply to them.
 */
import { formatIsoDate, startOfIsoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { prepared } from "~/.server/db";
import { type KpiFigureData, type KpiReport, type KpiTableData, kpiFigure } from "~/lib/kpi";
import { type KpiPeriod, addDaysIso } from "~/lib/kpi-period";
import { type RollupRow, addRows, periodUnits, rollupSums } from "~/models/kpi-rollups.server";
import { type KpiFilters, type ScreenFilters, modelFilters } from "~/models/kpi-surgical.server";
import { kpiPercent } from "~/lib/kpi";

const DAY_MS = 86_400_000;

export const NO_REVENUE = "Sem receita lançada no período";

/** Receivable states still waiting for money: performed, billed, pending or partly denied. */
export const OPEN_RECEIVABLE_STATUSES = ["realizado", "faturado", "pendente", "glosa"] as const;

export const AGEING_BUCKETS = [
  { id: "0-30", label: "0–30 dias", min: 0, max: 30 },
  { id: "31-60", label: "31–60 dias", min: 31, max: 60 },
  { id: "61-90", label: "61–90 dias", min: 61, max: 90 },
  { id: "90+", label: "Mais de 90 dias", min: 91, max: null },
] as const;

export interface AgeingBucket {
  id: (typeof AGEING_BUCKETS)[number]["id"];
  label: string;
  count: number;
  cents: number;
}

export interface PayerPaymentDays {
  payerId: number;
  payer: string;
  paid: number;
  /** Days, one decimal; null without a paid surgery with a billing date. */
  days: number | null;
}

export interface PayerGlosa {
  payerId: number;
  payer: string;
  billedCents: number;
  deniedCents: number;
  recoveredCents: number;
  /** denied ÷ billed × 100, one decimal. */
  glosaRate: number | null;
  /** recovered ÷ denied × 100, one decimal. */
  recoveredShare: number | null;
}

export interface FinancialKpis {
  revenueCents: number;
  expensesCents: number;
  /** round((revenue − expenses) ÷ revenue × 100); null (with `NO_REVENUE`) when revenue is 0. */
  marginPercent: number | null;
  /** The day the receivables are aged at: the period's last day, or today while it runs. */
  ageingOn: string;
  ageing: AgeingBucket[];
  paymentDays: { paid: number; days: number | null; byPayer: PayerPaymentDays[] };
  glosa: {
    billedCents: number;
    deniedCents: number;
    recoveredCents: number;
    glosaRate: number | null;
    recoveredShare: number | null;
    byPayer: PayerGlosa[];
  };
}

/**
 * Receita / Despesas = sum(amount_cents) of the period's transactions of type 'receita' / 'despesa'
 * (transaction_date from the period's first day to its last, inclusive): whole years and months
 * from kpi_rollups 'ledger', the loose days with this statement, read from the
 * (type, transaction_date, id, amount_cents) index alone.
 */
export const FINANCIAL_TOTAL_SQL = `
  select coalesce(sum(amount_cents), 0) as cents
    from financial_transactions
   where type = @type and transaction_date >= @from and transaction_date < @toExclusive`;

/** The doctor and payer filters on surgeries `alias`. */
export function surgeryFilters(filters: KpiFilters, alias = "s"): string {
  return [filters.doctorId ? ` and ${alias}.doctor_id = @doctor` : "", filters.payerId ? ` and ${alias}.payer_id = @payer` : ""].join("");
}

/** The statement parameters of `surgeryFilters`. */
export function filterParams(filters: KpiFilters) {
  return { ...(filters.doctorId ? { doctor: filters.doctorId } : {}), ...(filters.payerId ? { payer: filters.payerId } : {}) };
}

/**
 * Envelhecimento de recebíveis: surgeries whose receivable is still open ('Realizado', 'Faturado',
 * 'Pendente', 'Glosa') and were performed by the ageing day, aged from the day they were billed
 * (`billed_at`), or performed (`scheduled_date`) when not billed yet, to the ageing day (the period's
 * last day, or today while the period runs): whole days, in 0–30, 31–60, 61–90 and more than 90.
 * Count and billed amount per bucket, read from the open receivables' partial covering index
 * (surgeries_open_receivables_idx: a few thousand rows at 100 000 surgeries).
 */
export const FINANCIAL_AGEING_SQL = (filters: KpiFilters) => `
  select ${AGEING_BUCKETS.map(
    (b) =>
      `count(case when age between ${b.min} and ${b.max ?? 2147483647} then 1 end) as "n_${b.id}",
       coalesce(sum(case when age between ${b.min} and ${b.max ?? 2147483647} then cents end), 0) as "c_${b.id}"`,
  ).join(",\n       ")}
    from (
      select cast((@asOf - coalesce(s.billed_at, s.scheduled_date)) / ${DAY_MS} as integer) as age,
             coalesce(s.billed_amount_cents, 0) as cents
        from surgeries s indexed by surgeries_open_receivables_idx
       where s.receivable_status in (${OPEN_RECEIVABLE_STATUSES.map((x) => `'${x}'`).join(", ")})
         and s.scheduled_date < @asOf${surgeryFilters(filters)}
    )`;

/**
 * Prazo médio de pagamento = avg(paid_at − billed_at) in seconds ÷ 86400, per payer, over the
 * surgeries paid in the period (receivable 'Pago', the São Paulo day of paid_at within the period)
 * that had been billed by then. kpi_rollups 'paid' (n, Σ ms per payer) for whole years and months;
 * the loose days from kpi_surgery_facts' paid-day index.
 */
export const FINANCIAL_PAID_DAYS_SQL = (filters: KpiFilters) => `
  select payer_id as k2, count(*) as n, sum(paid_ms) as v1
    from kpi_surgery_facts
   where paid_day between @from and @to${surgeryFilters(filters, "kpi_surgery_facts")}
   group by payer_id`;

/**
 * Taxa de glosa = sum(denied_cents of the glosas) ÷ sum(billed_amount_cents), and Recuperado =
 * sum(recovered_cents) ÷ sum(denied_cents), per payer, over the surgeries of the period (scheduled
 * in it) that were billed (a billed amount) to a payer. kpi_rollups 'glosa' (n, Σ billed, denied,
 * recovered per payer) for whole years and months; the loose days from kpi_surgery_facts' day index.
 */
export const FINANCIAL_GLOSA_DAYS_SQL = (filters: KpiFilters) => `
  select payer_id as k2, count(*) as n, sum(billed_cents) as v1, sum(denied_cents) as v2, sum(recovered_cents) as v3
    from kpi_surgery_facts indexed by kpi_surgery_facts_day_idx
   where day between @from and @to and billed_cents is not null${surgeryFilters(filters, "kpi_surgery_facts")}
   group by payer_id`;

/**
 * Σ per payer of a payer-keyed rollup ('paid', 'glosa'; k2 = payer) over the period: whole years and
 * months from kpi_rollups (all doctors or one doctor's), loose days from `daySql`.
 */
function sumsByPayer(metric: "paid" | "glosa", period: KpiPeriod, filters: KpiFilters, daySql: string): RollupRow[] {
  const units = periodUnits(period);
  const sums = addRows(new Map(), rollupSums(metric, { doctorId: filters.doctorId ?? 0, payerId: 0 }, units));
  for (const [from, to] of units.days) addRows(sums, (prepared(daySql).all({ from, to, ...filterParams(filters) }) as RollupRow[]).map((row) => ({ ...row, k1: "" })));
  return [...sums.values()].filter((row) => row.n > 0 && (!filters.payerId || row.k2 === filters.payerId));
}

function payerNames(ids: number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = prepared("select id, name from payers where id in (select value from json_each(@ids))").all({ ids: JSON.stringify(ids) }) as Array<{ id: number; name: string }>;
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * Receita and Despesas of the transactions dated within `period` (inclusive), in cents: whole years
 * and months from kpi_rollups 'ledger', the loose days from the ledger's own index. Also the cash
 * book's totals (/financial), whose whole history is a few dozen rollup rows.
 */
export function ledgerTotals(period: KpiPeriod): Record<"receita" | "despesa", number> {
  const units = periodUnits(period);
  const ledger = new Map(rollupSums("ledger", { doctorId: 0, payerId: 0 }, units).map((row) => [row.k1, row.v1]));
  const total = prepared(FINANCIAL_TOTAL_SQL).pluck();
  const ledgerSum = (type: "receita" | "despesa") =>
    units.days.reduce((sum, [from, to]) => sum + Number(total.get({ type, from, toExclusive: addDaysIso(to, 1) })), Number(ledger.get(type) ?? 0));
  return { receita: ledgerSum("receita"), despesa: ledgerSum("despesa") };
}

export function computeFinancialKpis(period: KpiPeriod, filters: KpiFilters = {}, now: Date = new Date()): FinancialKpis {
  const { receita: revenueCents, despesa: expensesCents } = ledgerTotals(period);
  // Margem de lucro = round((receita − despesas) ÷ receita × 100) (SPEC §9, whole percent); '—' without revenue.
  const marginPercent = kpiPercent(revenueCents - expensesCents, revenueCents, 0);

  const today = todayIsoInClinic(now);
  const ageingOn = period.to < today ? period.to : today;
  // Aged at the end of the ageing day: a receivable billed that day is 0 days old.
  const asOf = startOfIsoDateInClinic(ageingOn)!.getTime() + DAY_MS - 1;
  const ageingRow = prepared(FINANCIAL_AGEING_SQL(filters)).get({ asOf, ...filterParams(filters) }) as Record<string, number>;
  const ageing = ageingFigures(ageingRow);

  const paidRows = sumsByPayer("paid", period, filters, FINANCIAL_PAID_DAYS_SQL(filters));
  const glosaSums = sumsByPayer("glosa", period, filters, FINANCIAL_GLOSA_DAYS_SQL(filters));
  const names = payerNames([...new Set([...paidRows, ...glosaSums].map((row) => row.k2))]);
  const nameOf = (id: number) => names.get(id) ?? `#${id}`;
  const paymentDays = paymentDaysFigures(paidRows.map((row) => ({ payerId: row.k2, payer: nameOf(row.k2), paid: row.n, seconds: row.v1 / 1000 })));
  const glosa = glosaFigures(glosaSums.map((row) => ({ payerId: row.k2, payer: nameOf(row.k2), billed: row.v1, denied: row.v2, recovered: row.v3 })));

  return { revenueCents, expensesCents, marginPercent, ageingOn, ageing, paymentDays, glosa };
}

function sortByPayer<T extends { payer: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => a.payer.localeCompare(b.payer, "pt-BR"));
}

/** The ageing buckets from a row of n_<bucket> counts and c_<bucket> cents. */
export function ageingFigures(row: Record<string, number>): FinancialKpis["ageing"] {
  return AGEING_BUCKETS.map((b) => ({ id: b.id, label: b.label, count: row[`n_${b.id}`] ?? 0, cents: row[`c_${b.id}`] ?? 0 }));
}

const perDays = (seconds: number, n: number) => (n === 0 ? null : Math.round((seconds / n / 86400) * 10) / 10);

/** Prazo médio de pagamento: Σ seconds ÷ paid surgeries ÷ 86400, overall and per payer. */
export function paymentDaysFigures(rows: Array<{ payerId: number; payer: string; paid: number; seconds: number }>): FinancialKpis["paymentDays"] {
  const paid = rows.reduce((sum, row) => sum + row.paid, 0);
  return {
    paid,
    days: perDays(
      rows.reduce((sum, row) => sum + row.seconds, 0),
      paid,
    ),
    byPayer: sortByPayer(rows.map((row) => ({ payerId: row.payerId, payer: row.payer, paid: row.paid, days: perDays(row.seconds, row.paid) }))),
  };
}

/** Taxa de glosa = denied ÷ billed; recuperado = recovered ÷ denied; overall and per payer. */
export function glosaFigures(rows: Array<{ payerId: number; payer: string; billed: number; denied: number; recovered: number }>): FinancialKpis["glosa"] {
  const sum = (key: "billed" | "denied" | "recovered") => rows.reduce((acc, row) => acc + row[key], 0);
  const totals = { billedCents: sum("billed"), deniedCents: sum("denied"), recoveredCents: sum("recovered") };
  return {
    ...totals,
    glosaRate: kpiPercent(totals.deniedCents, totals.billedCents),
    recoveredShare: kpiPercent(totals.recoveredCents, totals.deniedCents),
    byPayer: sortByPayer(
      rows.map((row) => ({
        payerId: row.payerId,
        payer: row.payer,
        billedCents: row.billed,
        deniedCents: row.denied,
        recoveredCents: row.recovered,
        glosaRate: kpiPercent(row.denied, row.billed),
        recoveredShare: kpiPercent(row.recovered, row.denied),
      })),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// The screen's report: the figures of the period beside those of the previous period.

/** What the user reads on hover/focus of each figure: the formulas above, in Portuguese. */
export const FINANCIAL_FORMULAS = {
  revenue: "Soma das receitas lançadas com data no período (Financeiro). Não depende de médico nem de convênio.",
  expenses: "Soma das despesas lançadas com data no período (Financeiro). Não depende de médico nem de convênio.",
  margin: "(Receita − Despesas) ÷ Receita × 100, arredondado.",
  paymentDays:
    "Média, nas cirurgias pagas no período, de (data do pagamento − data do faturamento) em segundos ÷ 86400.",
  glosa: "Valor glosado ÷ valor faturado × 100, nas cirurgias do período (data agendada) que foram faturadas.",
  recovered: "Valor recuperado em recursos ÷ valor glosado × 100, nas mesmas cirurgias.",
  open:
    "Valor faturado das cirurgias com recebível em aberto (Realizado, Faturado, Pendente ou Glosa) no último dia do período (ou hoje, se o período não terminou).",
} as const;

/** The figures and tables of /kpis/financeiros for `period`, compared with `previous`. Admins only. */
export function financialKpis({ period, previous }: { period: KpiPeriod; previous: KpiPeriod }, filters: ScreenFilters, now: Date = new Date()): KpiReport {
  const cur = computeFinancialKpis(period, modelFilters(filters), now);
  const prev = computeFinancialKpis(previous, modelFilters(filters), now);
  const openCents = (k: FinancialKpis) => k.ageing.reduce((sum, b) => sum + b.cents, 0);
  const figures: KpiFigureData[] = [
    kpiFigure({ id: "receita", label: "Receita", unit: "cents", formula: FINANCIAL_FORMULAS.revenue, current: cur.revenueCents, previous: prev.revenueCents }),
    kpiFigure({ id: "despesas", label: "Despesas", unit: "cents", formula: FINANCIAL_FORMULAS.expenses, current: cur.expensesCents, previous: prev.expensesCents }),
    kpiFigure({ id: "margem", label: "Margem de lucro", unit: "percent", formula: FINANCIAL_FORMULAS.margin, current: cur.marginPercent, previous: prev.marginPercent, reason: NO_REVENUE }),
    kpiFigure({
      id: "prazo-pagamento",
      label: "Prazo médio de pagamento",
      unit: "days",
      formula: FINANCIAL_FORMULAS.paymentDays,
      current: cur.paymentDays.days,
      previous: prev.paymentDays.days,
      reason: "Nenhuma cirurgia faturada foi paga no período",
    }),
    kpiFigure({
      id: "glosa",
      label: "Taxa de glosa",
      unit: "percent",
      formula: FINANCIAL_FORMULAS.glosa,
      current: cur.glosa.glosaRate,
      previous: prev.glosa.glosaRate,
      reason: "Nenhuma cirurgia do período foi faturada",
    }),
    kpiFigure({
      id: "recuperado",
      label: "Glosas recuperadas",
      unit: "percent",
      formula: FINANCIAL_FORMULAS.recovered,
      current: cur.glosa.recoveredShare,
      previous: prev.glosa.recoveredShare,
      reason: "Nenhuma glosa nas cirurgias do período",
    }),
    kpiFigure({
      id: "em-aberto",
      label: "Recebíveis em aberto",
      unit: "cents",
      formula: FINANCIAL_FORMULAS.open,
      current: openCents(cur),
      previous: openCents(prev),
      note: `Posição em ${formatIsoDate(cur.ageingOn)}`,
    }),
  ];

  const ageing: KpiTableData = {
    id: "envelhecimento",
    title: `Envelhecimento dos recebíveis em ${formatIsoDate(cur.ageingOn)}`,
    columns: [
      { key: "faixa", header: "Faixa" },
      { key: "valor", header: "Valor", unit: "cents" },
      { key: "cirurgias", header: "Cirurgias", unit: "count" },
    ],
    rows: cur.ageing.map((b) => ({ faixa: b.label, valor: b.cents, cirurgias: b.count })),
  };
  const paymentDays: KpiTableData = {
    id: "prazo-por-convenio",
    title: "Prazo médio de pagamento por convênio",
    columns: [
      { key: "convenio", header: "Convênio" },
      { key: "pagas", header: "Cirurgias pagas", unit: "count" },
      { key: "prazo", header: "Prazo médio", unit: "days" },
    ],
    rows: cur.paymentDays.byPayer.map((row) => ({ convenio: row.payer, pagas: row.paid, prazo: row.days })),
    empty: "Nenhuma cirurgia faturada foi paga no período.",
  };
  const glosas: KpiTableData = {
    id: "glosas-por-convenio",
    title: "Glosas por convênio",
    columns: [
      { key: "convenio", header: "Convênio" },
      { key: "faturado", header: "Faturado", unit: "cents" },
      { key: "glosado", header: "Glosado", unit: "cents" },
      { key: "taxa", header: "Taxa de glosa", unit: "percent" },
      { key: "recuperado", header: "Recuperado", unit: "percent" },
    ],
    rows: cur.glosa.byPayer.map((row) => ({
      convenio: row.payer,
      faturado: row.billedCents,
      glosado: row.deniedCents,
      taxa: row.glosaRate,
      recuperado: row.recoveredShare,
    })),
    empty: "Nenhuma cirurgia do período foi faturada.",
  };
  return { figures, tables: [ageing, paymentDays, glosas] };
}
