import { assertCan } from "~/.server/auth";
import { requireFinanceAccess } from "~/.server/finance-access";
import { cachedKpiReport, kpiCsvExport, readKpiQuery } from "~/.server/kpi";
import { todayIsoInClinic } from "~/lib/dates";
import { financialKpis } from "~/models/kpi-financial.server";
import type { Route } from "./+types/financeiros-export";

/** GET /kpis/financeiros/export.csv?periodo=&de=&ate=&medico=&pagador=&tabela= — one table (or the figures) as on screen; admins only. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireFinanceAccess(request);
  assertCan(user, "kpis", "export");
  const url = new URL(request.url);
  const query = readKpiQuery(url);
  const report = cachedKpiReport("financeiros", query, `admin:${todayIsoInClinic()}`, () => financialKpis(query, query));
  return kpiCsvExport({ user, screen: "financeiros", query, report, tableId: url.searchParams.get("tabela") });
}
