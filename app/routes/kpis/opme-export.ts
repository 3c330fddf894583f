import { assertCan, requirePermission } from "~/.server/auth";
import { cachedKpiReport, kpiCsvExport, readKpiQuery } from "~/.server/kpi";
import { opmeKpis } from "~/models/kpi-opme.server";
import type { Route } from "./+types/opme-export";

/** GET /kpis/opme/export.csv?periodo=&de=&ate=&medico=&pagador=&tabela= — one table (or the figures) as on screen. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "kpis", "view");
  assertCan(user, "kpis", "export");
  const url = new URL(request.url);
  const query = readKpiQuery(url);
  const report = cachedKpiReport("opme", query, "", () => opmeKpis(query, query));
  return kpiCsvExport({ user, screen: "opme", query, report, tableId: url.searchParams.get("tabela") });
}
