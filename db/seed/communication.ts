import type { MessageStatus } from "../../app/lib/enums";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import type { Agenda, AppointmentRow } from "./appointments";
import { AUTOMATION_RULES, MESSAGE_TEMPLATES } from "./catalog";
import { insertRows, type SeedContext } from "./context";
import type { Staff } from "./doctors";
import type { PatientPool } from "./patients";
import { DAY, formatBrDate, formatBrTime, HOUR, MINUTE } from "./time";

function renderTemplate(body: string, values: Record<string, string>): string {
  return body.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (match, key: string) => values[key] ?? match);
}

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
    MESSAGE_TEMPLATES.map((t, i) => {
      const createdAt = new Date(nowMs - (200 - i * 7) * DAY);
      return { title: t.title, category: t.category, status: t.status, body: t.body, createdAt, updatedAt: createdAt };
    }),
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
    const body = renderTemplate(template.body, {
      "paciente.nome": patient.name,
      "medico.nome": doctor.name,
      data: formatBrDate(start),
      horario: formatBrTime(start),
      local: a.location ?? "",
      link_confirmacao: `https://sinapse.demo/c/${random.int(100_000, 999_999).toString(36)}`,
    });
    messageRows.push({
      patientId: patientIds[d.patientIndex],
      templateId: template.id,
      patientName: patient.name,
      templateTitle: template.title,
      body,
      toPhone: `+55${patient.phone}`,
      status,
      error: status === "failed" ? "Número não possui conta no WhatsApp." : null,
      externalId: status === "queued" || status === "failed" ? null : `wamid.${random.int(1e8, 9e8).toString(36)}${random.int(1e8, 9e8).toString(36)}`,
      sentBy: random.chance(0.6) ? null : staffId,
      createdAt: new Date(sentAt),
      updatedAt: new Date(sentAt),
    });
  }
  messageRows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
  insertRows(tx, schema.messages, messageRows);
}
