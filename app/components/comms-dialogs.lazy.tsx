import { type SubmissionResult, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { formatDateTime } from "~/lib/dates";
import { TEMPLATE_CATEGORIES, TEMPLATE_CATEGORY_LABELS, TEMPLATE_STATUSES, TEMPLATE_STATUS_LABELS, enumOptions } from "~/lib/enums";
import { TEMPLATE_BODY_MAX, TEMPLATE_VARIABLES } from "~/lib/message-template";
import { RULE_AMOUNT, RULE_KINDS, RULE_KIND_LABELS, type RuleKind, replySchema, ruleSchema, templateSchema } from "~/validation/comms";

type LastResult = SubmissionResult<string[]> | undefined;

export interface TemplateDraft {
  id: number;
  title: string;
  category: string;
  status: string;
  body: string;
  metaName: string | null;
  metaLanguage: string;
}

/** Create or edit a template (admins): the body's {{placeholders}} are checked against the known variables. */
export function TemplateDialog({ template, closeTo, lastResult }: { template: TemplateDraft | null; closeTo: string; lastResult: LastResult }) {
  const [form, fields] = useForm({
    id: template ? `template-${template.id}` : "template-new",
    lastResult,
    defaultValue: template
      ? { ...template, metaName: template.metaName ?? "" }
      : { category: "agendamento", status: "rascunho", metaLanguage: "pt_BR" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: templateSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <UrlDialog title={template ? "Editar template" : "Novo template"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={template ? "update-template" : "create-template"} />
        {template ? <input type="hidden" name="id" value={template.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.title} label="Título" className="sm:col-span-2" autoComplete="off" required />
          <SelectField meta={fields.category} label="Categoria" options={enumOptions(TEMPLATE_CATEGORIES, TEMPLATE_CATEGORY_LABELS)} required />
          <SelectField meta={fields.status} label="Status" options={enumOptions(TEMPLATE_STATUSES, TEMPLATE_STATUS_LABELS)} required />
          <TextareaField
            meta={fields.body}
            label="Texto"
            className="sm:col-span-2"
            rows={6}
            maxLength={TEMPLATE_BODY_MAX}
            required
            hint={`Variáveis: ${TEMPLATE_VARIABLES.map((name) => `{{${name}}}`).join(" ")}. Na Meta, cada variável é um parâmetro {{1}}, {{2}}… na ordem em que aparece.`}
          />
          <Field
            meta={fields.metaName}
            label="Nome do template na Meta"
            placeholder="lembrete_consulta"
            autoComplete="off"
            hint="Obrigatório para templates aprovados."
          />
          <Field meta={fields.metaLanguage} label="Idioma na Meta" placeholder="pt_BR" autoComplete="off" />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={template ? "Salvar alterações" : "Criar template"} />
      </Form>
    </UrlDialog>
  );
}

export interface RuleDraft {
  id: number;
  name: string;
  templateId: number;
  enabled: boolean;
  form: { kind: RuleKind; amount: number } | null;
}

/** Create or edit an automation rule (admins): one of the four kinds, its amount and an approved template. */
export function RuleDialog({
  rule,
  templates,
  closeTo,
  lastResult,
}: {
  rule: RuleDraft | null;
  templates: readonly { id: number; title: string }[];
  closeTo: string;
  lastResult: LastResult;
}) {
  const [form, fields] = useForm({
    id: rule ? `rule-${rule.id}` : "rule-new",
    lastResult,
    defaultValue: rule
      ? { name: rule.name, templateId: String(rule.templateId), kind: rule.form?.kind ?? "", amount: String(rule.form?.amount ?? ""), enabled: rule.enabled ? "on" : "" }
      : { kind: "appointment_reminder", amount: "24", enabled: "on" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ruleSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const amountHint = RULE_KINDS.map((kind) => `${RULE_KIND_LABELS[kind]}: ${RULE_AMOUNT[kind].min}–${RULE_AMOUNT[kind].max}`).join(" · ");
  return (
    <UrlDialog title={rule ? "Editar regra" : "Nova regra"} closeTo={closeTo} maxWidth="xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={rule ? "update-rule" : "create-rule"} />
        {rule ? <input type="hidden" name="id" value={rule.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4">
          <Field meta={fields.name} label="Nome da regra" autoComplete="off" required />
          <SelectField meta={fields.kind} label="Tipo" options={RULE_KINDS.map((kind) => ({ value: kind, label: RULE_KIND_LABELS[kind] }))} placeholder="Selecione..." required />
          <Field meta={fields.amount} label="Quantidade (horas, dias ou hora do dia)" type="number" inputMode="numeric" hint={amountHint} required />
          <SelectField
            meta={fields.templateId}
            label="Template aprovado"
            options={templates.map((t) => ({ value: String(t.id), label: t.title }))}
            placeholder="Selecione..."
            required
          />
          <CheckboxField meta={fields.enabled} label="Regra ativa" />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={rule ? "Salvar alterações" : "Criar regra"} />
      </Form>
    </UrlDialog>
  );
}

/** A free-text reply to a patient who wrote in the last 24 hours; outside the window it says so. */
export function ReplyDialog({
  patient,
  conversation,
  window,
  closeTo,
  lastResult,
}: {
  patient: { id: number; name: string };
  conversation: { id: number; createdAt: Date; direction: "outbound" | "inbound"; body: string }[];
  window: { open: boolean; closesAt: Date | null };
  closeTo: string;
  lastResult: LastResult;
}) {
  const [form, fields] = useForm({
    id: `reply-${patient.id}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: replySchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <UrlDialog title={`Conversa com ${patient.name}`} closeTo={closeTo} maxWidth="2xl">
      <ol className="max-h-72 space-y-2 overflow-y-auto" aria-label="Conversa">
        {conversation.map((m) => (
          <li key={m.id} className={m.direction === "inbound" ? "mr-10 rounded-md bg-muted p-2 text-sm" : "ml-10 rounded-md border p-2 text-sm"}>
            <p className="whitespace-pre-wrap">{m.body}</p>
            <p className="mt-1 text-xs text-muted-foreground">
              {m.direction === "inbound" ? "Paciente" : "Clínica"} · {formatDateTime(m.createdAt)}
            </p>
          </li>
        ))}
      </ol>
      {window.open ? (
        <Form method="post" {...getFormProps(form)} className="space-y-3" preventScrollReset>
          <input type="hidden" name="intent" value="reply" />
          <input type="hidden" name="patientId" value={patient.id} />
          <FormErrors errors={form.errors} id={form.errorId} />
          <TextareaField meta={fields.text} label="Resposta" rows={3} required hint={`Janela de atendimento aberta até ${formatDateTime(window.closesAt)}.`} />
          <FormDialogFooter closeTo={closeTo} submitLabel="Responder" />
        </Form>
      ) : (
        <p role="status" className="rounded-md border p-3 text-sm">
          A janela de 24 horas está fechada: o paciente não escreve há mais de 24 horas. Use o envio rápido com um template aprovado.
        </p>
      )}
    </UrlDialog>
  );
}
