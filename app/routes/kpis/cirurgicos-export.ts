import { kpiExportLoader } from "~/.server/kpi";
import { KPI_SCREENS } from "~/.server/kpi-screens";
import type { Route } from "./+types/cirurgicos-export";

/** GET /kpis/cirurgicos/export.csv?periodo=&de=&ate=&medico=&pagador=&tabela= — one table (or the figures) as on screen. */
export async function loader({ request }: Route.LoaderArgs) {
  return kpiExportLoader(request, KPI_SCREENS.cirurgicos);
}
