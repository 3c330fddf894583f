import { Send } from "~/components/icons";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Form } from "react-router";
import { useBusy } from "~/lib/use-busy";
import { DefaultSubmitButton, PatientPicker } from "~/components/entity-picker";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import type { Toast } from "~/lib/toast";
import { useToastEffect } from "~/lib/use-toast-effect";
import {
  VARIABLE_HINTS,
  VARIABLE_MAX,
  missingVariables,
  patientVariables,
  renderTemplate,
  typedVariablesOf,
  variableFieldName,
} from "~/lib/message-template";
import { parseId } from "~/lib/list-params";
import type { PickerOption } from "~/lib/picker-options";
import { SELECT_PATIENT_AND_TEMPLATE } from "~/lib/message-template";

export interface QuickSendTemplate {
  id: number;
  title: string;
  body: string;
}

export interface QuickSendDraft {
  patientId: number | null;
  patientQ: string;
  templateId: number | null;
  variables: Record<string, string>;
}

/**
 * Quick send (SPEC §2, §5): a patient picked out of all patients, an approved template, its typed
 * variables, and the final text as it will arrive. Without JavaScript the picker's 'Buscar' and
 * 'Carregar template' are GET round trips that render the fields and the preview on the server.
 */
export function QuickSendCard({
  templates,
  patientOptions,
  draft,
  patientName,
  consent,
  error,
  keep,
}: {
  templates: readonly QuickSendTemplate[];
  patientOptions: readonly PickerOption[];
  draft: QuickSendDraft;
  /** The chosen patient's name, as the server knows it (the preview's {{paciente.nome}}). */
  patientName: string | null;
  /** The chosen patient's consent, shown under the picker. */
  consent: string | null;
  /** The server's refusal of the last send. */
  error: string | null;
  /** Query parameters the GET round trips keep (the tab). */
  keep: Record<string, string>;
}) {
  const id = useId();
  const [templateId, setTemplateId] = useState<number | null>(draft.templateId);
  const [values, setValues] = useState<Record<string, string>>(draft.variables);
  const [patientId, setPatientId] = useState<number | null>(draft.patientId);
  const [name, setName] = useState<string | null>(patientName);
  const [problem, setProblem] = useState<string | null>(null);
  const [toast, setToast] = useState<Toast | null>(null);
  useToastEffect(toast);
  const busy = useBusy("send");

  // The preview names the patient: ask the API for the name once a patient is chosen.
  const asked = useRef<number | null>(draft.patientId);
  useEffect(() => {
    if (patientId === asked.current) return;
    asked.current = patientId;
    if (!patientId) {
      setName(null);
      return;
    }
    const controller = new AbortController();
    fetch(`/api/patients/${patientId}`, { signal: controller.signal, headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((body: { patient?: { name?: unknown } }) => setName(typeof body.patient?.name === "string" ? body.patient.name : null))
      .catch((failure: unknown) => {
        if ((failure as Error).name !== "AbortError") setToast({ type: "error", message: "Erro ao carregar paciente" });
      });
    return () => controller.abort();
  }, [patientId]);

  const template = templates.find((t) => t.id === templateId) ?? null;
  const typed = template ? typedVariablesOf(template.body) : [];
  const filled = { ...values, ...(name ? patientVariables(name) : {}) };
  const preview = template ? renderTemplate(template.body, filled) : null;
  const shownError = problem ?? error;

  function onFormInput(event: FormEvent<HTMLFormElement>) {
    const target = event.target as HTMLInputElement;
    if (target.name === "patientId") setPatientId(Number(target.value) || null);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.formMethod === "get") return;
    const form = new FormData(event.currentTarget);
    const chosenPatient = Number(form.get("patientId")) || null;
    if (!chosenPatient || !template) {
      event.preventDefault();
      setProblem(SELECT_PATIENT_AND_TEMPLATE);
      setToast({ type: "error", message: SELECT_PATIENT_AND_TEMPLATE });
      return;
    }
    const missing = missingVariables(template.body, values);
    if (missing.length) {
      event.preventDefault();
      const message = `Preencha as variáveis: ${missing.join(", ")}.`;
      setProblem(message);
      setToast({ type: "error", message });
      return;
    }
    setProblem(null);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-base">
          Envio rápido
        </CardTitle>
        <CardDescription>Escolha o paciente e um template aprovado; as variáveis do paciente são preenchidas sozinhas.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="space-y-4" onInput={onFormInput} onChange={onFormInput} onSubmit={onSubmit} preventScrollReset aria-label="Envio rápido">
          <DefaultSubmitButton label="Enviar mensagem" />
          <input type="hidden" name="intent" value="send" />
          {Object.entries(keep).map(([key, value]) => (
            <input key={key} type="hidden" name={key} value={value} />
          ))}
          {shownError ? (
            <Alert variant="destructive">
              <AlertDescription>{shownError}</AlertDescription>
            </Alert>
          ) : null}
          <div className="grid gap-4 md:grid-cols-2">
            <div className="space-y-1">
              <PatientPicker
                options={patientOptions}
                defaultValue={draft.patientId}
                searchDefault={draft.patientQ}
                searchPlaceholder="Nome, CPF ou telefone..."
                required
              />
              {consent ? <p className="text-xs text-muted-foreground">{consent}</p> : null}
            </div>
            <div className="space-y-2">
              <Label htmlFor={`${id}-template`}>
                Template aprovado
                <span aria-hidden="true" className="text-destructive">
                  {" "}*
                </span>
              </Label>
              <Select
                id={`${id}-template`}
                name="templateId"
                value={templateId ? String(templateId) : ""}
                onChange={(event) => setTemplateId(Number(event.currentTarget.value) || null)}
              >
                <option value="">{templates.length ? "Selecione..." : "Nenhum template aprovado"}</option>
                {templates.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.title}
                  </option>
                ))}
              </Select>
              <noscript>
                <Button type="submit" formMethod="get" formNoValidate name="picker" value="template" variant="outline" size="sm">
                  Carregar template e prévia
                </Button>
              </noscript>
            </div>
          </div>

          {typed.length ? (
            <fieldset className="grid gap-3 sm:grid-cols-2">
              <legend className="mb-2 text-sm font-medium">Variáveis do template</legend>
              {typed.map((variable) => (
                <div key={variable} className="space-y-1.5">
                  <Label htmlFor={`${id}-${variable}`}>{variable}</Label>
                  <Input
                    id={`${id}-${variable}`}
                    name={variableFieldName(variable)}
                    value={values[variable] ?? ""}
                    maxLength={VARIABLE_MAX}
                    placeholder={VARIABLE_HINTS[variable]}
                    aria-invalid={shownError && !values[variable]?.trim() ? true : undefined}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setValues((current) => ({ ...current, [variable]: value }));
                    }}
                  />
                </div>
              ))}
            </fieldset>
          ) : null}

          <section aria-label="Prévia da mensagem" className="space-y-1.5">
            <h3 className="text-sm font-medium">Prévia</h3>
            <p
              data-testid="quick-send-preview"
              aria-live="polite"
              className="min-h-16 rounded-md border bg-muted/40 p-3 text-sm whitespace-pre-wrap"
            >
              {preview ?? <span className="text-muted-foreground">Selecione um template para ver a mensagem.</span>}
            </p>
          </section>

          <div className="flex justify-end">
            <Button type="submit" disabled={busy}>
              <Send aria-hidden />
              {busy ? "Enviando..." : "Enviar mensagem"}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The quick-send fields a refused POST sent, to show them again. */
function draftFromResult(initial: Record<string, unknown> | null | undefined, fallback: QuickSendDraft): QuickSendDraft {
  if (!initial) return fallback;
  const variables: Record<string, string> = {};
  const walk = (value: unknown, prefix: string) => {
    if (typeof value === "string") variables[prefix] = value;
    else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) walk(item, prefix ? `${prefix}.${key}` : key);
  };
  walk(initial.variables, "");
  return {
    patientId: parseId(initial.patientId) ?? fallback.patientId,
    patientQ: typeof initial.patientQ === "string" ? initial.patientQ : fallback.patientQ,
    templateId: parseId(initial.templateId),
    variables,
  };
}

/** A refused POST of the screen's action, as its page receives it. */
export interface RefusedForm {
  intent: string;
  result?: { initialValue?: Record<string, unknown> | null } | null;
  toast?: Toast;
}

/** The draft and error a QuickSendCard shows: the refused send's fields and message again, else the loader's draft. */
export function quickSendRetry(failed: RefusedForm | undefined, draft: QuickSendDraft): { draft: QuickSendDraft; error: string | null } {
  if (failed?.intent !== "send") return { draft, error: null };
  return { draft: draftFromResult(failed.result?.initialValue, draft), error: failed.toast?.message ?? "Erro ao enviar mensagem" };
}
