import { Wallet } from "~/components/icons";
import { DataTable } from "~/components/data-table";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { RouteErrorBoundary } from "~/components/route-error";
import { StatCard } from "~/components/stat-card";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { formatDate } from "~/lib/dates";
import { parseListState } from "~/lib/list-params";
import { formatBRL } from "~/lib/money";
import { PAID_LIST } from "~/lib/receivables";
import { listPaid, receivableScope } from "~/models/receivable.server";
import { listPayerOptions } from "~/models/surgery.server";
import type { Route } from "./+types/financeiro-pagas";
import { registryOption } from "~/lib/form-options";
import { optionsOf } from "~/models/filter-options.server";

export const handle = { title: "Cirurgias Pagas", subtitle: "Honorários recebidos, por período e pagador" };
export const meta: Route.MetaFunction = () => [{ title: "Cirurgias Pagas · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "receivables", "view");
  const url = routeUrl(request);
  const { filters, ...params } = parseListState(url, PAID_LIST);
  // A range given backwards is read the right way round rather than showing nothing.
  const range = filters.from && filters.to && filters.from > filters.to ? { ...filters, from: filters.to, to: filters.from } : filters;
  return {
    ...listPaid(params, range, receivableScope(user)),
    params,
    filters: range,
    payerOptions: optionsOf(listPayerOptions(), registryOption),
  };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

export default function PaidSurgeriesPage({ loaderData }: Route.ComponentProps) {
  const { rows, total, totalCapped, pageSize, params, filters, billedTotalCents } = loaderData;
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <StatCard title="Cirurgias pagas" value={`${total.toLocaleString("pt-BR")}${totalCapped ? "+" : ""}`} icon={Wallet} description="No período e pagador escolhidos" />
        <StatCard title="Valor faturado" value={formatBRL(billedTotalCents)} icon={Wallet} description="Soma dos valores faturados dessas cirurgias" />
      </div>
      <FilterBar
        keep={keptListParams(params, PAID_LIST)}
        fields={[
          { type: "date", name: "from", label: "Pagas de", value: filters.from },
          { type: "date", name: "to", label: "até", value: filters.to },
          { name: "payer", label: "Pagador", all: "Todos os pagadores", options: loaderData.payerOptions, value: filters.payerId, width: "w-56" },
        ]}
      />
      <DataTable
        caption="Cirurgias pagas"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhuma cirurgia paga no período"
        keepRows={null}
        columns={[
          { key: "patient", header: "Paciente", className: "font-medium whitespace-normal", cell: (row: Row) => row.patientName },
          { key: "type", header: "Cirurgia", className: "whitespace-normal", cell: (row: Row) => row.surgeryType },
          { key: "doctor", header: "Médico", className: "whitespace-normal", cell: (row: Row) => row.doctorName },
          { key: "date", header: "Data da cirurgia", className: "whitespace-nowrap tabular-nums", cell: (row: Row) => formatDate(row.scheduledDate) },
          { key: "payer", header: "Pagador", className: "whitespace-normal", cell: (row: Row) => row.payerName || "-" },
          { key: "billed", header: "Faturado", className: "text-right whitespace-nowrap tabular-nums", cell: (row: Row) => formatBRL(row.billedAmountCents) },
          { key: "paid", header: "Recebido", className: "text-right whitespace-nowrap tabular-nums", cell: (row: Row) => formatBRL(row.paidCents || row.billedAmountCents) },
          { key: "paidAt", header: "Pago em", sortKey: "paidAt", className: "whitespace-nowrap tabular-nums", cell: (row: Row) => formatDate(row.paidAt) },
        ]}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
