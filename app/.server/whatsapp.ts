/**
 * The WhatsApp Business Cloud API (DOMAIN.md §5), the one module that speaks to it. Configured by
 * the environment; these names are fixed (issue 13) so any test harness can point them at a fake:
 *   WHATSAPP_TOKEN            bearer token of the app's system user
 *   WHATSAPP_PHONE_NUMBER_ID  the clinic's sending number at Meta
 *   WHATSAPP_APP_SECRET       the app secret: signs every webhook event (X-Hub-Signature-256)
 *   WHATSAPP_VERIFY_TOKEN     the token the webhook's verification handshake must present
 *   WHATSAPP_API_URL          Graph API base with its version (default https://graph.facebook.com/v25.0)
 * Read on every use, so a change of configuration needs no code path of its own.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const DEFAULT_API_URL = "https://graph.facebook.com/v25.0";
/** How long one call to the Graph API may take before it is treated as an unknown outcome. */
const REQUEST_TIMEOUT_MS = 20_000;

export interface WhatsAppConfig {
  token: string;
  phoneNumberId: string;
  apiUrl: string;
}

/** The sending configuration, or null when WhatsApp is not configured (messages then stay queued). */
export function whatsappConfig(env: NodeJS.ProcessEnv = process.env): WhatsAppConfig | null {
  const token = env.WHATSAPP_TOKEN?.trim();
  const phoneNumberId = env.WHATSAPP_PHONE_NUMBER_ID?.trim();
  if (!token || !phoneNumberId) return null;
  const apiUrl = (env.WHATSAPP_API_URL?.trim() || DEFAULT_API_URL).replace(/\/+$/, "");
  return { token, phoneNumberId, apiUrl };
}

/** What the screen says about the configuration: sending, and receiving webhooks. */
export function whatsappStatus(env: NodeJS.ProcessEnv = process.env) {
  return {
    sending: whatsappConfig(env) !== null,
    webhook: Boolean(env.WHATSAPP_APP_SECRET?.trim() && env.WHATSAPP_VERIFY_TOKEN?.trim()),
  };
}

/** A Brazilian number stored as 10 or 11 digits → the international form WhatsApp expects (55…). */
export function whatsappNumber(phone: string): string {
  return `55${phone.replace(/\D/g, "")}`;
}

/** A mobile number (11 digits, a 9 after the area code): the only kind that can have WhatsApp. */
export function isMobile(phone: string | null | undefined): phone is string {
  return !!phone && /^[1-9][1-9]9\d{8}$/.test(phone);
}

export type SendOutcome =
  /** Meta accepted the message: its id matches the status webhooks. */
  | { kind: "accepted"; externalId: string }
  /** Meta said no and will keep saying no (bad number, template not approved …). */
  | { kind: "rejected"; error: string }
  /** Nothing was sent (refused connection) or Meta failed on its side (5xx, 429): safe to try again. */
  | { kind: "retry"; error: string }
  /** The request may have reached Meta but no answer came: sending again could duplicate it. */
  | { kind: "unknown"; error: string };

export type OutboundPayload =
  | { type: "template"; to: string; name: string; language: string; parameters: string[]; reference: string }
  | { type: "text"; to: string; body: string; reference: string };

/** The Graph API request body (DOMAIN.md §5), with our message id as the opaque callback data. */
export function requestBody(payload: OutboundPayload) {
  const common = { messaging_product: "whatsapp", recipient_type: "individual", to: payload.to };
  if (payload.type === "text") {
    return { ...common, type: "text", text: { preview_url: false, body: payload.body }, biz_opaque_callback_data: payload.reference };
  }
  return {
    ...common,
    type: "template",
    template: {
      name: payload.name,
      language: { code: payload.language },
      components: payload.parameters.length
        ? [{ type: "body", parameters: payload.parameters.map((text) => ({ type: "text", text })) }]
        : [],
    },
    biz_opaque_callback_data: payload.reference,
  };
}

/** Errors that prove the request never left this machine. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

function errorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return cause?.code ?? (error as { code?: string })?.code;
}

function metaError(body: unknown): string | null {
  const error = (body as { error?: { message?: unknown; error_user_msg?: unknown; code?: unknown } } | null)?.error;
  if (!error) return null;
  const text = typeof error.error_user_msg === "string" ? error.error_user_msg : typeof error.message === "string" ? error.message : null;
  return text ? `${text}${error.code != null ? ` (código ${String(error.code)})` : ""}`.slice(0, 500) : null;
}

/** Sends one message through the Cloud API and says what became of it. Never throws. */
export async function sendWhatsApp(config: WhatsAppConfig, payload: OutboundPayload): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch(`${config.apiUrl}/${encodeURIComponent(config.phoneNumberId)}/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${config.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(requestBody(payload)),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const code = errorCode(error);
    if (code && NOT_SENT_CODES.has(code)) return { kind: "retry", error: `WhatsApp inacessível (${code}).` };
    return { kind: "unknown", error: "O WhatsApp não respondeu ao envio." };
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok) {
    const id = (body as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
    if (typeof id === "string" && id) return { kind: "accepted", externalId: id };
    return { kind: "unknown", error: "O WhatsApp aceitou o envio sem devolver o identificador da mensagem." };
  }
  const error = metaError(body) ?? `O WhatsApp recusou o envio (HTTP ${response.status}).`;
  if (response.status >= 500 || response.status === 429) return { kind: "retry", error };
  return { kind: "rejected", error };
}

// ------------------------------------------------------------------------------------------ webhooks

/** The verification handshake (GET): the challenge when mode and token match, else null (403). */
export function verifyHandshake(params: URLSearchParams, env: NodeJS.ProcessEnv = process.env): string | null {
  const expected = env.WHATSAPP_VERIFY_TOKEN?.trim();
  if (!expected) return null;
  const token = params.get("hub.verify_token") ?? "";
  const same = token.length === expected.length && timingSafeEqual(Buffer.from(token), Buffer.from(expected));
  return params.get("hub.mode") === "subscribe" && same ? (params.get("hub.challenge") ?? "") : null;
}

/**
 * X-Hub-Signature-256 = 'sha256=' + HMAC-SHA256 of the raw body keyed with the app secret,
 * compared in constant time. False for a missing or malformed header or an unset secret.
 */
export function verifySignature(rawBody: Uint8Array, header: string | null, secret: string | undefined): boolean {
  if (!secret || !header?.startsWith("sha256=")) return false;
  const given = header.slice("sha256=".length).trim();
  if (!/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, "hex"));
}

export function signBody(rawBody: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

export const DELIVERY_STATUSES = ["sent", "delivered", "read", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface StatusEvent {
  externalId: string;
  status: DeliveryStatus;
  /** Our message id, from biz_opaque_callback_data, when Meta echoes it. */
  reference: string | null;
  at: Date;
  error: string | null;
}

export interface InboundEvent {
  externalId: string;
  /** The sender's WhatsApp number (wa_id), digits with the country code. */
  from: string;
  name: string | null;
  text: string;
  at: Date;
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
function str(value: unknown): string | null {
  return typeof value === "string" && value ? value : typeof value === "number" ? String(value) : null;
}
function timeOf(value: unknown): Date {
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
}

/** The status updates and inbound messages of a webhook payload; anything malformed is skipped. */
export function parseWebhook(payload: unknown): { statuses: StatusEvent[]; inbound: InboundEvent[] } {
  const statuses: StatusEvent[] = [];
  const inbound: InboundEvent[] = [];
  for (const entry of list(record(payload)?.entry)) {
    for (const change of list(record(entry)?.changes)) {
      const value = record(record(change)?.value);
      if (!value) continue;
      for (const raw of list(value.statuses)) {
        const item = record(raw);
        const externalId = str(item?.id);
        const status = str(item?.status);
        if (!item || !externalId || !status || !(DELIVERY_STATUSES as readonly string[]).includes(status)) continue;
        const firstError = record(list(item.errors)[0]);
        const error = firstError ? (str(record(firstError.error_data)?.details) ?? str(firstError.message) ?? str(firstError.title)) : null;
        statuses.push({
          externalId,
          status: status as DeliveryStatus,
          reference: str(item.biz_opaque_callback_data),
          at: timeOf(item.timestamp),
          error: error ? error.slice(0, 500) : null,
        });
      }
      const contacts = list(value.contacts).map(record);
      for (const raw of list(value.messages)) {
        const item = record(raw);
        const externalId = str(item?.id);
        const from = str(item?.from);
        if (!item || !externalId || !from) continue;
        const type = str(item.type) ?? "unknown";
        const text =
          type === "text"
            ? (str(record(item.text)?.body) ?? "")
            : type === "button"
              ? (str(record(item.button)?.text) ?? "[botão]")
              : `[${type}]`;
        const contact = contacts.find((c) => str(c?.wa_id) === from);
        inbound.push({
          externalId,
          from: from.replace(/\D/g, ""),
          name: str(record(contact?.profile)?.name),
          text: text.slice(0, 4096),
          at: timeOf(item.timestamp),
        });
      }
    }
  }
  return { statuses, inbound };
}
