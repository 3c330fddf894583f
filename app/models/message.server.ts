import { type SQL, and, desc, eq, gte, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { messages, messageTemplates, patients, whatsappConsents } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { cachedUntilTablesChange, cachedUntilWrite } from "~/.server/data-cache";
import { type Tx, db } from "~/.server/db";
import { type KeysetOrder, keysetList, pageUntilWrite } from "~/.server/pagination";
import { sentAsJson } from "~/.server/sent-as-json";
import type { DeliveryStatus, InboundEvent, StatusEvent } from "~/.server/whatsapp";
import type { MessageStatus } from "~/lib/enums";
import type { ListState } from "~/lib/list-params";
import type { MESSAGE_LIST } from "~/lib/lists";
import { PREVIEW_LENGTH, previewOf } from "~/lib/message-template";

export { MESSAGE_LIST } from "~/lib/lists";

/** Free-form messages are allowed only this long after the patient's last message (DOMAIN.md §5). */
export const CUSTOMER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Our id as Meta echoes it back (biz_opaque_callback_data), to match a send whose answer was lost. */
export function messageReference(id: number): string {
  return `msg:${id}`;
}
function referencedId(reference: string | null): number | null {
  const match = reference ? /^msg:(\d{1,15})$/.exec(reference) : null;
  return match ? Number(match[1]) : null;
}

// ------------------------------------------------------------------------------------------ lists

type MessageListState = ListState<"createdAt", NonNullable<(typeof MESSAGE_LIST)["filters"]>>;

/** The columns a message row shows: the body only as far as its preview. */
const ROW_FIELDS = {
  id: messages.id,
  createdAt: messages.createdAt,
  patientId: messages.patientId,
  patientName: messages.patientName,
  templateTitle: messages.templateTitle,
  status: messages.status,
  direction: messages.direction,
  kind: messages.kind,
  error: messages.error,
  bodyStart: sql<string>`substr(${messages.body}, 1, ${PREVIEW_LENGTH + 1})`.as("body_start"),
};

function withPreview<Row extends { bodyStart: string }>({ bodyStart, ...row }: Row) {
  return { ...row, preview: previewOf(bodyStart) };
}

/**
 * The message log: newest first, keyset pages, filtered in SQL by status, patient and template. A
 * page is kept until a message is written (a new one, or a status the provider moved), and reads
 * nothing but the messages; its total unfiltered is the table's counter (migration 0048), so a typed
 * page is found in the date index from the nearer end, as fast on page 10 000 as on page 1.
 */
export function listMessages(state: MessageListState) {
  return pageUntilWrite("messages", state, () => readMessages(state), ["messages"]);
}

function readMessages(state: MessageListState) {
  const { status, patientId, templateId } = state.filters;
  const where: SQL | undefined = and(
    status ? eq(messages.status, status) : undefined,
    patientId ? eq(messages.patientId, patientId) : undefined,
    templateId ? eq(messages.templateId, templateId) : undefined,
  );
  const order: KeysetOrder = { key: messages.createdAt, id: messages.id, dir: state.dir };
  const page = keysetList(messages, where, state, order, (matching, orderBy, limit, offset) =>
    db
      .select({ ...ROW_FIELDS, cursorKey: messages.createdAt })
      .from(messages)
      .where(matching)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset)
      .all(),
  );
  return { ...page, rows: page.rows.map(withPreview) };
}
export type MessageRow = ReturnType<typeof listMessages>["rows"][number];

/**
 * The most recent messages (SPEC §9: 10), through the created_at index; kept until a message is
 * written (the communication centre shows them on every view). Callers must not modify them.
 */
export function recentMessages(limit = 10) {
  const bounded = Math.min(Math.max(limit, 1), 100);
  // Sent as JSON made once: the communication centre shows them on every view.
  return cachedUntilTablesChange(["messages"], `recent-messages:${bounded}`, () =>
    sentAsJson(db.select(ROW_FIELDS).from(messages).orderBy(desc(messages.createdAt), desc(messages.id)).limit(bounded).all().map(withPreview)),
  );
}

/** A patient's latest messages, both ways, oldest first (the reply dialog's conversation). */
export function conversation(patientId: number, limit = 20) {
  return db
    .select({ id: messages.id, createdAt: messages.createdAt, direction: messages.direction, status: messages.status, body: messages.body })
    .from(messages)
    .where(eq(messages.patientId, patientId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit)
    .all()
    .reverse();
}

export function getMessage(id: number) {
  return db.select().from(messages).where(eq(messages.id, id)).get() ?? null;
}

/** The templates a log can be filtered by (a few dozen at most). */
export function templateFilterOptions() {
  // Kept until the next write: the log's filter shows them on every view (read-only to callers).
  return cachedUntilWrite("template-filter-options", () =>
    db.select({ id: messageTemplates.id, title: messageTemplates.title }).from(messageTemplates).orderBy(messageTemplates.title).all(),
  );
}

// ------------------------------------------------------------------------------------------ 24-hour window

/**
 * The customer-service window (DOMAIN.md §5): free text may be sent only within 24 hours of the
 * patient's last inbound message; each new message reopens it.
 */
export function customerWindow(patientId: number, now = new Date()) {
  const last = db
    .select({ at: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.patientId, patientId), eq(messages.direction, "inbound")))
    .orderBy(desc(messages.createdAt))
    .limit(1)
    .get();
  const closesAt = last ? new Date(last.at.getTime() + CUSTOMER_WINDOW_MS) : null;
  return { open: closesAt !== null && closesAt > now, lastInboundAt: last?.at ?? null, closesAt };
}

// ------------------------------------------------------------------------------------------ outbox

export type OutboundMessage = Omit<typeof messages.$inferInsert, "id" | "direction" | "status">;

/** Queues an outbound message for the delivery worker (due now unless `nextAttemptAt` says later). */
export function queueMessage(conn: Tx | typeof db, row: OutboundMessage): number {
  return conn
    .insert(messages)
    .values({ ...row, direction: "outbound", status: "queued", nextAttemptAt: row.nextAttemptAt ?? new Date() })
    .returning({ id: messages.id })
    .get().id;
}

// ------------------------------------------------------------------------------------------ status updates

/**
 * The statuses a delivery event may move a message from. Statuses only move forward
 * (queued → sent → delivered → read); 'failed' ends a message that was not yet delivered.
 * Events arrive out of order and more than once, so an event that would move a status
 * backwards, or repeat it, changes nothing.
 */
const MOVES_FROM: Record<DeliveryStatus, MessageStatus[]> = {
  sent: ["queued"],
  delivered: ["queued", "sent"],
  read: ["queued", "sent", "delivered"],
  failed: ["queued", "sent"],
};

/** Applies one status webhook; true when it changed the message. Idempotent. */
export function applyStatusEvent(event: StatusEvent): boolean {
  const ours = referencedId(event.reference);
  const match = ours
    ? or(eq(messages.externalId, event.externalId), and(eq(messages.id, ours), isNull(messages.externalId)))
    : eq(messages.externalId, event.externalId);
  return db.transaction((tx) => {
    const result = tx
      .update(messages)
      .set({
        status: event.status,
        externalId: event.externalId,
        statusAt: event.at,
        error: event.status === "failed" ? (event.error ?? "O WhatsApp informou falha na entrega.") : null,
        // A send whose answer was lost is settled by Meta's word on it.
        sendingAt: null,
        nextAttemptAt: null,
      })
      .where(and(match, eq(messages.direction, "outbound"), inArray(messages.status, MOVES_FROM[event.status])))
      .run();
    return result.changes > 0;
  });
}

// ------------------------------------------------------------------------------------------ inbound

/** Phone numbers a WhatsApp id may be stored as: BR ids sometimes lack the mobile's leading 9. */
function phoneCandidates(waId: string): string[] {
  const national = waId.startsWith("55") ? waId.slice(2) : waId;
  const candidates = [national];
  if (/^[1-9][1-9]\d{8}$/.test(national)) candidates.push(`${national.slice(0, 2)}9${national.slice(2)}`);
  if (/^[1-9][1-9]9\d{8}$/.test(national)) candidates.push(`${national.slice(0, 2)}${national.slice(3)}`);
  return candidates;
}

const OPT_OUT = /^\s*(sair|parar|pare|stop|cancelar|descadastrar)\s*[.!]?\s*$/i;

/**
 * Stores a patient's message (once per WhatsApp id), matched to the patient by number; it opens
 * the 24-hour window. 'SAIR' or 'PARAR' withdraws the patient's consent.
 */
export function recordInbound(event: InboundEvent): { stored: boolean; patientId: number | null; optedOut: boolean } {
  return db.transaction((tx) => {
    const seen = tx.select({ id: messages.id }).from(messages).where(eq(messages.externalId, event.externalId)).get();
    if (seen) return { stored: false, patientId: null, optedOut: false };
    const patient = tx
      .select({ id: patients.id, name: patients.name, optIn: patients.whatsappOptIn })
      .from(patients)
      .where(and(isNotNull(patients.phone), inArray(patients.phone, phoneCandidates(event.from))))
      .limit(1)
      .get();
    tx.insert(messages)
      .values({
        patientId: patient?.id ?? null,
        patientName: patient?.name ?? event.name ?? `+${event.from}`,
        body: event.text,
        toPhone: event.from,
        direction: "inbound",
        kind: "text",
        // An inbound message has arrived: 'delivered' to us, and nothing more will happen to it.
        status: "delivered",
        externalId: event.externalId,
        statusAt: event.at,
        createdAt: event.at,
        updatedAt: event.at,
      })
      .run();
    let optedOut = false;
    if (patient && patient.optIn && OPT_OUT.test(event.text)) {
      setConsent(tx, patient.id, false, "paciente_whatsapp", null);
      optedOut = true;
    }
    return { stored: true, patientId: patient?.id ?? null, optedOut };
  });
}

/** Records a consent change with its source; the patients trigger logs it, this names the source. */
export function setConsent(
  tx: Tx,
  patientId: number,
  optedIn: boolean,
  source: (typeof whatsappConsents.$inferInsert)["source"],
  userId: number | null,
) {
  tx.update(patients).set({ whatsappOptIn: optedIn, whatsappOptInAt: optedIn ? new Date() : null }).where(eq(patients.id, patientId)).run();
  const logged = tx
    .select({ id: whatsappConsents.id })
    .from(whatsappConsents)
    .where(eq(whatsappConsents.patientId, patientId))
    .orderBy(desc(whatsappConsents.id))
    .limit(1)
    .get();
  if (logged) tx.update(whatsappConsents).set({ source, recordedBy: userId }).where(eq(whatsappConsents.id, logged.id)).run();
  recordAudit(tx, { userId, action: "update", entity: "patient", entityId: patientId, changes: { whatsappOptIn: [!optedIn, optedIn], source } });
}

/** The patient's current consent: when it was given and how (the latest log entry). */
export function consentOf(patientId: number) {
  const patient = db
    .select({ optIn: patients.whatsappOptIn, at: patients.whatsappOptInAt, phone: patients.phone, name: patients.name })
    .from(patients)
    .where(eq(patients.id, patientId))
    .get();
  if (!patient) return null;
  const last = db
    .select({ source: whatsappConsents.source, at: whatsappConsents.createdAt })
    .from(whatsappConsents)
    .where(and(eq(whatsappConsents.patientId, patientId), eq(whatsappConsents.optedIn, true)))
    .orderBy(desc(whatsappConsents.createdAt))
    .limit(1)
    .get();
  return { ...patient, source: patient.optIn ? (last?.source ?? null) : null };
}

/** Messages sent in the last 30 days (sent, delivered or read), through the created_at index. */
export function countSentSince(since: Date): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(messages)
      .where(and(gte(messages.createdAt, since), eq(messages.direction, "outbound"), inArray(messages.status, ["sent", "delivered", "read"])))
      .get()?.n ?? 0
  );
}
