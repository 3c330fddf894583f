import { KpiChart } from "~/components/kpi/kpi-chart";
import { KpiFigureGrid } from "~/components/kpi/kpi-figure";
import { KpiPeriodFilter } from "~/components/kpi/kpi-period-filter";
import { KpiReportBody } from "~/components/kpi/kpi-report-body";
import { RouteErrorBoundary } from "~/components/route-error";
import { kpiScreenLoader } from "~/.server/kpi";
import { KPI_SCREENS } from "~/.server/kpi-screens";
import { kpiExportLinks } from "~/lib/kpi";
import type { Route } from "./+types/metricas";

export const handle = { title: "Métricas", subtitle: "Pacientes novos e ativos, convênios, encaminhadores e mensagens" };
export const meta: Route.MetaFunction = () => [{ title: "Métricas · Sinapse" }];

const PATH = "/kpis/metricas";

export async function loader({ request }: Route.LoaderArgs) {
  return kpiScreenLoader(request, KPI_SCREENS.metricas);
}

export default function KpisMetricas({ loaderData }: Route.ComponentProps) {
  const { query, report, exportQuery } = loaderData;
  const [patients, messages] = [report.figures.slice(0, 2), report.figures.slice(2)];
  const [byInsurer, byReferrer] = report.tables;
  const href = kpiExportLinks(PATH, exportQuery);
  return (
    <div className="space-y-6">
      <KpiPeriodFilter period={query} />
      <KpiReportBody path={PATH} report={report} exportQuery={exportQuery}>
        {() => (
          <>
            <KpiFigureGrid title="Pacientes" figures={patients} exportHref={href("indicadores")} />
            <KpiFigureGrid title="Mensagens" figures={messages} />
            <div className="grid gap-4 xl:grid-cols-2">
              <KpiChart table={byInsurer} kind="bar" x="convenio" series={["pacientes"]} exportHref={href(byInsurer.id)} />
              <KpiChart table={byReferrer} kind="bar" x="encaminhador" series={["pacientes"]} exportHref={href(byReferrer.id)} />
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
