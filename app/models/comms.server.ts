import { and, count, eq } from "drizzle-orm";
import { automationRules, googleDriveFiles, patients } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { cachedUntilWrite } from "~/.server/data-cache";
import { db } from "~/.server/db";
import { type SessionUser, assertCan } from "~/.server/auth";
import { DomainError } from "~/.server/domain-error";
import { notFound } from "~/.server/responses";
import { isMobile, whatsappConfig, whatsappNumber } from "~/.server/whatsapp";
import { formatDateTime } from "~/lib/dates";
import { parseId } from "~/lib/list-params";
import { isKnownVariable, missingVariables, patientVariables, renderTemplate, templateParameters } from "~/lib/message-template";
import type { QuickSendInput, ReplyInput } from "~/validation/comms";
import { getRule } from "./automation.server";
import { consentOf, conversation, countSentSince, customerWindow, queueMessage } from "./message.server";
import { patientPickerOptions } from "./picker-options.server";
import { getTemplate } from "./template.server";

/**
 * Sending to patients (quick send, replies) with the rules that protect them: an approved template,
 * every variable filled, the patient's consent (opt-in) and a mobile number; free text only inside
 * the 24-hour window. The screen and the JSON API both come through here.
 */
export class SendError extends DomainError<"patientId" | "templateId" | "variables" | "text"> {
  constructor(
    message: string,
    field?: "patientId" | "templateId" | "variables" | "text",
    /** 404 for a patient or template that does not exist, else 400. */
    readonly status = 400,
    /** The typed variables still empty, for the form to mark. */
    readonly missing: string[] = [],
  ) {
    super(message, field);
  }
}

export const SEND_MESSAGES = {
  patientNotFound: "Paciente não encontrado.",
  templateNotFound: "Template não encontrado.",
  notApproved: "Só templates aprovados podem ser enviados.",
  notMapped: "Este template não está vinculado a um template aprovado na Meta (nome e idioma).",
  noOptIn: "O paciente não autorizou mensagens por WhatsApp (opt-in). Registre o consentimento no cadastro do paciente.",
  noMobile: "O paciente não tem um celular cadastrado para receber WhatsApp.",
  missing: (names: string[]) => `Preencha as variáveis: ${names.join(", ")}.`,
  windowClosed: "A janela de 24 horas está fechada: o paciente não escreve há mais de 24 horas. Use um template aprovado.",
} as const;

function recipient(patientId: number) {
  const patient = db
    .select({ id: patients.id, name: patients.name, phone: patients.phone, optIn: patients.whatsappOptIn })
    .from(patients)
    .where(eq(patients.id, patientId))
    .get();
  if (!patient) throw new SendError(SEND_MESSAGES.patientNotFound, "patientId", 404);
  return patient;
}

function assertReachable(patient: { optIn: boolean; phone: string | null }): string {
  if (!patient.optIn) throw new SendError(SEND_MESSAGES.noOptIn, "patientId");
  if (!isMobile(patient.phone)) throw new SendError(SEND_MESSAGES.noMobile, "patientId");
  return whatsappNumber(patient.phone);
}

/** Quick send: queues an approved template to a consenting patient; the worker delivers it. */
export function sendQuickMessage(userId: number | null, input: QuickSendInput): { id: number; configured: boolean } {
  const patient = recipient(input.patientId);
  const template = getTemplate(input.templateId);
  if (!template) throw new SendError(SEND_MESSAGES.templateNotFound, "templateId", 404);
  if (template.status !== "aprovado") throw new SendError(SEND_MESSAGES.notApproved, "templateId");
  if (!template.metaName) throw new SendError(SEND_MESSAGES.notMapped, "templateId");
  const to = assertReachable(patient);
  const missing = missingVariables(template.body, input.variables);
  if (missing.length) throw new SendError(SEND_MESSAGES.missing(missing), "variables", 400, missing);

  const values = { ...input.variables, ...patientVariables(patient.name) };
  const id = db.transaction((tx) => {
    const id = queueMessage(tx, {
      patientId: patient.id,
      templateId: template.id,
      patientName: patient.name,
      templateTitle: template.title,
      body: renderTemplate(template.body, values),
      toPhone: to,
      kind: "template",
      templateName: template.metaName,
      templateLanguage: template.metaLanguage,
      params: templateParameters(template.body, values),
      sentBy: userId,
    });
    recordAudit(tx, { userId, action: "create", entity: "message", entityId: id, changes: { patientId: patient.id, templateId: template.id } });
    return id;
  });
  return { id, configured: whatsappConfig() !== null };
}

/** A free-text reply: only while the patient's 24-hour window is open. */
export function sendReply(userId: number | null, input: ReplyInput, now = new Date()): { id: number; configured: boolean } {
  const patient = recipient(input.patientId);
  const to = assertReachable(patient);
  if (!customerWindow(patient.id, now).open) throw new SendError(SEND_MESSAGES.windowClosed, "text");
  const id = db.transaction((tx) => {
    const id = queueMessage(tx, { patientId: patient.id, patientName: patient.name, body: input.text, toPhone: to, kind: "text", sentBy: userId });
    recordAudit(tx, { userId, action: "create", entity: "message", entityId: id, changes: { patientId: patient.id, kind: "text" } });
    return id;
  });
  return { id, configured: whatsappConfig() !== null };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DRIVE_FOLDER = "application/vnd.google-apps.folder";

export interface CommsKpis {
  optInPatients: number;
  sent30d: number;
  driveFolders: number;
  activeRules: number;
}

/**
 * SPEC §3 comms KPIs, each one SQL count through an index; kept until the data changes or the
 * minute turns (the 30-day window moves with the clock).
 */
export function commsKpis(now = new Date()): CommsKpis {
  const minute = Math.floor(now.getTime() / 60_000);
  return cachedUntilWrite(`comms-kpis:${minute}`, () => ({
    optInPatients: db.select({ n: count() }).from(patients).where(eq(patients.whatsappOptIn, true)).get()?.n ?? 0,
    sent30d: countSentSince(new Date(minute * 60_000 - 30 * DAY_MS)),
    driveFolders: db.select({ n: count() }).from(googleDriveFiles).where(eq(googleDriveFiles.mimeType, DRIVE_FOLDER)).get()?.n ?? 0,
    activeRules: db.select({ n: count() }).from(automationRules).where(and(eq(automationRules.enabled, true))).get()?.n ?? 0,
  }));
}

/** The quick-send state a GET round trip carries (the picker's 'Buscar', 'Carregar template' without JavaScript). */
function quickSendDraftOf(params: URLSearchParams) {
  const variables: Record<string, string> = {};
  for (const [key, value] of params) {
    const name = key.startsWith("variables.") ? key.slice("variables.".length) : null;
    if (name && isKnownVariable(name)) variables[name] = value.slice(0, 500);
  }
  return {
    patientId: parseId(params.get("patientId")),
    patientQ: (params.get("patientQ") ?? "").slice(0, 100),
    templateId: parseId(params.get("templateId")),
    variables,
  };
}

const CONSENT_SOURCE_LABELS: Record<string, string> = {
  cadastro: "cadastro do paciente",
  paciente_whatsapp: "pelo WhatsApp",
  formulario: "formulário assinado",
  verbal: "consentimento verbal",
};

function consentText(patientId: number | null): { name: string | null; consent: string | null } {
  const consent = patientId ? consentOf(patientId) : null;
  if (!consent) return { name: null, consent: null };
  const text = consent.optIn
    ? `Opt-in do WhatsApp registrado${consent.at ? ` em ${formatDateTime(consent.at)}` : ""}${consent.source ? ` (${CONSENT_SOURCE_LABELS[consent.source] ?? consent.source})` : ""}.`
    : "Este paciente não autorizou mensagens por WhatsApp (sem opt-in).";
  return { name: consent.name, consent: text };
}

/** The quick send as the URL leaves it: the draft, the patient picker's options and the chosen patient's consent. */
export function quickSendState(params: URLSearchParams) {
  const draft = quickSendDraftOf(params);
  return { draft, patientOptions: patientPickerOptions(draft.patientQ, draft.patientId), ...consentText(draft.patientId) };
}

/**
 * The communication screen's URL-driven dialogs, each behind its permission: ?template=new|ID and
 * ?rule=new|ID (communication:edit), ?reply=PATIENT and ?dialog=send (communication:create; the
 * patient page's 'Enviar mensagem' opens the quick send in a dialog, patient chosen).
 */
export function commsDialogs(params: URLSearchParams, user: SessionUser) {
  let templateDialog: { mode: "new" } | { mode: "edit"; template: NonNullable<ReturnType<typeof getTemplate>> } | null = null;
  if (params.has("template")) {
    assertCan(user, "communication", "edit");
    const raw = params.get("template");
    if (raw === "new") templateDialog = { mode: "new" };
    else {
      const template = getTemplate(parseId(raw) ?? 0) ?? notFound("Template não encontrado.");
      templateDialog = { mode: "edit", template };
    }
  }
  let ruleDialog: { mode: "new" } | { mode: "edit"; rule: NonNullable<ReturnType<typeof getRule>> } | null = null;
  if (params.has("rule")) {
    assertCan(user, "communication", "edit");
    const raw = params.get("rule");
    if (raw === "new") ruleDialog = { mode: "new" };
    else ruleDialog = { mode: "edit", rule: getRule(parseId(raw) ?? 0) ?? notFound("Regra não encontrada.") };
  }
  let reply: { patient: { id: number; name: string }; conversation: ReturnType<typeof conversation>; window: ReturnType<typeof customerWindow> } | null = null;
  if (params.has("reply")) {
    assertCan(user, "communication", "create");
    const patientId = parseId(params.get("reply"));
    const consent = patientId ? consentOf(patientId) : null;
    if (!patientId || !consent) notFound("Paciente não encontrado.");
    reply = { patient: { id: patientId, name: consent.name }, conversation: conversation(patientId), window: customerWindow(patientId) };
  }
  const sendDialog = params.get("dialog") === "send";
  if (sendDialog) assertCan(user, "communication", "create");
  return { templateDialog, ruleDialog, reply, sendDialog };
}
