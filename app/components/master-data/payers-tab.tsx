import { DataTable, useHrefWithParams } from "~/components/data-table";
import { actionsColumn } from "~/components/row-actions";
import { formatCnpj } from "~/lib/documents";
import { PAYER_TYPE_LABELS, labelFor } from "~/lib/enums";
import { type ActionData, ActiveBadge, type Shared, type TabData, TabDeleteDialog, TabToolbar, lastResultFor } from "./shared";
import { lazyComponent } from "~/components/lazy-component";

type Data = TabData<"payers">;
type Row = Data["rows"][number];

export function PayersTab({ data, shared, actionData }: { data: Data; shared: Shared; actionData: ActionData }) {
  const hrefWith = useHrefWithParams();
  return (
    <>
      <TabToolbar
        shared={shared}
        hrefWith={hrefWith}
        search={{ placeholder: "Buscar por nome, CNPJ, registro ANS ou e-mail...", label: "Buscar pagadores" }}
        createLabel="Novo Pagador"
      />
      <DataTable
        caption="Pagadores"
        rows={data.rows}
        total={data.total}
        page={data.page}
        keyset={data}
        pageSize={data.pageSize}
        sort={{ key: data.params.sort, dir: data.params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum pagador encontrado"
        keepRows={shared.permissions}
        columns={[
          { key: "name", header: "Nome", sortKey: "name", className: "font-medium", cell: (row) => row.name },
          { key: "type", header: "Tipo", cell: (row) => labelFor(PAYER_TYPE_LABELS, row.type) },
          { key: "cnpj", header: "CNPJ", className: "whitespace-nowrap", cell: (row) => (row.cnpj ? formatCnpj(row.cnpj) : "-") },
          { key: "ans", header: "Registro ANS", cell: (row) => row.ansRegistration ?? "-" },
          { key: "terms", header: "Prazo", className: "whitespace-nowrap", cell: (row) => `${row.paymentTermsDays} dias` },
          { key: "coverage", header: "Cobertura", cell: (row) => `${formatPercent(row.coveragePercentage)}` },
          {
            key: "fees",
            header: "Auxiliares",
            className: "whitespace-nowrap",
            cell: (row) => [row.assistant1FeePercent, row.assistant2FeePercent, row.assistant3FeePercent, row.assistant4FeePercent].join("/"),
          },
          { key: "active", header: "Status", cell: (row) => <ActiveBadge active={row.active} /> },
          ...actionsColumn<Row>(shared.permissions, hrefWith, (row) => row.name),
        ]}
      />
      {data.dialog === "new" || data.editing ? (
        <PayerDialog key={data.editing?.id ?? "new"} payer={data.editing} closeTo={shared.closeTo} lastResult={lastResultFor(actionData, !!data.editing)} />
      ) : null}
      <TabDeleteDialog
        deleting={data.deleting}
        title="Excluir pagador"
        question="Tem certeza que deseja excluir este pagador?"
        closeTo={shared.closeTo}
        actionData={actionData}
      />
    </>
  );
}

/** 100 → '100%', 87.5 → '87,5%'. */
export function formatPercent(value: number) {
  return `${value.toLocaleString("pt-BR", { maximumFractionDigits: 2 })}%`;
}

/** The create/edit dialog, loaded on first open (payer-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./payer-dialog.lazy"), "PayerDialog");
const PayerDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
