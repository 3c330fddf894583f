import { Upload } from "~/components/icons";
import { DataTable } from "~/components/data-table";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { RouteErrorBoundary } from "~/components/route-error";
import { SearchForm } from "~/components/data-table";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { FEE_SCHEDULE_KINDS, FEE_SCHEDULE_KIND_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { parseListState } from "~/lib/list-params";
import { FEE_SCHEDULE_LIST } from "~/lib/lists";
import { formatBRL } from "~/lib/money";
import { can } from "~/lib/permissions";
import { listScheduleRows, scheduleYears } from "~/models/honorarios.server";
import type { Route } from "./+types/honorarios-tabelas";

export const handle = { title: "Tabelas de referência", subtitle: "CBHPM, TUSS e tabelas próprias: códigos, portes e valores por edição" };
export const meta: Route.MetaFunction = () => [{ title: "Tabelas de referência · Sinapse" }];

const KIND_OPTIONS = enumOptions(FEE_SCHEDULE_KINDS, FEE_SCHEDULE_KIND_LABELS);

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "honorarios", "view");
  const params = parseListState(routeUrl(request), FEE_SCHEDULE_LIST);
  return {
    ...listScheduleRows(params),
    params,
    years: scheduleYears().map((year) => ({ value: String(year), label: String(year) })),
    canImport: can(user, "honorarios", "create"),
  };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

export default function FeeSchedulesPage({ loaderData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, years, canImport } = loaderData;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchForm placeholder="Código ou descrição..." label="Buscar nas tabelas" className="w-full max-w-md" />
        {canImport ? (
          <ButtonLink to="/honorarios/tabelas/importar" variant="outline">
            <Upload aria-hidden />
            Importar tabela de portes
          </ButtonLink>
        ) : null}
      </div>
      <FilterBar
        fields={[
          { name: "kind", label: "Tipo", all: "Todos os tipos", options: KIND_OPTIONS, value: params.filters.kind },
          { name: "year", label: "Ano", all: "Todos os anos", options: years, value: params.filters.year },
        ]}
        keep={keptListParams(params, FEE_SCHEDULE_LIST)}
      />
      <DataTable
        caption="Tabelas de referência"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum valor de referência encontrado"
        keepRows={null}
        columns={[
          { key: "code", header: "Código", sortKey: "code", className: "whitespace-nowrap font-medium", cell: (row: Row) => row.code },
          { key: "description", header: "Descrição", cell: (row: Row) => row.description },
          { key: "kind", header: "Tipo", cell: (row: Row) => <Badge variant="secondary">{labelFor(FEE_SCHEDULE_KIND_LABELS, row.kind)}</Badge> },
          { key: "year", header: "Ano", cell: (row: Row) => row.year },
          { key: "version", header: "Versão", cell: (row: Row) => row.version || "-" },
          { key: "value", header: "Valor", className: "whitespace-nowrap text-right tabular-nums", cell: (row: Row) => formatBRL(row.baseValueCents) },
        ]}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
