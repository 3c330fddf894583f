import { DataTable, useHrefWithParams } from "~/components/data-table";
import { actionsColumn } from "~/components/row-actions";
import { formatCnpj, formatPhone } from "~/lib/documents";
import { SUPPLIER_TYPE_LABELS, labelFor } from "~/lib/enums";
import { type ActionData, ActiveBadge, type Shared, type TabData, TabDeleteDialog, TabToolbar, lastResultFor } from "./shared";
import { lazyComponent } from "~/components/lazy-component";

type Data = TabData<"suppliers">;
type Row = Data["rows"][number];

export function SuppliersTab({ data, shared, actionData }: { data: Data; shared: Shared; actionData: ActionData }) {
  const hrefWith = useHrefWithParams();
  return (
    <>
      <TabToolbar
        shared={shared}
        hrefWith={hrefWith}
        search={{ placeholder: "Buscar por nome, CNPJ ou e-mail...", label: "Buscar fornecedores" }}
        createLabel="Novo Fornecedor"
      />
      <DataTable
        caption="Fornecedores"
        rows={data.rows}
        total={data.total}
        page={data.page}
        keyset={data}
        pageSize={data.pageSize}
        sort={{ key: data.params.sort, dir: data.params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum fornecedor encontrado"
        keepRows={shared.permissions}
        columns={[
          { key: "name", header: "Nome", sortKey: "name", className: "font-medium", cell: (row) => row.name },
          { key: "type", header: "Tipo", cell: (row) => labelFor(SUPPLIER_TYPE_LABELS, row.type) },
          { key: "cnpj", header: "CNPJ", className: "whitespace-nowrap", cell: (row) => (row.cnpj ? formatCnpj(row.cnpj) : "-") },
          { key: "phone", header: "Telefone", className: "whitespace-nowrap", cell: (row) => (row.contactPhone ? formatPhone(row.contactPhone) : "-") },
          { key: "terms", header: "Prazo", className: "whitespace-nowrap", cell: (row) => `${row.paymentTermsDays} dias` },
          { key: "rating", header: "Avaliação", cell: (row) => row.qualityRating.toLocaleString("pt-BR", { minimumFractionDigits: 1 }) },
          { key: "active", header: "Status", cell: (row) => <ActiveBadge active={row.active} /> },
          ...actionsColumn<Row>(shared.permissions, hrefWith, (row) => row.name),
        ]}
      />
      {data.dialog === "new" || data.editing ? (
        <SupplierDialog key={data.editing?.id ?? "new"} supplier={data.editing} closeTo={shared.closeTo} lastResult={lastResultFor(actionData, !!data.editing)} />
      ) : null}
      <TabDeleteDialog
        deleting={data.deleting}
        title="Excluir fornecedor"
        question="Tem certeza que deseja excluir este fornecedor?"
        closeTo={shared.closeTo}
        actionData={actionData}
      />
    </>
  );
}

/** The create/edit dialog, loaded on first open (supplier-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./supplier-dialog.lazy"), "SupplierDialog");
const SupplierDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
