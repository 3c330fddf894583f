import { DataTable, useHrefWithParams } from "~/components/data-table";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { actionsColumn } from "~/components/row-actions";
import { MEDICAL_CODE_TYPES, MEDICAL_CODE_TYPE_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { MEDICAL_CODE_LIST } from "~/lib/lists";
import { twinCode } from "~/lib/medical-codes";
import { formatBRL } from "~/lib/money";
import { type ActionData, ActiveBadge, type Shared, type TabData, TabDeleteDialog, TabToolbar, lastResultFor } from "./shared";
import { lazyComponent } from "~/components/lazy-component";

type Data = TabData<"codes">;
type Row = Data["rows"][number];

const TYPE_OPTIONS = enumOptions(MEDICAL_CODE_TYPES, MEDICAL_CODE_TYPE_LABELS);

export function CodesTab({ data, shared, actionData }: { data: Data; shared: Shared; actionData: ActionData }) {
  const hrefWith = useHrefWithParams();
  return (
    <>
      <TabToolbar
        shared={shared}
        hrefWith={hrefWith}
        search={{ placeholder: "Buscar por código, descrição ou categoria...", label: "Buscar códigos" }}
        createLabel="Novo Código"
      />
      <FilterBar
        fields={[{ name: "type", label: "Tipo", all: "Todos os tipos", options: TYPE_OPTIONS, value: data.params.filters.type }]}
        keep={keptListParams(data.params, MEDICAL_CODE_LIST)}
      />
      <DataTable
        caption="Códigos médicos"
        rows={data.rows}
        total={data.total}
        page={data.page}
        keyset={data}
        pageSize={data.pageSize}
        sort={{ key: data.params.sort, dir: data.params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum código encontrado"
        keepRows={shared.permissions}
        columns={[
          { key: "code", header: "Código", sortKey: "code", className: "font-medium whitespace-nowrap", cell: (row) => row.code },
          { key: "type", header: "Tipo", cell: (row) => labelFor(MEDICAL_CODE_TYPE_LABELS, row.type) },
          { key: "description", header: "Descrição", cell: (row) => row.description },
          {
            key: "porte",
            header: "Porte / Aux. / AN",
            className: "whitespace-nowrap",
            cell: (row) => (row.type === "cbhpm" ? [row.porte ?? "-", row.assistantsCount ?? "-", row.anestheticPorte ?? "-"].join(" / ") : "-"),
          },
          { key: "twin", header: "Equivalente", className: "whitespace-nowrap", cell: (row) => twinLabel(row) },
          { key: "price", header: "Valor", className: "whitespace-nowrap", cell: (row) => (row.priceCents === null ? "-" : formatBRL(row.priceCents)) },
          { key: "active", header: "Status", cell: (row) => <ActiveBadge active={row.active} /> },
          ...actionsColumn<Row>(shared.permissions, hrefWith, (row) => row.code),
        ]}
      />
      {data.dialog === "new" || data.editing ? (
        <CodeDialog key={data.editing?.id ?? "new"} code={data.editing} closeTo={shared.closeTo} lastResult={lastResultFor(actionData, !!data.editing)} />
      ) : null}
      <TabDeleteDialog
        deleting={data.deleting}
        title="Excluir código"
        question="Tem certeza que deseja excluir este código?"
        closeTo={shared.closeTo}
        actionData={actionData}
      />
    </>
  );
}

function twinLabel(row: Pick<Row, "type" | "code">) {
  const twin = twinCode(row.type, row.code);
  return twin ? `${labelFor(MEDICAL_CODE_TYPE_LABELS, twin.type)} ${twin.code}` : "-";
}

/** The create/edit dialog, loaded on first open (code-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./code-dialog.lazy"), "CodeDialog");
const CodeDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
