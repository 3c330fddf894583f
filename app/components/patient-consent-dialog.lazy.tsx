import { type SubmissionResult, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { FormErrors, SelectField } from "~/components/form-field";
import { type ConsentEventView, eventText } from "~/components/patient-consents";
import { CONSENT_PURPOSE_DESCRIPTIONS, CONSENT_PURPOSE_LABELS, CONSENT_SOURCE_LABELS, CONSENT_SOURCES, type ConsentPurpose } from "~/lib/consents";
import { enumOptions } from "~/lib/enums";
import { consentSchema } from "~/validation/consent";

/** Records a decision for one purpose (a new row; earlier ones stay) and shows the purpose's history. */
export function ConsentDialog({
  purpose,
  history,
  historyLimit,
  closeTo,
  lastResult,
}: {
  purpose: ConsentPurpose;
  history: ConsentEventView[];
  historyLimit: number;
  closeTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: `consent-${purpose}`,
    lastResult,
    defaultValue: { purpose, granted: history[0]?.granted === false ? "sim" : history[0] ? "nao" : "sim", source: "formulario" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: consentSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <UrlDialog title={`Consentimento: ${CONSENT_PURPOSE_LABELS[purpose]}`} description={CONSENT_PURPOSE_DESCRIPTIONS[purpose]} closeTo={closeTo}>
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value="record-consent" />
        <input type="hidden" name="purpose" value={purpose} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            meta={fields.granted}
            label="Decisão do paciente"
            options={[
              { value: "sim", label: "Autoriza" },
              { value: "nao", label: "Revoga / não autoriza" },
            ]}
            required
          />
          <SelectField meta={fields.source} label="Origem" options={enumOptions(CONSENT_SOURCES, CONSENT_SOURCE_LABELS)} required />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel="Registrar" />
      </Form>
      <section aria-label="Histórico do consentimento" className="mt-4 space-y-2">
        <h3 className="text-sm font-semibold">Histórico</h3>
        {history.length ? (
          <ol className="divide-y rounded-md border text-sm">
            {history.map((event, index) => (
              <li key={index} className="px-3 py-2">
                {eventText(event)}
                {event.recordedBy ? <span className="text-muted-foreground"> · por {event.recordedBy}</span> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-muted-foreground">Nenhuma decisão registrada.</p>
        )}
        {history.length >= historyLimit ? <p className="text-xs text-muted-foreground">Mostrando as {historyLimit} decisões mais recentes.</p> : null}
      </section>
    </UrlDialog>
  );
}
