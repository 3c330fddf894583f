/**
 * Message templates' {{placeholders}} (SPEC §5): which a body uses, which fill themselves, and the
 * final text. Browser-safe: the quick-send preview and the server render with the same code.
 */

/** The variables a template may use (SPEC §5), in the order the quick-send form asks for them. */
export const TEMPLATE_VARIABLES = [
  "paciente.nome",
  "paciente.iniciais",
  "medico.nome",
  "data",
  "horario",
  "local",
  "procedimento",
  "link_confirmacao",
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** Filled from the patient record, never typed (SPEC §5). */
export const AUTOMATIC_VARIABLES: readonly string[] = ["paciente.nome", "paciente.iniciais"];

/** A short hint beside each typed variable's field (the field's label is the variable's name). */
export const VARIABLE_HINTS: Record<string, string> = {
  "medico.nome": "Nome do médico",
  data: "Data, ex.: 12/03/2026",
  horario: "Horário, ex.: 14:30",
  local: "Local do atendimento",
  procedimento: "Procedimento ou cirurgia",
  link_confirmacao: "Link de confirmação",
};

/** Body limit of a WhatsApp template (Meta). */
export const TEMPLATE_BODY_MAX = 1024;
/** What a typed variable may hold (a WhatsApp body parameter). */
export const VARIABLE_MAX = 500;
/** The recent-messages preview (SPEC §9). */
export const PREVIEW_LENGTH = 100;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Every placeholder of `body`, once each, in order of first appearance (Meta's {{1}}, {{2}} …). */
export function placeholdersOf(body: string): string[] {
  const found: string[] = [];
  for (const match of body.matchAll(PLACEHOLDER)) if (!found.includes(match[1])) found.push(match[1]);
  return found;
}

export function isKnownVariable(name: string): name is TemplateVariable {
  return (TEMPLATE_VARIABLES as readonly string[]).includes(name);
}

/** Placeholders of `body` that are not known variables (a template with any cannot be saved). */
export function unknownPlaceholders(body: string): string[] {
  return placeholdersOf(body).filter((name) => !isKnownVariable(name));
}

/** The placeholders a person must fill: every one not starting with 'paciente.' (SPEC §5). */
export function typedVariablesOf(body: string): string[] {
  return placeholdersOf(body).filter((name) => !name.startsWith("paciente."));
}

/** Up to two initials of a name (SPEC §9): 'Maria da Silva' → 'MS'. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter((word) => /^\p{L}/u.test(word) && !/^(da|de|do|das|dos|e)$/i.test(word));
  if (words.length === 0) return "";
  const first = words[0][0];
  const last = words.length > 1 ? words[words.length - 1][0] : "";
  return (first + last).toUpperCase();
}

/** The values of the automatic variables for a patient. */
export function patientVariables(patientName: string): Record<string, string> {
  return { "paciente.nome": patientName.trim(), "paciente.iniciais": initialsOf(patientName) };
}

/** Typed variables left empty. */
export function missingVariables(body: string, values: Record<string, string | undefined>): string[] {
  return typedVariablesOf(body).filter((name) => !values[name]?.trim());
}

/** The final text: each placeholder replaced by its value; one without a value stays visible as {{name}}. */
export function renderTemplate(body: string, values: Record<string, string | undefined>): string {
  return body.replace(PLACEHOLDER, (match, name: string) => {
    const value = values[name]?.trim();
    return value ? value : match;
  });
}

/**
 * The body parameters of the Meta template, in order: WhatsApp forbids new lines, tabs and more
 * than four spaces in a row inside a parameter, so whitespace is folded.
 */
export function templateParameters(body: string, values: Record<string, string | undefined>): string[] {
  return placeholdersOf(body).map((name) => (values[name] ?? "").replace(/\s+/g, " ").trim());
}

/** The first 100 characters of a body, with '…' when longer (SPEC §9). */
export function previewOf(body: string, length = PREVIEW_LENGTH): string {
  return body.length > length ? `${body.slice(0, length)}…` : body;
}

/** The form field of a typed variable (`variables.medico.nome`), read back by the quick-send schema. */
export function variableFieldName(name: string): string {
  return `variables.${name}`;
}

/** The quick send's message when the patient or the template is missing (the form and its schema). */
export const SELECT_PATIENT_AND_TEMPLATE = "Selecione um paciente e um template";
