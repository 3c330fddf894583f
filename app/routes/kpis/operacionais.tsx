import { KpiChart } from "~/components/kpi/kpi-chart";
import { KpiFigureGrid } from "~/components/kpi/kpi-figure";
import { KpiPeriodFilter } from "~/components/kpi/kpi-period-filter";
import { RouteErrorBoundary } from "~/components/route-error";
import { requirePermission } from "~/.server/auth";
import { cachedKpiReport, kpiFilterOptions, kpiQueryString, readKpiQuery } from "~/.server/kpi";
import { kpiExportHref } from "~/lib/kpi";
import { can } from "~/lib/permissions";
import { operationalKpis } from "~/models/kpi-operacionais.server";
import type { Route } from "./+types/operacionais";

export const handle = { title: "KPIs Operacionais", subtitle: "Agenda, cancelamentos, antecedência e conversão" };
export const meta: Route.MetaFunction = () => [{ title: "KPIs Operacionais · Sinapse" }];

const PATH = "/kpis/operacionais";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "kpis", "view");
  const query = readKpiQuery(new URL(request.url));
  const report = cachedKpiReport("operacionais", query, "", () => operationalKpis(query, query));
  return {
    query,
    report,
    doctors: kpiFilterOptions({ doctors: true }).doctors,
    exportQuery: can(user, "kpis", "export") ? kpiQueryString(query) : null,
  };
}

export default function KpisOperacionais({ loaderData }: Route.ComponentProps) {
  const { query, report, doctors, exportQuery } = loaderData;
  const [perDay, perDoctor] = report.tables;
  const href = (id: string) => (exportQuery === null ? null : kpiExportHref(PATH, exportQuery, id));
  return (
    <div className="space-y-6">
      <KpiPeriodFilter period={query} doctors={doctors} doctorId={query.doctorId} />
      <KpiFigureGrid title="Indicadores" figures={report.figures} exportHref={href("indicadores")} />
      <div className="grid gap-4 xl:grid-cols-2">
        <KpiChart table={perDay} kind={perDay.rows.length > 62 ? "line" : "bar"} x="dia" series={["consultas", "canceladas"]} exportHref={href(perDay.id)} />
        <KpiChart table={perDoctor} kind="bar" x="medico" series={["consultas", "canceladas"]} exportHref={href(perDoctor.id)} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
