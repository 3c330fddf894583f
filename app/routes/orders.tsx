import { useLocation } from "react-router";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { ListToolbar } from "~/components/list-toolbar";
import { OrderDialog } from "~/components/order-dialog";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { Badge } from "~/components/ui/badge";
import { requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatDate } from "~/lib/dates";
import { ORDER_STATUSES, ORDER_STATUS_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { draftFromUrl, listUrl, parseId, parseListState } from "~/lib/list-params";
import { ORDER_LIST } from "~/lib/lists";
import { formatBRL } from "~/lib/money";
import { rightsIn } from "~/lib/permissions";
import { cleanQueryText } from "~/lib/text";
import { useToastEffect } from "~/lib/use-toast-effect";
import { createOrder, deleteOrder, getOrder, listOrders, orderStatusHistory, updateOrder } from "~/models/order.server";
import { patientPickerOptions } from "~/models/picker-options.server";
import { activeSupplierOptions } from "~/models/supplier.server";
import { orderSchema } from "~/validation/order";
import type { Route } from "./+types/orders";
import { registryOption } from "~/lib/form-options";

export const handle = { title: "Pedidos", subtitle: "OPME, materiais e exames: itens, fornecedor e status" };
export const meta: Route.MetaFunction = () => [{ title: "Pedidos · Sinapse" }];

const STATUS_OPTIONS = enumOptions(ORDER_STATUSES, ORDER_STATUS_LABELS);
const NOT_FOUND = "Pedido não encontrado.";
/** The simple fields a picker's 'Buscar' (a GET without JavaScript) carries back into the dialog. */
const DRAFT_FIELDS = ["orderType", "status", "patientId", "supplierId", "notes"] as const;

function dialogData(url: URL, editing: ReturnType<typeof getOrder>) {
  const draft = draftFromUrl(url, DRAFT_FIELDS) ?? {};
  const patientQ = cleanQueryText(url.searchParams.get("patientQ"));
  const patientId = parseId(draft.patientId) ?? editing?.patientId ?? null;
  return {
    draft,
    patientQ,
    patientOptions: patientPickerOptions(patientQ, patientId),
    supplierOptions: activeSupplierOptions(editing?.supplierId).map(registryOption),
    history: editing ? orderStatusHistory(editing.id) : [],
  };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "orders", "view");
  const url = routeUrl(request);
  const params = parseListState(url, ORDER_LIST);
  const { dialog, editing, deleting } = resolveDialog(url, user, {
    area: "orders",
    notFoundMessage: NOT_FOUND,
    loadEditing: getOrder,
    loadDeleting: (id) => {
      const order = getOrder(id);
      return order && { id: order.id, orderType: order.orderType };
    },
  });
  return {
    ...listOrders(params),
    params,
    dialog,
    editing,
    deleting,
    form: dialog === "new" || editing ? dialogData(url, editing) : null,
    closeTo: listUrl(url, ORDER_LIST),
    permissions: rightsIn(user, "orders"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "orders", "view");
  return dispatchIntent(request, user, {
    back: listUrl(routeUrl(request), ORDER_LIST),
    notFoundMessage: NOT_FOUND,
    intents: crudIntents({
      area: "orders",
      schema: orderSchema,
      messages: { created: "Pedido criado", updated: "Pedido atualizado", deleted: "Pedido excluído", saveFailed: "Erro ao salvar pedido", deleteFailed: "Erro ao excluir pedido" },
      create: createOrder,
      update: updateOrder,
      remove: deleteOrder,
    }),
  });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

export default function OrdersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, dialog, editing, deleting, closeTo, form } = loaderData;
  const hrefWith = useHrefWithParams();
  const location = useLocation();
  useToastEffect(actionData?.toast);

  return (
    <div className="space-y-4">
      <ListToolbar
        search={{ placeholder: "Buscar por tipo, paciente, fornecedor ou item...", label: "Buscar pedidos" }}
        listHref={closeTo}
        canExport={false}
        create={permissions.create ? { label: "Novo Pedido", href: hrefWith({ dialog: "new", edit: null, delete: null }) } : null}
      />
      <FilterBar
        fields={[{ name: "status", label: "Status", all: "Todos os status", options: STATUS_OPTIONS, value: params.filters.status }]}
        keep={keptListParams(params, ORDER_LIST)}
      />
      <DataTable
        caption="Pedidos"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum pedido encontrado"
        keepRows={permissions}
        columns={[
          { key: "createdAt", header: "Data", sortKey: "createdAt", className: "whitespace-nowrap", cell: (row: Row) => formatDate(row.createdAt) },
          { key: "orderType", header: "Tipo", className: "font-medium", cell: (row: Row) => row.orderType },
          { key: "patient", header: "Paciente", cell: (row: Row) => row.patientName ?? "-" },
          { key: "supplier", header: "Fornecedor", cell: (row: Row) => row.supplierName ?? "-" },
          { key: "total", header: "Total", className: "whitespace-nowrap", cell: (row: Row) => (row.totalCents === null ? "-" : formatBRL(row.totalCents)) },
          { key: "status", header: "Status", cell: (row: Row) => <Badge variant={row.status === "cancelled" ? "destructive" : row.status === "delivered" ? "success" : "secondary"}>{labelFor(ORDER_STATUS_LABELS, row.status)}</Badge> },
          ...actionsColumn<Row>(permissions, hrefWith, (row) => row.orderType),
        ]}
      />
      {form ? (
        <OrderDialog
          key={`${editing?.id ?? "new"}:${location.search}`}
          order={editing}
          form={form}
          closeTo={closeTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir pedido"
          message={
            <>
              Tem certeza que deseja excluir o pedido <strong>{deleting.orderType}</strong>? O histórico de status também será removido.
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
