import { KpiChart } from "~/components/kpi/kpi-chart";
import { KpiFigureGrid } from "~/components/kpi/kpi-figure";
import { KpiPeriodFilter } from "~/components/kpi/kpi-period-filter";
import { KpiReportBody } from "~/components/kpi/kpi-report-body";
import { RouteErrorBoundary } from "~/components/route-error";
import { kpiScreenLoader } from "~/.server/kpi";
import { KPI_SCREENS } from "~/.server/kpi-screens";
import { kpiExportLinks } from "~/lib/kpi";
import type { Route } from "./+types/financeiros";

export const handle = { title: "KPIs Financeiros", subtitle: "Receita, despesas, margem, recebíveis e glosas" };
export const meta: Route.MetaFunction = () => [{ title: "KPIs Financeiros · Sinapse" }];

const PATH = "/kpis/financeiros";

export async function loader({ request }: Route.LoaderArgs) {
  return kpiScreenLoader(request, KPI_SCREENS.financeiros);
}

export default function KpisFinanceiros({ loaderData }: Route.ComponentProps) {
  const { query, report, doctors, payers, exportQuery } = loaderData;
  const [ageing, paymentDays, glosas] = report.tables;
  const href = kpiExportLinks(PATH, exportQuery);
  return (
    <div className="space-y-6">
      <KpiPeriodFilter period={query} doctors={doctors} doctorId={query.doctorId} payers={payers} payerId={query.payerId} />
      <KpiReportBody path={PATH} report={report} exportQuery={exportQuery}>
        {() => (
          <>
            <KpiFigureGrid title="Indicadores" figures={report.figures} exportHref={href("indicadores")} />
            <div className="grid gap-4 xl:grid-cols-2">
              <KpiChart table={ageing} kind="bar" x="faixa" series={["valor"]} exportHref={href(ageing.id)} />
              <KpiChart table={paymentDays} kind="bar" x="convenio" series={["prazo"]} exportHref={href(paymentDays.id)} />
            </div>
            <KpiChart table={glosas} kind="bar" x="convenio" series={["taxa", "recuperado"]} exportHref={href(glosas.id)} />
          </>
        )}
      </KpiReportBody>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
