/**
 * The communication centre's forms (SPEC §5): quick send, a free-text reply inside the 24-hour
 * window, message templates and automation rules. Browser-safe; shared by the page, its action
 * and the JSON API.
 */
import { z } from "zod";
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import {
  SELECT_PATIENT_AND_TEMPLATE,
  TEMPLATE_BODY_MAX,
  TEMPLATE_VARIABLES,
  VARIABLE_MAX,
  isKnownVariable,
  unknownPlaceholders,
} from "~/lib/message-template";
import { cleanText, requiredText } from "./common";

export { SELECT_PATIENT_AND_TEMPLATE };

/** SPEC §8: what quick send says when the patient or the template is missing. */

const pickedId = z.preprocess((value) => parseId(value) ?? undefined, z.number({ error: SELECT_PATIENT_AND_TEMPLATE }));

/**
 * `{ medico: { nome: "…" } }` (a form's `variables.medico.nome` field as Conform reads it) or
 * `{ "medico.nome": "…" }` (the JSON API) alike → `{ "medico.nome": "…" }`.
 */
function flattenVariables(value: unknown, prefix = "", into: Record<string, unknown> = {}, depth = 0): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value) || depth > 3) return into;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (item && typeof item === "object" && !Array.isArray(item)) flattenVariables(item, name, into, depth + 1);
    else into[name] = item;
  }
  return into;
}

/** Quick send: `variables` holds the typed placeholders (the automatic ones are ignored if sent). */
export const quickSendSchema = z.object({
  patientId: pickedId,
  templateId: pickedId,
  variables: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((raw, ctx) => {
      const values: Record<string, string> = {};
      for (const [name, value] of Object.entries(flattenVariables(raw))) {
        if (!isKnownVariable(name) || name.startsWith("paciente.")) continue;
        if (value === undefined || value === null) continue;
        if (typeof value !== "string" && typeof value !== "number") {
          ctx.issues.push({ code: "custom", message: `Valor inválido para {{${name}}}`, input: value, path: [name] });
          continue;
        }
        const text = cleanText(String(value));
        if (text.length > VARIABLE_MAX) {
          ctx.issues.push({ code: "custom", message: `Use no máximo ${VARIABLE_MAX} caracteres`, input: value, path: [name] });
          continue;
        }
        values[name] = text;
      }
      return values;
    }),
});
export type QuickSendInput = z.infer<typeof quickSendSchema>;

/** A free-text reply, allowed only inside the patient's 24-hour customer-service window. */
export const replySchema = z.object({
  patientId: pickedId,
  text: z
    .string({ error: "Escreva a mensagem" })
    .transform((value) => cleanText(value, { multiline: true }))
    .pipe(z.string().min(1, "Escreva a mensagem").max(4096, "Use no máximo 4096 caracteres")),
});
export type ReplyInput = z.infer<typeof replySchema>;

const META_NAME = /^[a-z0-9_]{1,512}$/;
const META_LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;

/** A template (admins): a body whose {{placeholders}} are all known variables, mapped to Meta's name and language. */
export const templateSchema = z
  .object({
    title: requiredText("Informe o título do template", 120),
    category: z.enum(TEMPLATE_CATEGORIES, { error: "Escolha a categoria" }),
    status: z.enum(TEMPLATE_STATUSES, { error: "Escolha o status" }),
    body: z
      .string({ error: "Escreva o texto do template" })
      .transform((value) => cleanText(value, { multiline: true }))
      .pipe(
        z
          .string()
          .min(1, "Escreva o texto do template")
          .max(TEMPLATE_BODY_MAX, `Use no máximo ${TEMPLATE_BODY_MAX} caracteres`)
          .superRefine((body, ctx) => {
            const unknown = unknownPlaceholders(body);
            if (unknown.length) {
              ctx.addIssue({
                code: "custom",
                message: `Variável desconhecida: ${unknown.map((name) => `{{${name}}}`).join(", ")}. Use apenas: ${TEMPLATE_VARIABLES.map((name) => `{{${name}}}`).join(", ")}.`,
              });
            }
            if (/\{\{|\}\}/.test(body.replace(/\{\{\s*[^{}]*?\s*\}\}/g, ""))) {
              ctx.addIssue({ code: "custom", message: "Chaves {{ }} sem par: escreva cada variável como {{nome}}." });
            }
          }),
      ),
    metaName: z
      .string()
      .trim()
      .nullish()
      .transform((value) => value || null)
      .refine((value) => value === null || META_NAME.test(value), "Use só letras minúsculas, números e _ (como na Meta)"),
    metaLanguage: z
      .string()
      .trim()
      .nullish()
      .transform((value) => value || "pt_BR")
      .refine((value) => META_LANGUAGE.test(value), "Idioma inválido (ex.: pt_BR)"),
  })
  .superRefine((value, ctx) => {
    if (value.status === "aprovado" && !value.metaName) {
      ctx.addIssue({ code: "custom", path: ["metaName"], message: "Informe o nome do template aprovado na Meta" });
    }
  });
export type TemplateInput = z.infer<typeof templateSchema>;

/**
 * The rules a clinic needs (issue 13), each a trigger and an offset:
 * confirmation N hours before an appointment, follow-up N days after a completed one,
 * pre-op instructions N days before a surgery, a birthday greeting at a given hour.
 */
export const RULE_KINDS = ["appointment_reminder", "appointment_followup", "surgery_preop", "birthday"] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const RULE_KIND_LABELS: Record<RuleKind, string> = {
  appointment_reminder: "Confirmação de consulta (horas antes)",
  appointment_followup: "Acompanhamento pós-consulta (dias depois)",
  surgery_preop: "Orientações pré-operatórias (dias antes)",
  birthday: "Aniversário do paciente (hora do envio)",
};
export const RULE_AMOUNT: Record<RuleKind, { label: string; min: number; max: number }> = {
  appointment_reminder: { label: "Horas antes da consulta", min: 1, max: 168 },
  appointment_followup: { label: "Dias depois da consulta", min: 1, max: 90 },
  surgery_preop: { label: "Dias antes da cirurgia", min: 1, max: 30 },
  birthday: { label: "Hora do envio (0 a 23)", min: 0, max: 23 },
};

export const ruleSchema = z
  .object({
    name: requiredText("Informe o nome da regra", 120),
    templateId: z.preprocess((value) => parseId(value) ?? undefined, z.number({ error: "Escolha um template aprovado" })),
    kind: z.enum(RULE_KINDS, { error: "Escolha o tipo de regra" }),
    amount: z.coerce.number({ error: "Informe um número" }).int("Use um número inteiro"),
    enabled: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  })
  .superRefine((value, ctx) => {
    const { min, max } = RULE_AMOUNT[value.kind];
    if (value.amount < min || value.amount > max) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: `Use um valor de ${min} a ${max}` });
    }
  });
export type RuleInput = z.infer<typeof ruleSchema>;

export const toggleRuleSchema = z.object({
  enabled: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
});
