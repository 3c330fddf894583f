import { type SubmissionResult, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { FormErrors, SelectField } from "~/components/form-field";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { CONSENT_PURPOSE_DESCRIPTIONS, CONSENT_PURPOSE_LABELS, CONSENT_SOURCE_LABELS, CONSENT_SOURCES, type ConsentPurpose } from "~/lib/consents";
import { formatDateTime } from "~/lib/dates";
import { enumOptions } from "~/lib/enums";
import { consentSchema } from "~/validation/consent";

interface ConsentEventView {
  granted: boolean;
  source: keyof typeof CONSENT_SOURCE_LABELS;
  at: Date | string;
  recordedBy: string | null;
}

function eventText(event: ConsentEventView): string {
  return `${event.granted ? "Autorizado" : "Revogado"} em ${formatDateTime(event.at)} · ${CONSENT_SOURCE_LABELS[event.source]}`;
}

/** The record's 'Consentimentos' card: each purpose, its current state, and a link to record a decision. */
export function ConsentsCard({
  consents,
  hrefFor,
}: {
  consents: { purpose: ConsentPurpose; current: ConsentEventView | null }[];
  /** The dialog's URL for a purpose; null when the user may not record consents. */
  hrefFor: ((purpose: ConsentPurpose) => string) | null;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Consentimentos</CardTitle>
        <CardDescription>Cada autorização ou revogação fica registrada com data e origem; o histórico não é apagado.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y text-sm" aria-label="Consentimentos do paciente">
          {consents.map(({ purpose, current }) => (
            <li key={purpose} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid="consent" data-purpose={purpose}>
              <span className="min-w-0 flex-1 font-medium">{CONSENT_PURPOSE_LABELS[purpose]}</span>
              <Badge variant={current?.granted ? "success" : "outline"}>
                {current ? (current.granted ? "Autorizado" : "Revogado") : "Não registrado"}
              </Badge>
              {current ? <span className="w-full text-xs text-muted-foreground">{eventText(current)}</span> : null}
              {hrefFor ? (
                <Link to={hrefFor(purpose)} preventScrollReset className="text-xs font-medium underline underline-offset-4" aria-label={`Registrar: ${CONSENT_PURPOSE_LABELS[purpose]}`}>
                  Registrar
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

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
