/**
 * REFERENCE IMPLEMENTATION for the tests (not app code): KPIs OPME computed as the screen did before
 * its maintained aggregates (docs/decisions/0024-kpi-aggregates-surgical-financial.md): the period's
 * surgeries, each one's request, and per request all its quotes, prices and items summed anew.
 *
 * A quote's total = Σ over the request's items of (the quote's unit price × the item's quantity); a
 * quote that leaves an item unpriced is incomplete and is not compared. The chosen quote is the
 * request's chosen_quote_id when that quote belongs to the request.
 */
import { sqlite } from "~/.server/db";
import { kpiPercent } from "~/lib/kpi";
import { type KpiPeriod, instantRange } from "~/lib/kpi-period";
import type { OpmeKpis } from "~/models/kpi-opme.server";
import type { KpiFilters } from "~/models/kpi-surgical.server";

/** The period's surgeries (scheduled in it, with the filters), each request sought by its unique surgery_id. */
const OPME_REQUESTS_SQL = (filters: KpiFilters) => `
  with req as (
    select r.id as request_id, s.surgery_type as procedure, r.chosen_quote_id as chosen_id,
           (select count(*) from opme_items i where i.request_id = r.id) as items
      from surgeries s
      cross join opme_requests r on r.surgery_id = s.id
     where s.scheduled_date >= @start and s.scheduled_date < @end${filters.doctorId ? " and s.doctor_id = @doctor" : ""}${filters.payerId ? " and s.payer_id = @payer" : ""}
  ),
  quote as (
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
    left join quote c on c.quote_id = req.chosen_id and c.request_id = req.request_id`;

interface RequestRow {
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

export function referenceOpmeKpis(period: KpiPeriod, filters: KpiFilters = {}): OpmeKpis {
  const [start, end] = instantRange(period);
  const rows = sqlite.prepare(OPME_REQUESTS_SQL(filters)).all({
    start,
    end,
    ...(filters.doctorId ? { doctor: filters.doctorId } : {}),
    ...(filters.payerId ? { payer: filters.payerId } : {}),
  }) as RequestRow[];
  return opmeFigures(rows);
}

/** The figures from the period's request rows. */
function opmeFigures(rows: RequestRow[]): OpmeKpis {
  const requests = rows.length;
  const quotes = rows.reduce((sum, row) => sum + row.quotes, 0);
  const quotesPerRequest = requests === 0 ? null : Math.round((quotes / requests) * 10) / 10;

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
