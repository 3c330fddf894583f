import { KpiChart } from "~/components/kpi/kpi-chart";
import { KpiFigureGrid } from "~/components/kpi/kpi-figure";
import { KpiPeriodFilter } from "~/components/kpi/kpi-period-filter";
import { KpiReportBody } from "~/components/kpi/kpi-report-body";
import { RouteErrorBoundary } from "~/components/route-error";
import { kpiScreenLoader } from "~/.server/kpi";
import { KPI_SCREENS } from "~/.server/kpi-screens";
import { kpiExportLinks } from "~/lib/kpi";
import type { Route } from "./+types/operacionais";

export const handle = { title: "KPIs Operacionais", subtitle: "Agenda, cancelamentos, antecedência e conversão" };
export const meta: Route.MetaFunction = () => [{ title: "KPIs Operacionais · Sinapse" }];

const PATH = "/kpis/operacionais";

export async function loader({ request }: Route.LoaderArgs) {
  return kpiScreenLoader(request, KPI_SCREENS.operacionais);
}

export default function KpisOperacionais({ loaderData }: Route.ComponentProps) {
  const { query, report, doctors, exportQuery } = loaderData;
  const [perDay, perDoctor] = report.tables;
  const href = kpiExportLinks(PATH, exportQuery);
  return (
    <div className="space-y-6">
      <KpiPeriodFilter period={query} doctors={doctors} doctorId={query.doctorId} />
      <KpiReportBody path={PATH} report={report} exportQuery={exportQuery}>
        {() => (
          <>
            <KpiFigureGrid title="Indicadores" figures={report.figures} exportHref={href("indicadores")} />
            <div className="grid gap-4 xl:grid-cols-2">
              <KpiChart table={perDay} kind={perDay.rows.length > 62 ? "line" : "bar"} x="dia" series={["consultas", "canceladas"]} exportHref={href(perDay.id)} />
              <KpiChart table={perDoctor} kind="bar" x="medico" series={["consultas", "canceladas"]} exportHref={href(perDoctor.id)} />
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
