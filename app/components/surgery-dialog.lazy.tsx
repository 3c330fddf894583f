import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { DefaultSubmitButton, DoctorPicker, PatientPicker, PickerRoundTripFields, pickedId } from "~/components/entity-picker";
import { Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { formatDateTime } from "~/lib/dates";
import { SURGERY_FILTER_PARAMS as FILTER_PARAMS, SURGERY_STAGE_OPTIONS as STAGE_OPTIONS, SURGERY_STATUS_OPTIONS as STATUS_OPTIONS } from "~/lib/form-options";
import { stageLabel } from "~/lib/pipeline";
import { OTHER_CHOICE, surgerySchema } from "~/validation/surgery";
import type { Route } from "../routes/+types/surgeries";
import { useHydrated } from "~/lib/use-hydrated";

/** The create/edit dialog of /surgeries, with its pickers, Cadastros selects and stage history. */

type LoaderData = Route.ComponentProps["loaderData"];

/** The list's own filters, kept by links, dialogs and redirects (besides q, page, sort, dir). */

/** Everything that makes up the list's URL state (kept through the dialog's picker round trip). */
const LIST_PARAMS = ["q", "page", "sort", "dir", ...FILTER_PARAMS] as const;

const validateSurgery = (formData: FormData) => parseWithZod(formData, { schema: surgerySchema });


export function SurgeryDialog({
  surgery,
  history,
  form: data,
  closeTo,
  lastResult,
}: {
  surgery: LoaderData["editing"];
  history: LoaderData["history"];
  form: NonNullable<LoaderData["form"]>;
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: surgery ? `surgery-${surgery.id}` : "surgery-new",
    lastResult,
    defaultValue: data.defaults,
    constraint: getZodConstraint(surgerySchema),
    onValidate: ({ formData }) => validateSurgery(formData),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const showHospitalName = !hydrated || fields.hospitalId.value === OTHER_CHOICE;
  const showPayerName = !hydrated || fields.payerId.value === OTHER_CHOICE;

  return (
    <UrlDialog title={surgery ? "Edit Surgery" : "Add New Surgery"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <DefaultSubmitButton />
        <input type="hidden" name="intent" value={surgery ? "update" : "create"} />
        {surgery ? <input type="hidden" name="id" value={surgery.id} /> : null}
        <PickerRoundTripFields editId={surgery?.id} keep={LIST_PARAMS} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <PatientPicker
            options={data.patientOptions}
            defaultValue={pickedId(fields.patientId.initialValue, data.defaults.patientId)}
            searchDefault={data.patientQ}
            searchPlaceholder="Nome ou CPF..."
            errors={fields.patientId.errors}
            errorId={fields.patientId.errorId}
            required
          />
          <DoctorPicker
            options={data.doctorOptions}
            defaultValue={pickedId(fields.doctorId.initialValue, data.defaults.doctorId)}
            searchDefault={data.doctorQ}
            searchPlaceholder="Nome ou especialidade..."
            errors={fields.doctorId.errors}
            errorId={fields.doctorId.errorId}
            required
          />
          <Field
            meta={fields.surgeryType}
            label="Tipo de cirurgia"
            className="sm:col-span-2"
            placeholder="Ex.: Artrodese lombar L4-L5"
            autoComplete="off"
          />
          <Field meta={fields.scheduledDate} label="Data e hora" type="datetime-local" hint="Horário de Brasília (São Paulo)." />
          <Field
            meta={fields.estimatedDurationMin}
            label="Duração estimada (min)"
            type="number"
            min={1}
            max={1440}
            step={1}
            inputMode="numeric"
            placeholder="120"
          />
          <SelectField meta={fields.surgeryStatus} label="Status" options={STATUS_OPTIONS} />
          <SelectField
            meta={fields.currentStage}
            label="Etapa"
            options={STAGE_OPTIONS}
            hint="Concluído e Cancelado ajustam o status, salvo se você o mudar."
          />
          <div className="grid content-start gap-4">
            <SelectField
              meta={fields.hospitalId}
              label="Hospital"
              options={[...data.hospitalOptions, { value: OTHER_CHOICE, label: "Outro (digitar o nome)" }]}
              placeholder="Não definido"
            />
            {showHospitalName ? (
              <Field
                meta={fields.hospitalName}
                label="Nome do hospital"
                hint={hydrated ? undefined : "Preencha apenas se escolheu Outro."}
                autoComplete="off"
              />
            ) : null}
          </div>
          <div className="grid content-start gap-4">
            <SelectField
              meta={fields.payerId}
              label="Pagador"
              options={[...data.payerOptions, { value: OTHER_CHOICE, label: "Outro (digitar o nome)" }]}
              placeholder="Não definido"
            />
            {showPayerName ? (
              <Field
                meta={fields.payerName}
                label="Nome do pagador"
                hint={hydrated ? undefined : "Preencha apenas se escolheu Outro."}
                autoComplete="off"
              />
            ) : null}
          </div>
          <Field meta={fields.guideNumber} label="Número da guia" autoComplete="off" />
          <Field meta={fields.billedAmount} label="Valor faturado (R$)" inputMode="decimal" placeholder="0,00" autoComplete="off" />
          <TextareaField meta={fields.notes} label="Observações" className="sm:col-span-2" rows={3} />
        </div>
        {surgery && history.length > 0 ? <StageHistory history={history} /> : null}
        <FormDialogFooter closeTo={closeTo} submitLabel={surgery ? "Salvar alterações" : "Agendar cirurgia"} />
      </Form>
    </UrlDialog>
  );
}

function StageHistory({ history }: { history: LoaderData["history"] }) {
  return (
    <details className="rounded-md border p-3 text-sm">
      <summary className="cursor-pointer font-medium">Histórico de etapas</summary>
      <ol className="mt-2 space-y-1 text-muted-foreground">
        {history.map((move) => (
          <li key={move.id}>
            <span className="tabular-nums">{formatDateTime(move.createdAt)}</span> —{" "}
            {move.fromStage ? `${stageLabel(move.fromStage)} → ` : "Início em "}
            <span className="text-foreground">{stageLabel(move.stage)}</span>
            {move.movedByName ? ` (por ${move.movedByName})` : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

