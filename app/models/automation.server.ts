import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { appointments, automationRules, doctors, messageTemplates, messages, patients, surgeries } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { isMobile, whatsappNumber } from "~/.server/whatsapp";
import { AUTOMATION_TRIGGER_LABELS, type AutomationTrigger } from "~/lib/enums";
import { formatDate, formatTime, startOfIsoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { missingVariables, patientVariables, renderTemplate, templateParameters, typedVariablesOf } from "~/lib/message-template";
import { MAX_APPOINTMENT_HOURS } from "~/validation/appointment";
import { RULE_KIND_LABELS, type RuleInput, type RuleKind } from "~/validation/comms";

/**
 * Automation rules (issue 13): each enabled rule, run by the delivery worker, queues one message
 * per event it matches (an appointment, a surgery, a birthday) when the event's send time comes:
 * exactly once per rule and event, the event's time being part of its key, so a rescheduled
 * appointment gets a reminder for its new time and the queued one for the old time is cancelled.
 */
export class RuleError extends DomainError<keyof RuleInput & string> {}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** A send time this far in the past is still honoured (a server restart, a slow pass); older ones are skipped. */
export const RULE_GRACE_MS = 6 * HOUR_MS;

/** The rule kinds the form offers, as a trigger and an offset in minutes. */
const KIND_TRIGGER: Record<RuleKind, { trigger: AutomationTrigger; minutes: (amount: number) => number }> = {
  appointment_reminder: { trigger: "appointment_start", minutes: (hours) => -hours * 60 },
  appointment_followup: { trigger: "appointment_completed", minutes: (days) => days * 1440 },
  surgery_preop: { trigger: "surgery_date", minutes: (days) => -days * 1440 },
  birthday: { trigger: "patient_birthday", minutes: (hour) => hour * 60 },
};

/** The kind and amount of a stored rule, when it is one the form offers (others are shown read-only). */
export function ruleKindOf(trigger: AutomationTrigger, offsetMinutes: number): { kind: RuleKind; amount: number } | null {
  for (const [kind, { trigger: t, minutes }] of Object.entries(KIND_TRIGGER) as [RuleKind, (typeof KIND_TRIGGER)[RuleKind]][]) {
    if (t !== trigger) continue;
    const unit = Math.abs(minutes(1)) || 60;
    const amount = Math.round(Math.abs(offsetMinutes) / unit);
    if (minutes(amount) === offsetMinutes) return { kind, amount };
  }
  return null;
}

/** The variables each trigger can fill from its event (besides the patient's own). */
const FILLABLE: Record<AutomationTrigger, readonly string[]> = {
  appointment_start: ["medico.nome", "data", "horario", "local"],
  appointment_completed: ["medico.nome", "data", "horario", "local"],
  surgery_date: ["medico.nome", "data", "horario", "local", "procedimento"],
  patient_birthday: [],
  appointment_created: [],
  surgery_scheduled: [],
  surgery_completed: [],
  patient_created: [],
};
const SUPPORTED: readonly AutomationTrigger[] = ["appointment_start", "appointment_completed", "surgery_date", "patient_birthday"];

/** 'Lembrete: 24 h antes da consulta' — what a rule does, in words. */
export function describeRule(trigger: AutomationTrigger, offsetMinutes: number): string {
  const found = ruleKindOf(trigger, offsetMinutes);
  if (!found) return `${AUTOMATION_TRIGGER_LABELS[trigger]} (não executada automaticamente)`;
  const { kind, amount } = found;
  if (kind === "appointment_reminder") return `${amount} h antes da consulta`;
  if (kind === "appointment_followup") return `${amount} dia(s) depois da consulta concluída`;
  if (kind === "surgery_preop") return `${amount} dia(s) antes da cirurgia`;
  return `No aniversário, às ${String(amount).padStart(2, "0")}h`;
}

// ------------------------------------------------------------------------------------------ rules

/** Every rule (a clinic has a handful) with its template's title. */
export function listRules() {
  return db
    .select({
      id: automationRules.id,
      name: automationRules.name,
      templateId: automationRules.templateId,
      templateTitle: messageTemplates.title,
      trigger: automationRules.trigger,
      offsetMinutes: automationRules.offsetMinutes,
      enabled: automationRules.enabled,
    })
    .from(automationRules)
    .innerJoin(messageTemplates, eq(messageTemplates.id, automationRules.templateId))
    .orderBy(asc(automationRules.name), asc(automationRules.id))
    .all()
    .map((rule) => ({ ...rule, description: describeRule(rule.trigger, rule.offsetMinutes), form: ruleKindOf(rule.trigger, rule.offsetMinutes) }));
}
export type RuleRow = ReturnType<typeof listRules>[number];

export function getRule(id: number) {
  return listRules().find((rule) => rule.id === id) ?? null;
}

function ruleValues(input: RuleInput) {
  const template = db
    .select({ status: messageTemplates.status, body: messageTemplates.body, metaName: messageTemplates.metaName })
    .from(messageTemplates)
    .where(eq(messageTemplates.id, input.templateId))
    .get();
  if (!template || template.status !== "aprovado") throw new RuleError("Escolha um template aprovado.", "templateId");
  if (!template.metaName) throw new RuleError("Este template não está vinculado a um template aprovado na Meta.", "templateId");
  const { trigger, minutes } = KIND_TRIGGER[input.kind];
  const unfillable = typedVariablesOf(template.body).filter((name) => !FILLABLE[trigger].includes(name));
  if (unfillable.length) {
    throw new RuleError(
      `O template usa ${unfillable.map((n) => `{{${n}}}`).join(", ")}, que a regra "${RULE_KIND_LABELS[input.kind]}" não sabe preencher.`,
      "templateId",
    );
  }
  return { name: input.name, templateId: input.templateId, trigger, offsetMinutes: minutes(input.amount), enabled: input.enabled };
}

export function createRule(userId: number, input: RuleInput): number {
  const values = ruleValues(input);
  return db.transaction((tx) => {
    const id = tx.insert(automationRules).values(values).returning({ id: automationRules.id }).get().id;
    recordAudit(tx, { userId, action: "create", entity: "automation_rule", entityId: id, changes: values });
    return id;
  });
}

export function updateRule(userId: number, id: number, input: RuleInput) {
  const values = ruleValues(input);
  db.transaction((tx) => {
    const before = tx.select().from(automationRules).where(eq(automationRules.id, id)).get();
    if (!before) throw new RuleError("Regra não encontrada.");
    tx.update(automationRules).set(values).where(eq(automationRules.id, id)).run();
    recordAudit(tx, { userId, action: "update", entity: "automation_rule", entityId: id, changes: diffChanges(before, values) });
  });
}

export function setRuleEnabled(userId: number, id: number, enabled: boolean) {
  db.transaction((tx) => {
    const before = tx.select({ enabled: automationRules.enabled }).from(automationRules).where(eq(automationRules.id, id)).get();
    if (!before) throw new RuleError("Regra não encontrada.");
    tx.update(automationRules).set({ enabled }).where(eq(automationRules.id, id)).run();
    recordAudit(tx, { userId, action: "update", entity: "automation_rule", entityId: id, changes: { enabled: [before.enabled, enabled] } });
  });
}

// ------------------------------------------------------------------------------------------ the engine

interface EventMatch {
  eventKey: string;
  patientId: number;
  patientName: string;
  phone: string | null;
  values: Record<string, string>;
  sendAt: Date;
}

type EnabledRule = { id: number; trigger: AutomationTrigger; offsetMinutes: number; templateId: number; title: string; body: string; metaName: string | null; metaLanguage: string };

const RECIPIENT = { patientId: patients.id, patientName: patients.name, phone: patients.phone };
const consenting = and(eq(patients.whatsappOptIn, true), isNotNull(patients.phone));

function appointmentValues(row: { doctorName: string; startTime: Date; location: string | null }) {
  return { "medico.nome": row.doctorName, data: formatDate(row.startTime), horario: formatTime(row.startTime), local: row.location?.trim() || "Consultório" };
}

/** The events of one rule whose send time falls in (now − grace, now]. */
function dueEvents(rule: EnabledRule, now: Date): EventMatch[] {
  const offset = rule.offsetMinutes * MINUTE_MS;
  // event + offset ∈ (now − grace, now]  ⇔  event ∈ (now − offset − grace, now − offset]
  const from = new Date(now.getTime() - offset - RULE_GRACE_MS);
  const to = new Date(now.getTime() - offset);
  switch (rule.trigger) {
    case "appointment_start": {
      // A reminder for an appointment that has already begun is no use.
      const after = from > now ? from : now;
      return db
        .select({ ...RECIPIENT, id: appointments.id, startTime: appointments.startTime, location: appointments.location, doctorName: doctors.name })
        .from(appointments)
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .innerJoin(doctors, eq(doctors.id, appointments.doctorId))
        .where(and(gt(appointments.startTime, after), lte(appointments.startTime, to), inArray(appointments.status, ["scheduled", "confirmed"]), consenting))
        .all()
        .map((row) => ({ ...row, eventKey: `appointment:${row.id}:${row.startTime.getTime()}`, values: appointmentValues(row), sendAt: new Date(row.startTime.getTime() + offset) }));
    }
    case "appointment_completed": {
      // Through the start_time index: an appointment ends at most MAX_APPOINTMENT_HOURS after it starts.
      const startFrom = new Date(from.getTime() - MAX_APPOINTMENT_HOURS * HOUR_MS);
      return db
        .select({ ...RECIPIENT, id: appointments.id, startTime: appointments.startTime, endTime: appointments.endTime, location: appointments.location, doctorName: doctors.name })
        .from(appointments)
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .innerJoin(doctors, eq(doctors.id, appointments.doctorId))
        .where(
          and(
            gt(appointments.startTime, startFrom),
            lte(appointments.startTime, to),
            gt(appointments.endTime, from),
            lte(appointments.endTime, to),
            eq(appointments.status, "completed"),
            consenting,
          ),
        )
        .all()
        .map((row) => ({ ...row, eventKey: `appointment-done:${row.id}`, values: appointmentValues(row), sendAt: new Date(row.endTime.getTime() + offset) }));
    }
    case "surgery_date": {
      const after = from > now ? from : now;
      return db
        .select({
          ...RECIPIENT,
          id: surgeries.id,
          scheduledDate: surgeries.scheduledDate,
          hospital: surgeries.hospital,
          surgeryType: surgeries.surgeryType,
          doctorName: doctors.name,
        })
        .from(surgeries)
        .innerJoin(patients, eq(patients.id, surgeries.patientId))
        .innerJoin(doctors, eq(doctors.id, surgeries.doctorId))
        .where(and(gt(surgeries.scheduledDate, after), lte(surgeries.scheduledDate, to), eq(surgeries.status, "scheduled"), consenting))
        .all()
        .map((row) => ({
          ...row,
          eventKey: `surgery:${row.id}:${row.scheduledDate.getTime()}`,
          values: {
            "medico.nome": row.doctorName,
            data: formatDate(row.scheduledDate),
            horario: formatTime(row.scheduledDate),
            local: row.hospital?.trim() || "Hospital a confirmar",
            procedimento: row.surgeryType,
          },
          sendAt: new Date(row.scheduledDate.getTime() + offset),
        }));
    }
    case "patient_birthday": {
      const today = todayIsoInClinic(now);
      const sendAt = new Date(startOfIsoDateInClinic(today)!.getTime() + offset);
      if (sendAt > now || sendAt.getTime() <= now.getTime() - RULE_GRACE_MS) return [];
      const [year, monthDay] = [today.slice(0, 4), today.slice(5)];
      const leap = Number(year) % 4 === 0 && (Number(year) % 100 !== 0 || Number(year) % 400 === 0);
      // Born on 29 February: greeted on the 28th when the year has no 29th.
      const days = monthDay === "02-28" && !leap ? ["02-28", "02-29"] : [monthDay];
      return db
        .select(RECIPIENT)
        .from(patients)
        .where(and(isNotNull(patients.dateOfBirth), inArray(sql`substr(${patients.dateOfBirth}, 6, 5)`, days), consenting))
        .all()
        .map((row) => ({ ...row, eventKey: `birthday:${row.patientId}:${year}`, values: {}, sendAt }));
    }
    default:
      return [];
  }
}

/**
 * Cancels queued rule messages whose event no longer holds: the appointment or surgery moved, was
 * cancelled or deleted, or has already happened. They stay in the log as failed, saying why.
 */
function cancelStale(now: Date): number {
  const queued = db
    .select({ id: messages.id, eventKey: messages.eventKey })
    .from(messages)
    .where(and(eq(messages.status, "queued"), eq(messages.direction, "outbound"), isNull(messages.sendingAt), isNotNull(messages.ruleId)))
    .all();
  let cancelled = 0;
  for (const message of queued) {
    const [kind, rawId, rawTime] = (message.eventKey ?? "").split(":");
    const id = Number(rawId);
    let reason: string | null = null;
    if (kind === "appointment") {
      const row = db.select({ start: appointments.startTime, status: appointments.status }).from(appointments).where(eq(appointments.id, id)).get();
      if (!row || row.status === "cancelled") reason = "Cancelada: a consulta foi cancelada.";
      else if (row.start.getTime() !== Number(rawTime)) reason = "Cancelada: a consulta foi reagendada.";
      else if (row.start <= now) reason = "Não enviada: a consulta já começou.";
    } else if (kind === "surgery") {
      const row = db.select({ date: surgeries.scheduledDate, status: surgeries.status }).from(surgeries).where(eq(surgeries.id, id)).get();
      if (!row || row.status === "cancelled") reason = "Cancelada: a cirurgia foi cancelada.";
      else if (row.date.getTime() !== Number(rawTime)) reason = "Cancelada: a cirurgia foi reagendada.";
      else if (row.date <= now) reason = "Não enviada: a data da cirurgia já passou.";
    }
    if (!reason) continue;
    const result = db
      .update(messages)
      .set({ status: "failed", error: reason, statusAt: now, nextAttemptAt: null })
      .where(and(eq(messages.id, message.id), eq(messages.status, "queued"), isNull(messages.sendingAt)))
      .run();
    cancelled += result.changes;
  }
  return cancelled;
}

/** One pass of every enabled rule: queues what is due (once per rule and event) and cancels what went stale. */
export function runAutomation(now = new Date()): { queued: number; cancelled: number } {
  const cancelled = cancelStale(now);
  const rules: EnabledRule[] = db
    .select({
      id: automationRules.id,
      trigger: automationRules.trigger,
      offsetMinutes: automationRules.offsetMinutes,
      templateId: messageTemplates.id,
      title: messageTemplates.title,
      body: messageTemplates.body,
      metaName: messageTemplates.metaName,
      metaLanguage: messageTemplates.metaLanguage,
    })
    .from(automationRules)
    .innerJoin(messageTemplates, eq(messageTemplates.id, automationRules.templateId))
    .where(and(eq(automationRules.enabled, true), inArray(automationRules.trigger, [...SUPPORTED]), eq(messageTemplates.status, "aprovado"), isNotNull(messageTemplates.metaName)))
    .all();
  let queued = 0;
  for (const rule of rules) {
    const events = dueEvents(rule, now);
    if (!events.length) continue;
    db.transaction((tx) => {
      for (const event of events) {
        if (!isMobile(event.phone)) continue;
        const values = { ...event.values, ...patientVariables(event.patientName) };
        if (missingVariables(rule.body, values).length) continue;
        const result = tx
          .insert(messages)
          .values({
            patientId: event.patientId,
            templateId: rule.templateId,
            patientName: event.patientName,
            templateTitle: rule.title,
            body: renderTemplate(rule.body, values),
            toPhone: whatsappNumber(event.phone),
            direction: "outbound",
            kind: "template",
            status: "queued",
            templateName: rule.metaName,
            templateLanguage: rule.metaLanguage,
            params: templateParameters(rule.body, values),
            nextAttemptAt: now,
            ruleId: rule.id,
            eventKey: event.eventKey,
          })
          .onConflictDoNothing({ target: [messages.ruleId, messages.eventKey] })
          .run();
        queued += result.changes;
      }
    });
  }
  return { queued, cancelled };
}

/** Rules whose trigger the engine runs (the others are kept but not executed). */
export function isSupportedTrigger(trigger: AutomationTrigger) {
  return SUPPORTED.includes(trigger);
}
