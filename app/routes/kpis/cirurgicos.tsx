import { KpiChart } from "~/components/kpi/kpi-chart";
import { KpiFigureGrid } from "~/components/kpi/kpi-figure";
import { KpiPeriodFilter } from "~/components/kpi/kpi-period-filter";
import { KpiReportBody } from "~/components/kpi/kpi-report-body";
import { RouteErrorBoundary } from "~/components/route-error";
import { kpiScreenLoader } from "~/.server/kpi";
import { KPI_SCREENS } from "~/.server/kpi-screens";
import { kpiExportLinks } from "~/lib/kpi";
import type { Route } from "./+types/cirurgicos";

export const handle = { title: "KPIs Cirúrgicos", subtitle: "Etapas, procedimentos, prazo ANS e negativas" };
export const meta: Route.MetaFunction = () => [{ title: "KPIs Cirúrgicos · Sinapse" }];

const PATH = "/kpis/cirurgicos";

export async function loader({ request }: Route.LoaderArgs) {
  return kpiScreenLoader(request, KPI_SCREENS.cirurgicos);
}

export default function KpisCirurgicos({ loaderData }: Route.ComponentProps) {
  const { query, report, doctors, payers, exportQuery } = loaderData;
  const [byStage, byProcedure, stageTimes, byPayer] = report.tables;
  const href = kpiExportLinks(PATH, exportQuery);
  return (
    <div className="space-y-6">
      <KpiPeriodFilter period={query} doctors={doctors} doctorId={query.doctorId} payers={payers} payerId={query.payerId} />
      <KpiReportBody path={PATH} report={report} exportQuery={exportQuery}>
        {() => (
          <>
            <KpiFigureGrid title="Indicadores" figures={report.figures} exportHref={href("indicadores")} />
            <div className="grid gap-4 xl:grid-cols-2">
              <KpiChart table={byStage} kind="bar" x="etapa" series={["cirurgias", "anterior"]} exportHref={href(byStage.id)} />
              <KpiChart table={byProcedure} kind="bar" x="procedimento" series={["cirurgias"]} exportHref={href(byProcedure.id)} />
            </div>
            <div className="grid gap-4 xl:grid-cols-2">
              <KpiChart table={stageTimes} kind="bar" x="etapa" series={["mediana", "p90"]} exportHref={href(stageTimes.id)} />
              <KpiChart table={byPayer} kind="bar" x="convenio" series={["prazo", "negativa"]} exportHref={href(byPayer.id)} />
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
