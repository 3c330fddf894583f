import { assertCan, requirePermission } from "~/.server/auth";
import { cachedKpiReport, kpiCsvExport, readKpiQuery } from "~/.server/kpi";
import { metricsKpis } from "~/models/kpi-metricas.server";
import type { Route } from "./+types/metricas-export";

/** GET /kpis/metricas/export.csv?periodo=&de=&ate=&tabela= — one table (or the figures) as on screen. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "kpis", "view");
  assertCan(user, "kpis", "export");
  const url = new URL(request.url);
  const query = readKpiQuery(url);
  const report = cachedKpiReport("metricas", query, "", () => metricsKpis(query));
  return kpiCsvExport({ user, screen: "metricas", query, report, tableId: url.searchParams.get("tabela") });
}
