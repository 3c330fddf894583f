import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, SelectField } from "~/components/form-field";
import { MEDICAL_CODE_TYPES, MEDICAL_CODE_TYPE_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { centsToReaisInput } from "~/lib/money";
import { medicalCodeFields, medicalCodeSchema } from "~/validation/master-data";
import { type TabData, lastResultFor } from "./shared";

type Data = TabData<"codes">;

const TYPE_OPTIONS = enumOptions(MEDICAL_CODE_TYPES, MEDICAL_CODE_TYPE_LABELS);

export function CodeDialog({ code, closeTo, lastResult }: { code: Data["editing"]; closeTo: string; lastResult: ReturnType<typeof lastResultFor> }) {
  const [form, fields] = useForm({
    id: code ? `code-${code.id}` : "code-new",
    lastResult,
    defaultValue: code
      ? {
          ...code,
          priceCents: code.priceCents === null ? "" : centsToReaisInput(code.priceCents),
          assistantsCount: code.assistantsCount ?? "",
          anestheticPorte: code.anestheticPorte ?? "",
          active: code.active ? "on" : "",
        }
      : { type: "cbhpm", active: "on" },
    constraint: getZodConstraint(medicalCodeFields),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: medicalCodeSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <UrlDialog title={code ? "Editar Código" : "Novo Código"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={code ? "update" : "create"} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          {code ? (
            <>
              {/* Code and type never change once saved (SPEC §5); the server refuses a form that sends others. */}
              <input type="hidden" name="id" value={code.id} />
              <input type="hidden" name="type" value={code.type} />
              <input type="hidden" name="code" value={code.code} />
              <div className="space-y-1 text-sm">
                <p className="font-medium">Tipo</p>
                <p>{labelFor(MEDICAL_CODE_TYPE_LABELS, code.type)}</p>
              </div>
              <div className="space-y-1 text-sm">
                <p className="font-medium">Código</p>
                <p>{code.code}</p>
                {fields.code.errors ? <p className="text-destructive" role="alert">{fields.code.errors.join(" ")}</p> : null}
              </div>
            </>
          ) : (
            <>
              <SelectField meta={fields.type} label="Tipo" options={TYPE_OPTIONS} />
              <Field meta={fields.code} label="Código" autoComplete="off" autoFocus hint="CBHPM e TUSS: 8 dígitos; CID-10: ex. M51.1" />
            </>
          )}
          <Field meta={fields.description} label="Descrição" className="sm:col-span-2" />
          <Field meta={fields.category} label="Categoria" />
          <Field meta={fields.priceCents} label="Valor (R$)" inputMode="decimal" placeholder="0,00" />
        </div>
        <fieldset className="grid gap-4 rounded-md border p-3 sm:grid-cols-3">
          <legend className="px-1 text-sm font-medium">CBHPM</legend>
          <Field meta={fields.porte} label="Porte" placeholder="10A" />
          <Field meta={fields.assistantsCount} label="Nº de auxiliares" type="number" min={0} max={4} step={1} />
          <Field meta={fields.anestheticPorte} label="Porte anestésico" type="number" min={0} max={8} step={1} />
        </fieldset>
        <CheckboxField meta={fields.active} label="Ativo" />
        <FormDialogFooter closeTo={closeTo} submitLabel={code ? "Salvar alterações" : "Cadastrar código"} />
      </Form>
    </UrlDialog>
  );
}
