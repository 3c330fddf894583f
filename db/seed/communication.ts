import type { MessageStatus } from "../../app/lib/enums";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import type { Agenda, AppointmentRow } from "./appointments";
import { AUTOMATION_RULES, MESSAGE_TEMPLATES, type TemplateSeed } from "./catalog";
import { insertRows, type SeedContext } from "./context";
import type { Staff } from "./doctors";
import type { PatientPool } from "./patients";
import { patientVariables, renderTemplate, templateParameters } from "../../app/lib/message-template";
import { DAY, formatBrDate, formatBrTime, HOUR, MINUTE } from "./time";

/** The name a template approved at Meta would have: 'Lembrete 24h antes' → 'lembrete_24h_antes'. */
export function metaNameOf(title: string): string {
  return title
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** A catalogue template as the clinic keeps it: an approved one is mapped to the template of the same name approved at Meta. */
export function templateRow(t: TemplateSeed, createdAt: Date): typeof schema.messageTemplates.$inferInsert {
  const metaName = t.status === "aprovado" ? metaNameOf(t.title) : null;
  return { title: t.title, category: t.category, status: t.status, body: t.body, metaName, metaLanguage: "pt_BR", createdAt, updatedAt: createdAt };
}

/** What patients answer to reminders. */
const REPLIES = ["Confirmado, obrigado!", "Ok, estarei lá.", "Posso levar acompanhante?", "Preciso remarcar, pode ser na semana que vem?"];

/** Messaging: WhatsApp templates, automation rules and the last month of messages. */
export function seedCommunication(
  { tx, random, nowMs }: SeedContext,
  { staffId }: Accounts,
  { surgeons }: Staff,
  { patients, patientIds }: PatientPool,
  { drafts }: Agenda,
  appointmentRows: AppointmentRow[],
) {
  const templateIds = insertRows(
    tx,
    schema.messageTemplates,
    MESSAGE_TEMPLATES.map((t, i) => templateRow(t, new Date(nowMs - (200 - i * 7) * DAY))),
  );
  const templateByTitle = new Map(MESSAGE_TEMPLATES.map((t, i) => [t.title, { ...t, id: templateIds[i] }]));
  insertRows(
    tx,
    schema.automationRules,
    AUTOMATION_RULES.map((r) => ({
      name: r.name,
      templateId: templateByTitle.get(r.templateTitle)!.id,
      trigger: r.trigger,
      offsetMinutes: r.offsetMinutes,
      enabled: r.enabled,
    })),
  );

  const messageRows: Array<typeof schema.messages.$inferInsert> = [];
  // Reminders go out the day before; thank-you notes after completed visits. Only what is already due.
  const recent = appointmentRows
    .map((a, i) => ({ a, d: drafts[i] }))
    .filter(
      ({ a, d }) =>
        patients[d.patientIndex].row.whatsappOptIn &&
        a.startTime.getTime() > nowMs - 28 * DAY &&
        a.startTime.getTime() < nowMs + 20 * HOUR &&
        a.status !== "cancelled",
    );
  for (const { a, d } of random.sample(recent, Math.min(18, recent.length))) {
    const patient = patients[d.patientIndex];
    const doctor = surgeons[d.doctorIndex];
    const start = a.startTime.getTime();
    const reminder = a.status !== "completed" || random.chance(0.5);
    const template = templateByTitle.get(
      reminder ? random.pick(["Confirmação de consulta", "Lembrete 24h antes"]) : random.pick(["Agradecimento pós-consulta", "Orientações e exames solicitados"]),
    )!;
    const sentAt = reminder ? Math.min(start - random.int(20, 30) * HOUR, nowMs - 5 * MINUTE) : Math.min(a.endTime.getTime() + random.int(1, 5) * HOUR, nowMs - 5 * MINUTE);
    const ageHours = (nowMs - sentAt) / HOUR;
    const status: MessageStatus =
      ageHours < 0.5
        ? "queued"
        : random.weighted([
            ["read", ageHours > 6 ? 6 : 2],
            ["delivered", 4],
            ["sent", ageHours > 24 ? 1 : 3],
            ["failed", 1],
          ] as const);
    const values = {
      ...patientVariables(patient.name),
      "medico.nome": doctor.name,
      data: formatBrDate(start),
      horario: formatBrTime(start),
      local: a.location ?? "",
      link_confirmacao: `https://sinapse.demo/c/${random.int(100_000, 999_999).toString(36)}`,
    };
    const body = renderTemplate(template.body, values);
    messageRows.push({
      patientId: patientIds[d.patientIndex],
      templateId: template.id,
      patientName: patient.name,
      templateTitle: template.title,
      body,
      toPhone: `55${patient.phone}`,
      status,
      kind: "template",
      templateName: metaNameOf(template.title),
      templateLanguage: "pt_BR",
      params: templateParameters(template.body, values),
      attempts: status === "queued" ? 0 : 1,
      nextAttemptAt: status === "queued" ? new Date(sentAt) : null,
      statusAt: status === "queued" ? null : new Date(sentAt + random.int(1, 90) * MINUTE),
      error: status === "failed" ? "Número não possui conta no WhatsApp." : null,
      externalId: status === "queued" || status === "failed" ? null : `wamid.${random.int(1e8, 9e8).toString(36)}${random.int(1e8, 9e8).toString(36)}`,
      sentBy: random.chance(0.6) ? null : staffId,
      createdAt: new Date(sentAt),
      updatedAt: new Date(sentAt),
    });
  }
  // Some patients answer a reminder, which opens their 24-hour window for a free-text reply.
  for (const sent of messageRows.filter((m) => m.status === "read" && m.templateTitle !== null).slice(0, 4)) {
    const at = Math.min(sent.createdAt!.getTime() + random.int(5, 240) * MINUTE, nowMs - MINUTE);
    messageRows.push({
      patientId: sent.patientId,
      patientName: sent.patientName,
      body: random.pick(REPLIES),
      toPhone: sent.toPhone,
      direction: "inbound",
      kind: "text",
      status: "delivered",
      externalId: `wamid.in${random.int(1e8, 9e8).toString(36)}`,
      statusAt: new Date(at),
      createdAt: new Date(at),
      updatedAt: new Date(at),
    });
  }
  messageRows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
  insertRows(tx, schema.messages, messageRows);
}
