import { assertCan, requirePermission } from "~/.server/auth";
import { cachedKpiReport, kpiCsvExport, readKpiQuery } from "~/.server/kpi";
import { operationalKpis } from "~/models/kpi-operacionais.server";
import type { Route } from "./+types/operacionais-export";

/** GET /kpis/operacionais/export.csv?periodo=&de=&ate=&medico=&tabela= — one table (or the figures) as on screen. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "kpis", "view");
  assertCan(user, "kpis", "export");
  const url = new URL(request.url);
  const query = readKpiQuery(url);
  const report = cachedKpiReport("operacionais", query, "", () => operationalKpis(query, query));
  return kpiCsvExport({ user, screen: "operacionais", query, report, tableId: url.searchParams.get("tabela") });
}
