import { data } from "react-router";
import { readBytes } from "~/.server/form-body";
import { routeUrl } from "~/.server/route-url";
import { parseWebhook, verifyHandshake, verifySignature } from "~/.server/whatsapp";
import { applyStatusEvent, recordInbound } from "~/models/message.server";
import type { Route } from "./+types/comms-webhook";

/**
 * /api/comms/webhook — the URL the clinic registers at Meta (DOMAIN.md §5).
 *
 * NOT cookie-authenticated and EXEMPT FROM ORIGIN CHECKS: Meta's servers call it, with no session
 * and no Origin of ours. It authenticates every event by its X-Hub-Signature-256 (HMAC-SHA256 of
 * the raw body with WHATSAPP_APP_SECRET, compared in constant time) and the handshake by
 * WHATSAPP_VERIFY_TOKEN, so it must never go through requireUser() or a same-origin guard.
 */
export const WEBHOOK_PATH = "/api/comms/webhook";

/** Meta's events are a few KB; batches stay far below this. */
const MAX_EVENT_BYTES = 1024 * 1024;

/** GET: the verification handshake — the challenge as plain text, or 403. */
export async function loader({ request }: Route.LoaderArgs) {
  const challenge = verifyHandshake(routeUrl(request).searchParams);
  if (challenge === null) return new Response("Forbidden", { status: 403, headers: { "Content-Type": "text/plain" } });
  return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** POST: status updates and inbound messages, only with a valid signature (401 otherwise). */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ error: "Método não permitido." }, { status: 405, headers: { Allow: "GET, POST" } });
  const secret = process.env.WHATSAPP_APP_SECRET?.trim();
  // Without the app secret no event can be authenticated: refuse them all.
  if (!secret) return data({ error: "Webhook do WhatsApp não configurado." }, { status: 403 });
  const raw = await readBytes(request, MAX_EVENT_BYTES);
  if (!verifySignature(raw, request.headers.get("X-Hub-Signature-256"), secret)) {
    return data({ error: "Assinatura inválida." }, { status: 401 });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return data({ error: "Corpo inválido." }, { status: 400 });
  }
  const { statuses, inbound } = parseWebhook(payload);
  let updated = 0;
  for (const event of statuses) if (applyStatusEvent(event)) updated += 1;
  let stored = 0;
  for (const event of inbound) if (recordInbound(event).stored) stored += 1;
  // Meta retries anything but a 200; every event is recorded (or already was), so say so.
  return Response.json({ ok: true, updated, stored });
}
