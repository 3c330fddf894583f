import { KpiChart } from "~/components/kpi/kpi-chart";
import { KpiFigureGrid } from "~/components/kpi/kpi-figure";
import { KpiPeriodFilter } from "~/components/kpi/kpi-period-filter";
import { KpiReportBody } from "~/components/kpi/kpi-report-body";
import { RouteErrorBoundary } from "~/components/route-error";
import { kpiScreenLoader } from "~/.server/kpi";
import { KPI_SCREENS } from "~/.server/kpi-screens";
import { kpiExportLinks } from "~/lib/kpi";
import type { Route } from "./+types/opme";

export const handle = { title: "KPIs OPME", subtitle: "Gasto por fornecedor e procedimento, cotações e economia" };
export const meta: Route.MetaFunction = () => [{ title: "KPIs OPME · Sinapse" }];

const PATH = "/kpis/opme";

export async function loader({ request }: Route.LoaderArgs) {
  return kpiScreenLoader(request, KPI_SCREENS.opme);
}

export default function KpisOpme({ loaderData }: Route.ComponentProps) {
  const { query, report, doctors, payers, exportQuery } = loaderData;
  const [bySupplier, byProcedure] = report.tables;
  const href = kpiExportLinks(PATH, exportQuery);
  return (
    <div className="space-y-6">
      <KpiPeriodFilter period={query} doctors={doctors} doctorId={query.doctorId} payers={payers} payerId={query.payerId} />
      <KpiReportBody path={PATH} report={report} exportQuery={exportQuery}>
        {() => (
          <>
            <KpiFigureGrid title="Indicadores" figures={report.figures} exportHref={href("indicadores")} />
            <div className="grid gap-4 xl:grid-cols-2">
              <KpiChart table={bySupplier} kind="bar" x="nome" series={["gasto"]} exportHref={href(bySupplier.id)} />
              <KpiChart table={byProcedure} kind="bar" x="nome" series={["gasto"]} exportHref={href(byProcedure.id)} />
            </div>
          </>
        )}
      </KpiReportBody>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
