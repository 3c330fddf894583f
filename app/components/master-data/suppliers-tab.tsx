import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { actionsColumn } from "~/components/row-actions";
import { formatCnpj, formatPhone } from "~/lib/documents";
import { SUPPLIER_TYPES, SUPPLIER_TYPE_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { supplierSchema } from "~/validation/master-data";
import { type ActionData, ActiveBadge, type Shared, type TabData, TabDeleteDialog, TabToolbar, lastResultFor } from "./shared";

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

const TYPE_OPTIONS = enumOptions(SUPPLIER_TYPES, SUPPLIER_TYPE_LABELS);

function SupplierDialog({
  supplier,
  closeTo,
  lastResult,
}: {
  supplier: Data["editing"];
  closeTo: string;
  lastResult: ReturnType<typeof lastResultFor>;
}) {
  const [form, fields] = useForm({
    id: supplier ? `supplier-${supplier.id}` : "supplier-new",
    lastResult,
    defaultValue: supplier
      ? {
          ...supplier,
          cnpj: supplier.cnpj ? formatCnpj(supplier.cnpj) : "",
          contactPhone: supplier.contactPhone ? formatPhone(supplier.contactPhone) : "",
          active: supplier.active ? "on" : "",
        }
      : { type: "opme", paymentTermsDays: "30", qualityRating: "5", active: "on" },
    constraint: getZodConstraint(supplierSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: supplierSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <UrlDialog title={supplier ? "Editar Fornecedor" : "Novo Fornecedor"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={supplier ? "update" : "create"} />
        {supplier ? <input type="hidden" name="id" value={supplier.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.name} label="Nome" className="sm:col-span-2" autoComplete="off" autoFocus />
          <SelectField meta={fields.type} label="Tipo" options={TYPE_OPTIONS} />
          <Field meta={fields.cnpj} label="CNPJ" placeholder="00.000.000/0000-00" />
          <Field meta={fields.contactEmail} label="E-mail de contato" type="email" />
          <Field meta={fields.contactPhone} label="Telefone de contato" type="tel" placeholder="(00) 00000-0000" />
          <Field meta={fields.address} label="Endereço" className="sm:col-span-2" />
          <Field meta={fields.paymentTermsDays} label="Prazo de pagamento (dias)" type="number" min={0} max={365} step={1} />
          <Field meta={fields.qualityRating} label="Avaliação de qualidade (0 a 5)" type="number" min={0} max={5} step={0.1} />
          <TextareaField meta={fields.notes} label="Observações" rows={3} className="sm:col-span-2" />
          <CheckboxField meta={fields.active} label="Ativo" className="sm:col-span-2" />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={supplier ? "Salvar alterações" : "Cadastrar fornecedor"} />
      </Form>
    </UrlDialog>
  );
}
