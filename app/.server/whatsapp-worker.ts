/**
 * The delivery worker, inside the server process (docs/decisions/0017-whatsapp-delivery.md).
 * Every few seconds it runs the automation rules and sends the queued messages that are due.
 *
 * Never twice: a message is claimed (`sending_at` set, attempt counted) in a committed write
 * before the Graph API is called, and only an unclaimed message is ever picked. When the answer is
 * lost — the process dies between Meta's answer and our write, or the call times out — the claim
 * stays: the message is not sent again. Meta's status webhook settles it (matched by our id in
 * `biz_opaque_callback_data`), and one never settled is marked failed after a day for a person to check.
 * Retries only follow answers that prove nothing was sent (a refused connection, a 5xx or 429),
 * with exponential backoff.
 */
import { and, asc, eq, isNotNull, isNull, lt, lte, sql } from "drizzle-orm";
import { messages } from "~db/schema";
import { startWorker, wakeWorker } from "./background-worker";
import { db } from "./db";
import { type OutboundPayload, type SendOutcome, type WhatsAppConfig, sendWhatsApp, whatsappConfig } from "./whatsapp";
import { runAutomation } from "~/models/automation.server";
import { messageReference } from "~/models/message.server";

export const MAX_ATTEMPTS = 6;
/** Backoff after the n-th failed attempt: 30 s, 1 min, 2 min, 4 min, 8 min (capped at 30 min). */
export function backoffMs(attempts: number, baseMs = 30_000): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}
/** A send whose outcome was lost and that Meta never confirmed is failed after this long. */
export const UNCONFIRMED_AFTER_MS = 24 * 60 * 60 * 1000;
const BATCH = 20;
const TICK_MS = 5_000;

export const INTERRUPTED_MESSAGE = "Envio interrompido antes da confirmação: aguardando o retorno do WhatsApp (não será reenviada automaticamente).";
export const UNCONFIRMED_MESSAGE = "O WhatsApp não confirmou o envio. Verifique com o paciente antes de enviar de novo.";

/** Ids being sent by this process right now (a claim not in here belongs to a process that died). */
const inFlight = new Set<number>();

type Claimed = typeof messages.$inferSelect;

/** Claims one due message: a committed write, so a crash after it can never lead to a second send. */
function claim(id: number, now: Date): Claimed | null {
  return (
    db
      .update(messages)
      .set({ sendingAt: now, attempts: sql`${messages.attempts} + 1`, error: null })
      .where(and(eq(messages.id, id), eq(messages.status, "queued"), isNull(messages.sendingAt)))
      .returning()
      .get() ?? null
  );
}

function payloadOf(message: Claimed): OutboundPayload | null {
  if (!message.toPhone) return null;
  const reference = messageReference(message.id);
  if (message.kind === "text") return { type: "text", to: message.toPhone, body: message.body, reference };
  if (!message.templateName || !message.templateLanguage) return null;
  return {
    type: "template",
    to: message.toPhone,
    name: message.templateName,
    language: message.templateLanguage,
    parameters: message.params ?? [],
    reference,
  };
}

/** Writes what became of a claimed send. A status webhook may have come first: never move backwards. */
function settle(message: Claimed, outcome: SendOutcome, now: Date) {
  const mine = and(eq(messages.id, message.id), eq(messages.sendingAt, message.sendingAt!));
  switch (outcome.kind) {
    case "accepted":
      db.update(messages)
        .set({ externalId: outcome.externalId, sendingAt: null, nextAttemptAt: null, statusAt: now, status: sql`case when ${messages.status} = 'queued' then 'sent' else ${messages.status} end` })
        .where(mine)
        .run();
      return;
    case "rejected":
      db.update(messages).set({ status: "failed", error: outcome.error, sendingAt: null, nextAttemptAt: null, statusAt: now }).where(mine).run();
      return;
    case "retry": {
      const exhausted = message.attempts >= MAX_ATTEMPTS;
      db.update(messages)
        .set(
          exhausted
            ? { status: "failed", error: `${outcome.error} Desistimos após ${message.attempts} tentativas.`, sendingAt: null, nextAttemptAt: null, statusAt: now }
            : { error: outcome.error, sendingAt: null, nextAttemptAt: new Date(now.getTime() + backoffMs(message.attempts)) },
        )
        .where(mine)
        .run();
      return;
    }
    case "unknown":
      // Keep the claim: it may have been sent. The webhook (or the day-long timeout) settles it.
      db.update(messages).set({ error: `${outcome.error} ${INTERRUPTED_MESSAGE}` }).where(mine).run();
      return;
  }
}

export interface DeliveryHooks {
  /** Runs after the provider answered and before the answer is written (tests simulate a crash here). */
  afterProviderAnswer?: (messageId: number) => void;
}

/** Sends every queued message that is due, one at a time. Returns how many were attempted. */
export async function deliverDue(now = new Date(), config: WhatsAppConfig | null = whatsappConfig(), hooks: DeliveryHooks = {}): Promise<number> {
  if (!config) return 0;
  const due = db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.status, "queued"), eq(messages.direction, "outbound"), isNull(messages.sendingAt), lte(messages.nextAttemptAt, now)))
    .orderBy(asc(messages.nextAttemptAt))
    .limit(BATCH)
    .all();
  let attempted = 0;
  for (const { id } of due) {
    const message = claim(id, now);
    if (!message) continue;
    attempted += 1;
    const payload = payloadOf(message);
    if (!payload) {
      settle(message, { kind: "rejected", error: "Mensagem sem destinatário ou sem template da Meta." }, now);
      continue;
    }
    inFlight.add(id);
    try {
      const outcome = await sendWhatsApp(config, payload);
      hooks.afterProviderAnswer?.(id);
      settle(message, outcome, new Date());
    } finally {
      inFlight.delete(id);
    }
  }
  return attempted;
}

/**
 * Claims left by a process that stopped mid-send: marked as interrupted (never re-sent), and failed
 * once a day has passed without Meta's word on them.
 */
export function sweepInterrupted(now = new Date()): { interrupted: number; expired: number } {
  const claimed = db
    .select({ id: messages.id, sendingAt: messages.sendingAt, error: messages.error })
    .from(messages)
    .where(isNotNull(messages.sendingAt))
    .all()
    .filter((row) => !inFlight.has(row.id));
  let interrupted = 0;
  for (const row of claimed) {
    if (row.error?.includes(INTERRUPTED_MESSAGE)) continue;
    interrupted += db.update(messages).set({ error: INTERRUPTED_MESSAGE }).where(and(eq(messages.id, row.id), isNotNull(messages.sendingAt))).run().changes;
  }
  const expired = db
    .update(messages)
    .set({ status: "failed", error: UNCONFIRMED_MESSAGE, sendingAt: null, statusAt: now })
    .where(and(isNotNull(messages.sendingAt), eq(messages.status, "queued"), lt(messages.sendingAt, new Date(now.getTime() - UNCONFIRMED_AFTER_MS))))
    .run().changes;
  return { interrupted, expired };
}

/** One pass: the automation rules, then the queued messages that are due. */
async function pass() {
  const now = new Date();
  const config = whatsappConfig();
  sweepInterrupted(now);
  // Rules queue messages only when they can be sent: unconfigured, they would only pile up and go stale.
  if (config) runAutomation(now);
  await deliverDue(now, config);
}

/**
 * Starts the worker once per process. Not under Vitest (tests drive the passes themselves) nor
 * with COMMS_WORKER=off (a second process on the same database, such as a maintenance script).
 */
export function startCommsWorker() {
  startWorker({ name: "WhatsApp", tickMs: TICK_MS, offEnv: "COMMS_WORKER", pass });
}

/** Asks for a pass now (after a quick send), instead of waiting for the next tick. */
export function wakeCommsWorker() {
  wakeWorker("WhatsApp");
}

// The server bundle evaluates this module when the server starts (the routes' loaders import it),
// so the worker runs from the start, not only once someone opens the communication screen.
startCommsWorker();
