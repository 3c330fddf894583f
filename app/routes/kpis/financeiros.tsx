import { KpiChart } from "~/components/kpi/kpi-chart";
import { KpiFigureGrid } from "~/components/kpi/kpi-figure";
import { KpiPeriodFilter } from "~/components/kpi/kpi-period-filter";
import { RouteErrorBoundary } from "~/components/route-error";
import { requireFinanceAccess } from "~/.server/finance-access";
import { cachedKpiReport, kpiFilterOptions, kpiQueryString, readKpiQuery } from "~/.server/kpi";
import { todayIsoInClinic } from "~/lib/dates";
import { kpiExportHref } from "~/lib/kpi";
import { can } from "~/lib/permissions";
import { financialKpis } from "~/models/kpi-financial.server";
import type { Route } from "./+types/financeiros";

export const handle = { title: "KPIs Financeiros", subtitle: "Receita, despesas, margem, recebíveis e glosas" };
export const meta: Route.MetaFunction = () => [{ title: "KPIs Financeiros · Sinapse" }];

const PATH = "/kpis/financeiros";

export async function loader({ request }: Route.LoaderArgs) {
  // Financial figures: admins only (SPEC §6), checked by the server; anyone else goes to /dashboard.
  const user = await requireFinanceAccess(request);
  const query = readKpiQuery(new URL(request.url));
  const options = kpiFilterOptions({ doctors: true, payers: true });
  return {
    query,
    // Scoped to admins (only they get here) and today (receivables are aged at today while the period runs).
    report: cachedKpiReport("financeiros", query, `admin:${todayIsoInClinic()}`, () => financialKpis(query, query)),
    ...options,
    exportQuery: can(user, "kpis", "export") ? kpiQueryString(query) : null,
  };
}

export default function KpisFinanceiros({ loaderData }: Route.ComponentProps) {
  const { query, report, doctors, payers, exportQuery } = loaderData;
  const [ageing, paymentDays, glosas] = report.tables;
  const href = (id: string) => (exportQuery === null ? null : kpiExportHref(PATH, exportQuery, id));
  return (
    <div className="space-y-6">
      <KpiPeriodFilter period={query} doctors={doctors} doctorId={query.doctorId} payers={payers} payerId={query.payerId} />
      <KpiFigureGrid title="Indicadores" figures={report.figures} exportHref={href("indicadores")} />
      <div className="grid gap-4 xl:grid-cols-2">
        <KpiChart table={ageing} kind="bar" x="faixa" series={["valor"]} exportHref={href(ageing.id)} />
        <KpiChart table={paymentDays} kind="bar" x="convenio" series={["prazo"]} exportHref={href(paymentDays.id)} />
      </div>
      <KpiChart table={glosas} kind="bar" x="convenio" series={["taxa", "recuperado"]} exportHref={href(glosas.id)} />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
