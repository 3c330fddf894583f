import { Eye } from "~/components/icons";
import { Link } from "~/components/ui/link";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { ListToolbar } from "~/components/list-toolbar";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { SopDialog, SopViewDialog } from "~/components/sop-dialog";
import { Badge } from "~/components/ui/badge";
import { requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { SOP_STATUSES, SOP_STATUS_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { listUrl, parseId, parseListState } from "~/lib/list-params";
import { SOP_LIST } from "~/lib/lists";
import { rightsIn } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { createSop, deleteSop, getSop, listSops, sopDiff, sopVersionList, sopVersionView, updateSop } from "~/models/sop.server";
import { sopSchema } from "~/validation/sop";
import type { Route } from "./+types/sops";

export const handle = { title: "SOPs", subtitle: "Procedimentos operacionais padrão, com todas as versões" };
export const meta: Route.MetaFunction = () => [{ title: "SOPs · Sinapse" }];

const STATUS_OPTIONS = enumOptions(SOP_STATUSES, SOP_STATUS_LABELS);
const NOT_FOUND = "SOP não encontrado.";

/** `?view=ID` opens a SOP to read (`&version=N` an older one; `&from=A&to=B` compares two). */
async function viewing(url: URL) {
  if (!url.searchParams.has("view")) return null;
  const id = parseId(url.searchParams.get("view")) ?? notFound(NOT_FOUND);
  const sop = getSop(id) ?? notFound(NOT_FOUND);
  const version = parseId(url.searchParams.get("version")) ?? sop.version;
  const shown = (await sopVersionView(id, version)) ?? notFound("Versão não encontrada.");
  const from = parseId(url.searchParams.get("from"));
  const to = parseId(url.searchParams.get("to"));
  return {
    id,
    current: sop.version,
    shown,
    versions: sopVersionList(id),
    diff: from && to ? (sopDiff(id, from, to) ?? notFound("Versão não encontrada.")) : null,
  };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "sops", "view");
  const url = routeUrl(request);
  const params = parseListState(url, SOP_LIST);
  const { dialog, editing, deleting } = resolveDialog(url, user, {
    area: "sops",
    notFoundMessage: NOT_FOUND,
    loadEditing: getSop,
    loadDeleting: (id) => {
      const sop = getSop(id);
      return sop && { id: sop.id, title: sop.title };
    },
  });
  return {
    ...listSops(params),
    params,
    dialog,
    editing,
    deleting,
    viewing: await viewing(url),
    closeTo: listUrl(url, SOP_LIST),
    permissions: rightsIn(user, "sops"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "sops", "view");
  return dispatchIntent(request, user, {
    back: listUrl(routeUrl(request), SOP_LIST),
    notFoundMessage: NOT_FOUND,
    intents: crudIntents({
      area: "sops",
      schema: sopSchema,
      messages: { created: "SOP criado", updated: "SOP atualizado", deleted: "SOP excluído", saveFailed: "Erro ao salvar SOP", deleteFailed: "Erro ao excluir SOP" },
      create: createSop,
      update: updateSop,
      remove: deleteSop,
    }),
  });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

export default function SopsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, dialog, editing, deleting, viewing, closeTo } = loaderData;
  const hrefWith = useHrefWithParams();
  useToastEffect(actionData?.toast);

  return (
    <div className="space-y-4">
      <ListToolbar
        search={{ placeholder: "Buscar por título ou categoria...", label: "Buscar SOPs" }}
        listHref={closeTo}
        canExport={false}
        create={permissions.create ? { label: "Novo SOP", href: hrefWith({ dialog: "new", edit: null, delete: null, view: null }) } : null}
      />
      <FilterBar
        fields={[{ name: "status", label: "Status", all: "Todos os status", options: STATUS_OPTIONS, value: params.filters.status }]}
        keep={keptListParams(params, SOP_LIST)}
      />
      <DataTable
        caption="SOPs"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum SOP encontrado"
        keepRows={permissions}
        columns={[
          {
            key: "title",
            header: "Título",
            sortKey: "title",
            className: "font-medium",
            cell: (row: Row) => (
              <Link to={hrefWith({ view: row.id, version: null, from: null, to: null })} preventScrollReset className="inline-flex items-center gap-1 underline-offset-4 hover:underline">
                <Eye aria-hidden className="size-4" />
                {row.title}
              </Link>
            ),
          },
          { key: "category", header: "Categoria", cell: (row: Row) => row.category },
          { key: "status", header: "Status", cell: (row: Row) => <Badge variant={row.status === "active" ? "success" : "secondary"}>{labelFor(SOP_STATUS_LABELS, row.status)}</Badge> },
          { key: "version", header: "Versão", cell: (row: Row) => `v${row.version}` },
          { key: "updatedAt", header: "Atualizado em", sortKey: "createdAt", className: "whitespace-nowrap", cell: (row: Row) => formatDateTime(row.updatedAt) },
          ...actionsColumn<Row>(permissions, hrefWith, (row) => row.title),
        ]}
      />
      {viewing ? <SopViewDialog viewing={viewing} closeTo={closeTo} /> : null}
      {dialog === "new" || editing ? (
        <SopDialog
          key={editing?.id ?? "new"}
          sop={editing}
          closeTo={closeTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir SOP"
          message={
            <>
              Tem certeza que deseja excluir o SOP <strong>{deleting.title}</strong>? Todas as versões serão removidas.
            </>
          }
          id={deleting.id}
          closeTo={closeTo}
          error={deleteErrorOf(actionData)}
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
