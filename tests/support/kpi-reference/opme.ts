/**
 * REFERENCE IMPLEMENTATION for the tests (not app code): the OPME requests of KPIs OPME found from the
 * period's surgeries, as the screen did before kpi_opme_requests
 * (docs/decisions/0024-kpi-aggregates-surgical-financial.md). The figures from those rows are the
 * model's own (`opmeFigures`): only the way to the period's requests is kept here.
 */
import { sqlite } from "~/.server/db";
import { type KpiPeriod, instantRange } from "~/lib/kpi-period";
import { OPME_ROWS_FROM_REQ, type OpmeKpis, type RequestRow, opmeFigures } from "~/models/kpi-opme.server";
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
  ${OPME_ROWS_FROM_REQ}`;

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
