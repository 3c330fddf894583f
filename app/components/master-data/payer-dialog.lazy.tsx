import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { formatCnpj, formatPhone } from "~/lib/documents";
import { TISS_VERSIONS } from "~/lib/receivables";
import { CBHPM_BANDS, CBHPM_BAND_LABELS, PAYER_TYPES, PAYER_TYPE_LABELS, enumOptions } from "~/lib/enums";
import { payerSchema } from "~/validation/master-data";
import { type TabData, lastResultFor } from "./shared";

type Data = TabData<"payers">;

const TYPE_OPTIONS = enumOptions(PAYER_TYPES, PAYER_TYPE_LABELS);
const BAND_OPTIONS = enumOptions(CBHPM_BANDS, CBHPM_BAND_LABELS);
const TISS_VERSION_OPTIONS = TISS_VERSIONS.map((version) => ({ value: version, label: version }));

export function PayerDialog({
  payer,
  closeTo,
  lastResult,
}: {
  payer: Data["editing"];
  closeTo: string;
  lastResult: ReturnType<typeof lastResultFor>;
}) {
  const [form, fields] = useForm({
    id: payer ? `payer-${payer.id}` : "payer-new",
    lastResult,
    defaultValue: payer
      ? {
          ...payer,
          cnpj: payer.cnpj ? formatCnpj(payer.cnpj) : "",
          contactPhone: payer.contactPhone ? formatPhone(payer.contactPhone) : "",
          tissVersion: payer.tissVersion ?? TISS_VERSIONS[0],
          active: payer.active ? "on" : "",
        }
      : {
          type: "insurance",
          paymentTermsDays: "30",
          coveragePercentage: "100",
          assistant1FeePercent: "60",
          assistant2FeePercent: "40",
          assistant3FeePercent: "30",
          assistant4FeePercent: "30",
          multipleSameRoutePercent: "50",
          multipleOtherRoutePercent: "70",
          urgencySurchargePercent: "30",
          cbhpmBand: "original",
          tissVersion: TISS_VERSIONS[0],
          active: "on",
        },
    constraint: getZodConstraint(payerSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: payerSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <UrlDialog title={payer ? "Editar Pagador" : "Novo Pagador"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={payer ? "update" : "create"} />
        {payer ? <input type="hidden" name="id" value={payer.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.name} label="Nome" className="sm:col-span-2" autoComplete="off" autoFocus />
          <SelectField meta={fields.type} label="Tipo" options={TYPE_OPTIONS} />
          <Field meta={fields.cnpj} label="CNPJ" placeholder="00.000.000/0000-00" />
          <Field meta={fields.ansRegistration} label="Registro ANS" inputMode="numeric" placeholder="000000" hint="6 dígitos; só para convênios" />
          <Field meta={fields.contactEmail} label="E-mail de contato" type="email" />
          <Field meta={fields.contactPhone} label="Telefone de contato" type="tel" placeholder="(00) 00000-0000" />
          <Field meta={fields.paymentTermsDays} label="Prazo de pagamento (dias)" type="number" min={0} max={365} step={1} />
          <Field meta={fields.coveragePercentage} label="Cobertura (%)" type="number" min={0} max={100} step={0.01} />
        </div>
        <fieldset className="grid gap-4 rounded-md border p-3 sm:grid-cols-4">
          <legend className="px-1 text-sm font-medium">Regras de honorários</legend>
          <Field meta={fields.assistant1FeePercent} label="1º auxiliar (%)" type="number" min={0} max={100} step={1} />
          <Field meta={fields.assistant2FeePercent} label="2º auxiliar (%)" type="number" min={0} max={100} step={1} />
          <Field meta={fields.assistant3FeePercent} label="3º auxiliar (%)" type="number" min={0} max={100} step={1} />
          <Field meta={fields.assistant4FeePercent} label="4º auxiliar (%)" type="number" min={0} max={100} step={1} />
          <Field meta={fields.multipleSameRoutePercent} label="Múltiplos, mesma via (%)" type="number" min={0} max={100} step={1} className="sm:col-span-2" />
          <Field meta={fields.multipleOtherRoutePercent} label="Múltiplos, outra via (%)" type="number" min={0} max={100} step={1} className="sm:col-span-2" />
          <Field meta={fields.urgencySurchargePercent} label="Urgência (%)" type="number" min={0} max={100} step={1} className="sm:col-span-2" />
          <Field meta={fields.cbhpmEdition} label="Edição CBHPM" placeholder="2022" />
          <SelectField meta={fields.cbhpmBand} label="Faixa CBHPM" options={BAND_OPTIONS} />
        </fieldset>
        <fieldset className="grid gap-4 rounded-md border p-3 sm:grid-cols-2">
          <legend className="px-1 text-sm font-medium">Faturamento TISS</legend>
          <SelectField meta={fields.tissVersion} label="Versão TISS" options={TISS_VERSION_OPTIONS} />
          <Field
            meta={fields.tissProviderCode}
            label="Código do prestador na operadora"
            autoComplete="off"
            hint="Até 14 caracteres; necessário para gerar as Guias de Honorários"
          />
        </fieldset>
        <TextareaField meta={fields.notes} label="Observações" rows={3} />
        <CheckboxField meta={fields.active} label="Ativo" />
        <FormDialogFooter closeTo={closeTo} submitLabel={payer ? "Salvar alterações" : "Cadastrar pagador"} />
      </Form>
    </UrlDialog>
  );
}
