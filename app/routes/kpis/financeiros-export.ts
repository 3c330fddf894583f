import { kpiExportLoader } from "~/.server/kpi";
import { KPI_SCREENS } from "~/.server/kpi-screens";
import type { Route } from "./+types/financeiros-export";

/** GET /kpis/financeiros/export.csv?periodo=&de=&ate=&medico=&pagador=&tabela= — one table (or the figures) as on screen; admins only. */
export async function loader({ request }: Route.LoaderArgs) {
  return kpiExportLoader(request, KPI_SCREENS.financeiros);
}
