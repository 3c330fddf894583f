/**
 * KPIs OPME (/kpis/opme): the OPME quotations of the period's surgeries (those scheduled in it,
 * optionally one doctor's or one payer's). The formula of each figure is written beside it and
 * shown to the user.
 *
 * Each request's quote facts (quotes, complete quotes, highest complete total, chosen quote's
 * supplier, total and completeness) live in kpi_opme_requests beside its surgery's São Paulo day,
 * doctor, payer and procedure, kept by triggers, and are summed per year and month in kpi_rollups
 * (docs/decisions/0024-kpi-aggregates-surgical-financial.md): a view reads tens of rollup rows and
 * the loose days' facts, never a quote. tests/unit/kpi-aggregates-surgical-financial.test.ts
 * compares every figure with the former computation from the surgeries and their quotes
 * (tests/support/kpi-reference/opme.ts).
 *
 * A quote's total = Σ over the request's items of (the quote's unit price × the item's quantity);
 * a quote that leaves an item unpriced is incomplete and is not compared (it cannot be the highest
 * nor be chosen with a meaningful saving).
 */
import { prepared } from "~/.server/db";
import { type KpiFigureData, type KpiReport, type KpiTableData, kpiFigure, unavailableFigure } from "~/lib/kpi";
import type { KpiPeriod } from "~/lib/kpi-period";
import { type PeriodUnits, type RollupRow, addRows, periodUnits, rollupSums } from "~/models/kpi-rollups.server";
import { type KpiFilters, type ScreenFilters, modelFilters } from "~/models/kpi-surgical.server";
import { kpiPercent } from "~/lib/kpi";

/** Why suppliers' lead times are '—': the quotes record how long prices hold, not when goods arrive. */
export const LEAD_TIME_UNAVAILABLE = "As cotações não registram data de pedido nem de entrega, só a validade do preço";

export interface OpmeKpis {
  requests: number;
  quotes: number;
  /** quotes ÷ requests, one decimal; null without a request. */
  quotesPerRequest: number | null;
  chosen: number;
  /** Σ chosen quotes' totals. */
  spendCents: number;
  bySupplier: Array<{ supplierId: number; supplier: string; requests: number; cents: number }>;
  byProcedure: Array<{ procedure: string; requests: number; cents: number }>;
  /** Requests with a chosen quote and at least two complete quotes. */
  compared: number;
  /** Σ (highest complete quote − chosen quote) over the compared requests. */
  savingsCents: number;
  /** savings ÷ Σ highest quotes × 100, one decimal. */
  savingsPercent: number | null;
  /** Always null: no lead-time data exists (`LEAD_TIME_UNAVAILABLE`). */
  leadTimeDays: null;
}

/**
 * The loose days' sums of kpi_opme_requests (params @from, @to and the filters' @doctor / @payer),
 * per procedure (k1) and chosen supplier (k2, 0 without a choice) — n requests, v1 quotes, v2 Σ the
 * chosen quotes' totals — and of the compared requests (v3 their count, highest and savings in
 * the extra columns). A range of the covering index of the filters.
 */
export const OPME_DAY_SUMS_SQL = (filters: KpiFilters) => `
  select procedure as k1, coalesce(chosen_supplier_id, 0) as k2, count(*) as n, sum(quotes) as v1,
         coalesce(sum(chosen_cents), 0) as v2, sum(${COMPARED}) as v3,
         coalesce(sum(case when ${COMPARED} then highest_cents end), 0) as highest,
         coalesce(sum(case when ${COMPARED} then highest_cents - chosen_cents end), 0) as savings
    from kpi_opme_requests
   where ${[filters.doctorId ? "doctor_id = @doctor" : null, filters.payerId ? "payer_id = @payer" : null, "day between @from and @to"].filter(Boolean).join(" and ")}
   group by procedure, coalesce(chosen_supplier_id, 0)`;

/** A request whose chosen quote is complete and that had at least two complete quotes to compare. */
const COMPARED = "(chosen_complete = 1 and complete_quotes >= 2)";

/**
 * The period's figures from the requests' quote facts (kpi_opme_requests, kept by triggers on every
 * write to the requests, items, quotes and prices: docs/decisions/0024-kpi-aggregates-surgical-financial.md):
 * whole years and months from kpi_rollups ('opme' per procedure and chosen supplier, 'opme_saving'),
 * loose days — and any period with both filters — from the facts' day indexes.
 */
export function computeOpmeKpis(period: KpiPeriod, filters: KpiFilters = {}): OpmeKpis {
  const both = Boolean(filters.doctorId && filters.payerId);
  const units: PeriodUnits = both ? { years: null, months: [], days: [[period.from, period.to]] } : periodUnits(period);
  const scope = { doctorId: filters.doctorId ?? 0, payerId: filters.payerId ?? 0 };
  const sums = new Map<string, RollupRow>();
  const saving = { n: 0, highest: 0, savings: 0 };
  if (!both) {
    addRows(sums, rollupSums("opme", scope, units));
    for (const row of rollupSums("opme_saving", scope, units)) {
      saving.n += row.n;
      saving.highest += row.v1;
      saving.savings += row.v2;
    }
  }
  const statement = prepared(OPME_DAY_SUMS_SQL(filters));
  for (const [from, to] of units.days) {
    const rows = statement.all({ from, to, ...(filters.doctorId ? { doctor: filters.doctorId } : {}), ...(filters.payerId ? { payer: filters.payerId } : {}) }) as Array<
      RollupRow & { highest: number; savings: number }
    >;
    addRows(sums, rows.map(({ k1, k2, n, v1, v2 }) => ({ k1, k2, n, v1, v2, v3: 0 })));
    for (const row of rows) {
      saving.n += row.v3;
      saving.highest += row.highest;
      saving.savings += row.savings;
    }
  }

  // Cotações por pedido = count(quotes) ÷ count(requests), one decimal.
  const rows = [...sums.values()].filter((row) => row.n !== 0);
  const requests = rows.reduce((sum, row) => sum + row.n, 0);
  const quotes = rows.reduce((sum, row) => sum + row.v1, 0);
  const quotesPerRequest = requests === 0 ? null : Math.round((quotes / requests) * 10) / 10;

  // Gasto = Σ the chosen quotes' totals, per supplier and per procedure (the surgery's surgery_type).
  const chosenRows = rows.filter((row) => row.k2 !== 0);
  const names = supplierNames(chosenRows.map((row) => row.k2));
  const suppliers = new Map<number, { supplierId: number; supplier: string; requests: number; cents: number }>();
  const procedures = new Map<string, { procedure: string; requests: number; cents: number }>();
  for (const row of chosenRows) {
    const s = suppliers.get(row.k2) ?? { supplierId: row.k2, supplier: names.get(row.k2) ?? `#${row.k2}`, requests: 0, cents: 0 };
    s.requests += row.n;
    s.cents += row.v2;
    suppliers.set(row.k2, s);
    const p = procedures.get(row.k1) ?? { procedure: row.k1, requests: 0, cents: 0 };
    p.requests += row.n;
    p.cents += row.v2;
    procedures.set(row.k1, p);
  }

  // Economia = Σ (highest complete quote − chosen quote) ÷ Σ highest complete quote × 100, over the
  // requests whose chosen quote is complete and that had at least two complete quotes to compare.
  return {
    requests,
    quotes,
    quotesPerRequest,
    chosen: chosenRows.reduce((sum, row) => sum + row.n, 0),
    spendCents: chosenRows.reduce((sum, row) => sum + row.v2, 0),
    bySupplier: [...suppliers.values()].sort((a, b) => b.cents - a.cents || a.supplier.localeCompare(b.supplier, "pt-BR")),
    byProcedure: [...procedures.values()].sort((a, b) => b.cents - a.cents || a.procedure.localeCompare(b.procedure, "pt-BR")),
    compared: saving.n,
    savingsCents: saving.savings,
    savingsPercent: kpiPercent(saving.savings, saving.highest),
    leadTimeDays: null,
  };
}

/** The names of a few suppliers, by primary key. */
function supplierNames(ids: number[]): Map<number, string> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = prepared(`select id, name from suppliers where id in (${unique.map(() => "?").join(", ")})`).all(...unique) as Array<{ id: number; name: string }>;
  return new Map(rows.map((row) => [row.id, row.name]));
}

// ---------------------------------------------------------------------------------------------
// The screen's report: the figures of the period beside those of the previous period.

/** What the user reads on hover/focus of each figure: the formulas above, in Portuguese. */
export const OPME_FORMULAS = {
  requests: "Pedidos de OPME das cirurgias com data agendada no período.",
  quotesPerRequest: "Cotações recebidas ÷ pedidos de OPME do período.",
  spend: "Soma das cotações escolhidas: preço unitário × quantidade de cada item.",
  savings:
    "Soma de (maior cotação completa − cotação escolhida) nos pedidos com pelo menos duas cotações completas e a escolhida completa.",
  savingsPercent: "Economia ÷ soma das maiores cotações completas desses pedidos × 100.",
  leadTime: "Média de dias entre o pedido ao fornecedor e a entrega do material.",
} as const;

/** The figures and tables of /kpis/opme for `period`, compared with `previous`. */
export function opmeKpis({ period, previous }: { period: KpiPeriod; previous: KpiPeriod }, filters: ScreenFilters): KpiReport {
  const cur = computeOpmeKpis(period, modelFilters(filters));
  const prev = computeOpmeKpis(previous, modelFilters(filters));
  const noRequest = "Nenhum pedido de OPME nas cirurgias do período";
  const figures: KpiFigureData[] = [
    kpiFigure({ id: "pedidos", label: "Pedidos de OPME", unit: "count", formula: OPME_FORMULAS.requests, current: cur.requests, previous: prev.requests }),
    kpiFigure({
      id: "cotacoes-por-pedido",
      label: "Cotações por pedido",
      unit: "ratio",
      formula: OPME_FORMULAS.quotesPerRequest,
      current: cur.quotesPerRequest,
      previous: prev.quotesPerRequest,
      reason: noRequest,
    }),
    kpiFigure({ id: "gasto", label: "Gasto com OPME", unit: "cents", formula: OPME_FORMULAS.spend, current: cur.spendCents, previous: prev.spendCents }),
    kpiFigure({
      id: "economia",
      label: "Economia na escolha",
      unit: "cents",
      formula: OPME_FORMULAS.savings,
      current: cur.compared === 0 ? null : cur.savingsCents,
      previous: prev.compared === 0 ? null : prev.savingsCents,
      reason: "Nenhum pedido com duas cotações completas e uma escolhida",
    }),
    kpiFigure({
      id: "economia-percentual",
      label: "Economia sobre a maior cotação",
      unit: "percent",
      formula: OPME_FORMULAS.savingsPercent,
      current: cur.savingsPercent,
      previous: prev.savingsPercent,
      reason: "Nenhum pedido com duas cotações completas e uma escolhida",
    }),
    unavailableFigure({ id: "prazo-entrega", label: "Prazo de entrega dos fornecedores", unit: "days", formula: OPME_FORMULAS.leadTime, reason: LEAD_TIME_UNAVAILABLE }),
  ];
  const bySupplier = spendTable("gasto-por-fornecedor", "Gasto por fornecedor", "Fornecedor", cur.bySupplier.map((row) => ({ name: row.supplier, ...row })));
  const byProcedure = spendTable("gasto-por-procedimento", "Gasto por procedimento", "Procedimento", cur.byProcedure.map((row) => ({ name: row.procedure, ...row })));
  return { figures, tables: [bySupplier, byProcedure] };
}

/** A table of the chosen quotes' spend per supplier or per procedure. */
function spendTable(id: string, title: string, header: string, rows: Array<{ name: string; cents: number; requests: number }>): KpiTableData {
  return {
    id,
    title,
    columns: [
      { key: "nome", header },
      { key: "gasto", header: "Gasto", unit: "cents" },
      { key: "pedidos", header: "Pedidos", unit: "count" },
    ],
    rows: rows.map((row) => ({ nome: row.name, gasto: row.cents, pedidos: row.requests })),
    empty: "Nenhuma cotação escolhida no período.",
  };
}
