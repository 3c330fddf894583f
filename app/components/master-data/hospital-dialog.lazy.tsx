import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { BRAZIL_UFS, formatCnpj, formatPhone } from "~/lib/documents";
import { HOSPITAL_TYPES, HOSPITAL_TYPE_LABELS, enumOptions } from "~/lib/enums";
import { hospitalSchema } from "~/validation/master-data";
import { type TabData, lastResultFor } from "./shared";

type Data = TabData<"hospitals">;

const TYPE_OPTIONS = enumOptions(HOSPITAL_TYPES, HOSPITAL_TYPE_LABELS);
const UF_OPTIONS = BRAZIL_UFS.map((uf) => ({ value: uf, label: uf }));

export function HospitalDialog({
  hospital,
  closeTo,
  lastResult,
}: {
  hospital: Data["editing"];
  closeTo: string;
  lastResult: ReturnType<typeof lastResultFor>;
}) {
  const [form, fields] = useForm({
    id: hospital ? `hospital-${hospital.id}` : "hospital-new",
    lastResult,
    defaultValue: hospital
      ? {
          ...hospital,
          cnpj: hospital.cnpj ? formatCnpj(hospital.cnpj) : "",
          contactPhone: hospital.contactPhone ? formatPhone(hospital.contactPhone) : "",
          active: hospital.active ? "on" : "",
        }
      : { type: "private", active: "on" },
    constraint: getZodConstraint(hospitalSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: hospitalSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <UrlDialog title={hospital ? "Editar Hospital" : "Novo Hospital"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={hospital ? "update" : "create"} />
        {hospital ? <input type="hidden" name="id" value={hospital.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.name} label="Nome" className="sm:col-span-2" autoComplete="off" autoFocus />
          <SelectField meta={fields.type} label="Tipo" options={TYPE_OPTIONS} />
          <Field meta={fields.accreditation} label="Acreditação" placeholder="ONA, JCI…" />
          <Field meta={fields.cnpj} label="CNPJ" placeholder="00.000.000/0000-00" />
          <Field meta={fields.cnes} label="CNES" inputMode="numeric" placeholder="0000000" hint="7 dígitos" />
          <Field meta={fields.address} label="Endereço" className="sm:col-span-2" />
          <Field meta={fields.city} label="Cidade" />
          <SelectField meta={fields.state} label="UF" options={UF_OPTIONS} placeholder="Selecione..." />
          <Field meta={fields.postalCode} label="CEP" inputMode="numeric" placeholder="00000-000" />
          <Field meta={fields.contactPhone} label="Telefone de contato" type="tel" placeholder="(00) 00000-0000" />
          <Field meta={fields.contactEmail} label="E-mail de contato" type="email" className="sm:col-span-2" />
          <TextareaField meta={fields.notes} label="Observações" rows={3} className="sm:col-span-2" />
          <CheckboxField meta={fields.active} label="Ativo" className="sm:col-span-2" />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={hospital ? "Salvar alterações" : "Cadastrar hospital"} />
      </Form>
    </UrlDialog>
  );
}
