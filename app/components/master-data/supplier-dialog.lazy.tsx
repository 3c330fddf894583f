import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { formatCnpj, formatPhone } from "~/lib/documents";
import { SUPPLIER_TYPES, SUPPLIER_TYPE_LABELS, enumOptions } from "~/lib/enums";
import { supplierSchema } from "~/validation/master-data";
import { type TabData, lastResultFor } from "./shared";

type Data = TabData<"suppliers">;

const TYPE_OPTIONS = enumOptions(SUPPLIER_TYPES, SUPPLIER_TYPE_LABELS);

export function SupplierDialog({
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
