/**
 * KPIs OPME (/kpis/opme): the OPME quotations of the period's surgeries (those scheduled in it,
 * optionally one doctor's or one payer's). The formula of each figure is written beside it and
 * shown to the user.
 *
 * The period's requests are a range of kpi_opme_requests (each request with its surgery's São Paulo
 * day, doctor and payer, kept by triggers: docs/decisions/0024-kpi-aggregates-surgical-financial.md),
 * so a view reads the period's requests only, never the period's surgeries without one.
 * tests/unit/kpi-aggregates-surgical-financial.test.ts compares every figure with the former
 * computation from the surgeries (tests/support/kpi-reference/opme.ts).
 *
 * A quote's total = Σ over the request's items of (the quote's unit price × the item's quantity);
 * a quote that leaves an item unpriced is incomplete and is not compared (it cannot be the highest
 * nor be chosen with a meaningful saving).
 */
import { type KpiFigureData, type KpiReport, type KpiTableData, kpiFigure, unavailableFigure } from "~/lib/kpi";
import type { KpiPeriod } from "~/lib/kpi-period";
import { prepared } from "~/models/kpi-rollups.server";
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
 * Given the CTE `req` (request_id, procedure, chosen_id, items): each quote's completeness and
 * total, then one row per request (a RequestRow).
 */
export const OPME_ROWS_FROM_REQ = `  quote as (
    select req.request_id, req.chosen_id, q.id as quote_id, q.supplier_id,
           count(qp.item_id) = req.items as complete,
           coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
      from req
      cross join opme_quotes q on q.request_id = req.request_id
      left join opme_quote_prices qp on qp.quote_id = q.id
      left join opme_items i on i.id = qp.item_id
     group by q.id
  )
  select req.request_id, req.procedure,
         (select count(*) from quote where quote.request_id = req.request_id) as quotes,
         (select count(*) from quote where quote.request_id = req.request_id and quote.complete) as complete_quotes,
         (select max(total) from quote where quote.request_id = req.request_id and quote.complete) as highest,
         c.supplier_id as supplier_id,
         (select name from suppliers where suppliers.id = c.supplier_id) as supplier,
         c.total as chosen_total,
         c.complete as chosen_complete
    from req
    left join quote c on c.quote_id = req.chosen_id`;

/**
 * One row per OPME request of the period's surgeries: its quotes, its chosen quote's supplier and
 * total, and the highest complete quote's total. The period's requests are a day range of
 * kpi_opme_requests (or of its doctor's / payer's index, covering the procedure), each request's
 * chosen quote read by its primary key, quotes by request_id, prices by (quote_id, item_id);
 * `cross join` keeps that order whatever the tables' sizes.
 */
export const OPME_REQUESTS_SQL = (filters: KpiFilters) => `
  with req as (
    select k.request_id, k.procedure, r.chosen_quote_id as chosen_id,
           (select count(*) from opme_items i where i.request_id = k.request_id) as items
      from kpi_opme_requests k
      cross join opme_requests r on r.id = k.request_id
     where k.day >= @from and k.day <= @to${filters.doctorId ? " and k.doctor_id = @doctor" : ""}${filters.payerId ? " and k.payer_id = @payer" : ""}
  ),
  ${OPME_ROWS_FROM_REQ}`;

/** A row of OPME_REQUESTS_SQL. */
export interface RequestRow {
  request_id: number;
  procedure: string;
  quotes: number;
  complete_quotes: number;
  highest: number | null;
  supplier_id: number | null;
  supplier: string | null;
  chosen_total: number | null;
  chosen_complete: number | null;
}

export function computeOpmeKpis(period: KpiPeriod, filters: KpiFilters = {}): OpmeKpis {
  const rows = prepared(OPME_REQUESTS_SQL(filters)).all({
    from: period.from,
    to: period.to,
    ...(filters.doctorId ? { doctor: filters.doctorId } : {}),
    ...(filters.payerId ? { payer: filters.payerId } : {}),
  }) as RequestRow[];
  return opmeFigures(rows);
}

/** The figures from the period's request rows. */
export function opmeFigures(rows: RequestRow[]): OpmeKpis {
  // Cotações por pedido = count(quotes) ÷ count(requests), one decimal.
  const requests = rows.length;
  const quotes = rows.reduce((sum, row) => sum + row.quotes, 0);
  const quotesPerRequest = requests === 0 ? null : Math.round((quotes / requests) * 10) / 10;

  // Gasto = Σ the chosen quotes' totals, per supplier and per procedure (the surgery's surgery_type).
  const chosenRows = rows.filter((row) => row.supplier_id !== null && row.chosen_total !== null);
  const suppliers = new Map<number, { supplierId: number; supplier: string; requests: number; cents: number }>();
  const procedures = new Map<string, { procedure: string; requests: number; cents: number }>();
  for (const row of chosenRows) {
    const s = suppliers.get(row.supplier_id!) ?? { supplierId: row.supplier_id!, supplier: row.supplier ?? `#${row.supplier_id}`, requests: 0, cents: 0 };
    s.requests++;
    s.cents += row.chosen_total!;
    suppliers.set(row.supplier_id!, s);
    const p = procedures.get(row.procedure) ?? { procedure: row.procedure, requests: 0, cents: 0 };
    p.requests++;
    p.cents += row.chosen_total!;
    procedures.set(row.procedure, p);
  }
  const spendCents = chosenRows.reduce((sum, row) => sum + row.chosen_total!, 0);

  // Economia = Σ (highest complete quote − chosen quote) ÷ Σ highest complete quote × 100, over the
  // requests whose chosen quote is complete and that had at least two complete quotes to compare.
  const compared = chosenRows.filter((row) => row.chosen_complete === 1 && row.complete_quotes >= 2 && row.highest !== null);
  const highestCents = compared.reduce((sum, row) => sum + row.highest!, 0);
  const savingsCents = compared.reduce((sum, row) => sum + (row.highest! - row.chosen_total!), 0);

  return {
    requests,
    quotes,
    quotesPerRequest,
    chosen: chosenRows.length,
    spendCents,
    bySupplier: [...suppliers.values()].sort((a, b) => b.cents - a.cents || a.supplier.localeCompare(b.supplier, "pt-BR")),
    byProcedure: [...procedures.values()].sort((a, b) => b.cents - a.cents || a.procedure.localeCompare(b.procedure, "pt-BR")),
    compared: compared.length,
    savingsCents,
    savingsPercent: kpiPercent(savingsCents, highestCents),
    leadTimeDays: null,
  };
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
