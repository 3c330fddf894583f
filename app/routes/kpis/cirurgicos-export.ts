import { assertCan, requirePermission } from "~/.server/auth";
import { cachedKpiReport, kpiCsvExport, readKpiQuery } from "~/.server/kpi";
import { todayIsoInClinic } from "~/lib/dates";
import { surgicalKpis } from "~/models/kpi-surgical.server";
import type { Route } from "./+types/cirurgicos-export";

/** GET /kpis/cirurgicos/export.csv?periodo=&de=&ate=&medico=&pagador=&tabela= — one table (or the figures) as on screen. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "kpis", "view");
  assertCan(user, "kpis", "export");
  const url = new URL(request.url);
  const query = readKpiQuery(url);
  const report = cachedKpiReport("cirurgicos", query, todayIsoInClinic(), () => surgicalKpis(query, query));
  return kpiCsvExport({ user, screen: "cirurgicos", query, report, tableId: url.searchParams.get("tabela") });
}
