import { Link } from "~/components/ui/link";
import { DataTable, SearchForm } from "~/components/data-table";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { loadErrorBoundary } from "~/components/load-error";
import { Badge } from "~/components/ui/badge";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { MEDICAL_CODE_TYPES, MEDICAL_CODE_TYPE_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { parseListState } from "~/lib/list-params";
import { PROCEDURE_LIST } from "~/lib/lists";
import { formatBRL } from "~/lib/money";
import { can } from "~/lib/permissions";
import { listProcedures } from "~/models/procedure.server";
import type { Route } from "./+types/procedures";

export const handle = { title: "Procedimentos", subtitle: "Códigos médicos: CBHPM, TUSS, CID-10 e próprios da clínica" };
export const meta: Route.MetaFunction = () => [{ title: "Procedimentos · Sinapse" }];

const TYPE_OPTIONS = enumOptions(MEDICAL_CODE_TYPES, MEDICAL_CODE_TYPE_LABELS);
const ACTIVE_OPTIONS = [
  { value: "sim", label: "Ativos" },
  { value: "nao", label: "Inativos" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "procedures", "view");
  const params = parseListState(routeUrl(request), PROCEDURE_LIST);
  return { ...listProcedures(params), params, canManage: can(user, "masterData", "edit") };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

export default function ProceduresPage({ loaderData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, canManage } = loaderData;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchForm placeholder="Buscar por código (com ou sem pontos) ou descrição..." label="Buscar procedimentos" className="w-full max-w-md" />
        {canManage ? (
          <Link to="/master-data/codes" className="text-sm text-primary underline underline-offset-4">
            Gerenciar em Cadastros
          </Link>
        ) : null}
      </div>
      <FilterBar
        label="Filtros dos procedimentos"
        fields={[
          { name: "type", label: "Tipo", all: "Todos os tipos", options: TYPE_OPTIONS, value: params.filters.type },
          { name: "active", label: "Situação", all: "Todos", options: ACTIVE_OPTIONS, value: params.filters.active },
        ]}
        keep={keptListParams(params, PROCEDURE_LIST)}
      />
      <DataTable
        caption="Procedimentos"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum procedimento encontrado"
        keepRows={null}
        columns={[
          { key: "code", header: "Código", sortKey: "code", className: "whitespace-nowrap font-mono", cell: (row: Row) => row.code },
          { key: "description", header: "Descrição", cell: (row: Row) => row.description },
          { key: "type", header: "Tipo", cell: (row: Row) => <Badge variant="outline">{labelFor(MEDICAL_CODE_TYPE_LABELS, row.type)}</Badge> },
          { key: "category", header: "Categoria", cell: (row: Row) => row.category || "-" },
          { key: "price", header: "Valor", className: "whitespace-nowrap text-right tabular-nums", cell: (row: Row) => (row.priceCents === null ? "-" : formatBRL(row.priceCents)) },
          {
            key: "active",
            header: "Situação",
            cell: (row: Row) => <Badge variant={row.active ? "success" : "secondary"}>{row.active ? "Ativo" : "Inativo"}</Badge>,
          },
        ]}
      />
    </div>
  );
}

/** SPEC §8: 'Erro ao carregar procedimentos'. */
export const ErrorBoundary = loadErrorBoundary("Erro ao carregar procedimentos");
