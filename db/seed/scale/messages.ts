import { drizzle } from "drizzle-orm/better-sqlite3";
import type { MessageStatus } from "../../../app/lib/enums";
import { patientVariables, renderTemplate, templateParameters } from "../../../app/lib/message-template";
import * as schema from "../../schema";
import { MESSAGE_TEMPLATES } from "../catalog";
import { metaNameOf, templateRow } from "../communication";
import { formatBrDate, formatBrTime, HOUR, MINUTE } from "../time";
import { type DailyWriterEnv, spreadOverDays } from "./batch";

/** The years the practice has sent WhatsApp messages (through a provider, then the Cloud API). */
export const WHATSAPP_YEARS = 5;

/** About the share of a day's messages that are patients' replies. */
const REPLY_SHARE = 0.06;

/** What patients answer to reminders. */
const REPLIES = ["Confirmado, obrigado!", "Ok, estarei lá.", "Posso levar acompanhante?", "Preciso remarcar, pode ser na semana que vem?", "Vou sim. Preciso levar os exames antigos?"];

/** A day's appointment a message is about: its patient (who agreed to WhatsApp) and doctor. */
interface Visit {
  start: number;
  end: number;
  location: string | null;
  status: string;
  patientId: number;
  patientName: string;
  phone: string;
  doctorName: string;
}

/** One message to write: a template about a visit, or a patient's reply. */
type Draft = { kind: "template"; title: string; visit: Visit; at: number } | { kind: "reply"; visit: Visit; at: number };

/**
 * The clinic's WhatsApp history over its last WHATSAPP_YEARS years: the demo's templates, and
 * `total` messages spread over the days by how many each can send. Each day sends the reminders of
 * the next day's visits, the confirmations of visits three days on and the thanks after the day's
 * completed visits, to patients who agreed to WhatsApp; some patients answer. Statuses as the
 * provider left them (read, delivered, sent, a few failed with Meta's reason), up to yesterday.
 * Written as the app stores them (the rendered body, the Meta template's name and parameters); the
 * counter, the page's kept version (migration 0048) and the KPI's daily counts (their triggers) see
 * them as any message. A day short of its share (fewer replies than expected) passes the rest to
 * the next. Its own random stream.
 */
export function writeMessages(env: DailyWriterEnv): number {
  const { conn, batch, random, calendar, today, nowMs, adminId, total } = env;
  const firstDay = today - WHATSAPP_YEARS * 365;
  // The demo's templates, as the clinic had them a month before its first message.
  const created = new Date(calendar.instant(firstDay - 30, 10 * 60));
  const { messageTemplates } = schema;
  const templates = new Map(
    drizzle(conn, { schema })
      .insert(messageTemplates)
      .values(MESSAGE_TEMPLATES.map((t) => templateRow(t, created)))
      .returning({ id: messageTemplates.id, title: messageTemplates.title, body: messageTemplates.body })
      .all()
      .map((row) => [row.title, row]),
  );
  const insertMessage = conn.prepare(
    `INSERT INTO messages (patient_id, template_id, patient_name, template_title, body, to_phone, status, error, external_id, sent_by, direction, kind,
       template_name, template_language, params, attempts, next_attempt_at, status_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // The visits a message may be about (not cancelled, of a patient who agreed to WhatsApp and has a
  // phone), read once for the whole era and grouped by day: the build has dropped the appointments'
  // date index for its load (`deferIndexes`), so a query per day would pass over every appointment.
  const byDay = new Map<number, Visit[]>();
  const era = conn.prepare(
    `SELECT a.start_time AS start, a.end_time AS "end", a.location, a.status, a.patient_id AS patientId, p.name AS patientName, p.phone,
            (SELECT name FROM doctors WHERE id = a.doctor_id) AS doctorName
       FROM appointments a JOIN patients p ON p.id = a.patient_id
      WHERE a.start_time >= ? AND a.start_time < ? AND a.status <> 'cancelled' AND p.whatsapp_opt_in = 1 AND p.phone IS NOT NULL`,
  );
  for (const visit of era.iterate(calendar.instant(firstDay, 0), calendar.instant(today + 3, 0)) as Iterable<Visit>) {
    const d = calendar.dayOf(visit.start);
    const day = byDay.get(d);
    if (day) day.push(visit);
    else byDay.set(d, [visit]);
  }
  const visits = (d: number) => byDay.get(d) ?? [];
  const completedOn = (d: number) => visits(d).filter((visit) => visit.status === "completed").length;
  const sentByNow = (draft: { at: number }) => draft.at < nowMs;
  const at = (d: number, fromMinutes: number, toMinutes: number) => calendar.instant(d, random.int(fromMinutes, toMinutes));

  const wamid = (prefix: string) => `wamid.${prefix}${random.int(1e8, 9e8).toString(36)}${random.int(1e8, 9e8).toString(36)}`;
  const write = (draft: Draft) => {
    const { visit } = draft;
    if (draft.kind === "reply") {
      insertMessage.run(visit.patientId, null, visit.patientName, null, random.pick(REPLIES), `55${visit.phone}`, "delivered", null, wamid("in"), null, "inbound", "text", null, null, null, 0, null, draft.at, draft.at, draft.at);
    } else {
      const template = templates.get(draft.title)!;
      const values = {
        ...patientVariables(visit.patientName),
        "medico.nome": visit.doctorName,
        data: formatBrDate(visit.start),
        horario: formatBrTime(visit.start),
        local: visit.location ?? "",
        link_confirmacao: `https://sinapse.clinic/c/${random.int(100_000, 999_999).toString(36)}`,
      };
      const status: MessageStatus = random.weighted([
        ["read", 6],
        ["delivered", 3],
        ["sent", 1],
        ["failed", 0.4],
      ] as const);
      insertMessage.run(
        visit.patientId,
        template.id,
        visit.patientName,
        draft.title,
        renderTemplate(template.body, values),
        `55${visit.phone}`,
        status,
        status === "failed" ? "Número não possui conta no WhatsApp." : null,
        status === "failed" ? null : wamid(""),
        random.chance(0.15) ? adminId : null,
        "outbound",
        "template",
        metaNameOf(draft.title),
        "pt_BR",
        JSON.stringify(templateParameters(template.body, values)),
        1,
        null,
        Math.min(draft.at + random.int(1, 90) * MINUTE, nowMs),
        draft.at,
        draft.at,
      );
    }
    batch.written(1);
  };

  // A day's share follows the messages it can send (each visit's reminder and confirmation, the
  // thanks after the day's completed ones): a day never owes more than it has, unless `total`
  // exceeds them all.
  const dayWeight = (d: number) => visits(d + 1).length + visits(d + 3).length + completedOn(d);
  let owed = 0;
  let written = 0;
  /** The reminders the day before sent, which a patient may answer the next morning. */
  let yesterday: Draft[] = [];
  // Up to yesterday: today's reminders go out later in the day.
  spreadOverDays(firstDay, today - 1, total, dayWeight, (d, n) => {
    const wanted = n + owed;
    const drafts: Draft[] = [
      ...visits(d + 1).map((visit): Draft => ({ kind: "template", title: "Lembrete 24h antes", visit, at: at(d, 9 * 60, 18 * 60) })),
      ...visits(d + 3).map((visit): Draft => ({ kind: "template", title: "Confirmação de consulta", visit, at: at(d, 8 * 60, 12 * 60) })),
      ...visits(d)
        .filter((visit) => visit.status === "completed")
        .map((visit): Draft => ({ kind: "template", title: random.chance(0.7) ? "Agradecimento pós-consulta" : "Orientações e exames solicitados", visit, at: visit.end + random.int(1, 4) * HOUR })),
    ].filter(sentByNow);
    const shuffled = random.shuffle(drafts);
    // Slots for replies: REPLY_SHARE of the day's messages, rounded at random (a small practice's day has one or two).
    const replySlots = Math.floor(wanted * REPLY_SHARE + random.next());
    const chosen = shuffled.slice(0, wanted - replySlots);
    const isReminder = (draft: Draft) => draft.kind === "template" && draft.title === "Lembrete 24h antes";
    // Patients answer a reminder within a few hours, or the next morning; the day's share is filled with more of its messages.
    const replies = [
      ...chosen.filter(isReminder).map((draft) => ({ visit: draft.visit, at: draft.at + random.int(5, 240) * MINUTE })),
      ...yesterday.map((draft) => ({ visit: draft.visit, at: calendar.instant(d, random.int(7 * 60, 10 * 60)) })),
    ]
      .filter((reply) => sentByNow(reply) && random.chance(0.25))
      .slice(0, replySlots)
      .map((reply): Draft => ({ kind: "reply", ...reply }));
    const more = shuffled.slice(chosen.length, chosen.length + replySlots - replies.length);
    const day = [...chosen, ...replies, ...more].sort((a, b) => a.at - b.at);
    yesterday = chosen.filter(isReminder);
    for (const draft of day) write(draft);
    written += day.length;
    owed = wanted - day.length;
  });
  return written;
}
