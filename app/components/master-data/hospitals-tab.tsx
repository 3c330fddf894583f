import { DataTable, useHrefWithParams } from "~/components/data-table";
import { actionsColumn } from "~/components/row-actions";
import { formatCnpj, formatPhone } from "~/lib/documents";
import { HOSPITAL_TYPE_LABELS, labelFor } from "~/lib/enums";
import { type ActionData, ActiveBadge, type Shared, type TabData, TabDeleteDialog, TabToolbar, lastResultFor } from "./shared";
import { lazyComponent } from "~/components/lazy-component";

type Data = TabData<"hospitals">;
type Row = Data["rows"][number];

export function HospitalsTab({ data, shared, actionData }: { data: Data; shared: Shared; actionData: ActionData }) {
  const hrefWith = useHrefWithParams();
  return (
    <>
      <TabToolbar
        shared={shared}
        hrefWith={hrefWith}
        search={{ placeholder: "Buscar por nome, cidade, CNPJ ou CNES...", label: "Buscar hospitais" }}
        createLabel="Novo Hospital"
      />
      <DataTable
        caption="Hospitais"
        rows={data.rows}
        total={data.total}
        page={data.page}
        keyset={data}
        pageSize={data.pageSize}
        sort={{ key: data.params.sort, dir: data.params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum hospital encontrado"
        keepRows={shared.permissions}
        columns={[
          { key: "name", header: "Nome", sortKey: "name", className: "font-medium", cell: (row) => row.name },
          { key: "type", header: "Tipo", cell: (row) => labelFor(HOSPITAL_TYPE_LABELS, row.type) },
          { key: "city", header: "Cidade", cell: (row) => (row.city ? `${row.city}${row.state ? `/${row.state}` : ""}` : "-") },
          { key: "cnpj", header: "CNPJ", className: "whitespace-nowrap", cell: (row) => (row.cnpj ? formatCnpj(row.cnpj) : "-") },
          { key: "cnes", header: "CNES", cell: (row) => row.cnes ?? "-" },
          { key: "phone", header: "Telefone", className: "whitespace-nowrap", cell: (row) => (row.contactPhone ? formatPhone(row.contactPhone) : "-") },
          { key: "active", header: "Status", cell: (row) => <ActiveBadge active={row.active} /> },
          ...actionsColumn<Row>(shared.permissions, hrefWith, (row) => row.name),
        ]}
      />
      {data.dialog === "new" || data.editing ? (
        <HospitalDialog key={data.editing?.id ?? "new"} hospital={data.editing} closeTo={shared.closeTo} lastResult={lastResultFor(actionData, !!data.editing)} />
      ) : null}
      <TabDeleteDialog
        deleting={data.deleting}
        title="Excluir hospital"
        question="Tem certeza que deseja excluir este hospital?"
        closeTo={shared.closeTo}
        actionData={actionData}
      />
    </>
  );
}

/** The create/edit dialog, loaded on first open (hospital-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./hospital-dialog.lazy"), "HospitalDialog");
const HospitalDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
