import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { AUTOMATION_TRIGGERS, MESSAGE_STATUSES, TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from "../../app/lib/enums";
import { users } from "./auth";
import { patients } from "./clinical";
import { bool, id, instant, timestamps } from "./columns";
import { enumCheck } from "./helpers";

export const MESSAGE_DIRECTIONS = ["outbound", "inbound"] as const;
/** An outbound message is a Meta-approved template (any time) or free text (only inside the 24-hour window). */
export const MESSAGE_KINDS = ["template", "text"] as const;
export const CONSENT_SOURCES = ["cadastro", "paciente_whatsapp", "formulario", "verbal"] as const;

/**
 * Patient message templates; `body` holds {{placeholders}} such as {{paciente.nome}}. Only 'aprovado'
 * can be sent. `meta_name`/`meta_language` name the template approved at Meta (WhatsApp Cloud API):
 * the body's placeholders, in order of first appearance, are that template's {{1}}, {{2}} …
 */
export const messageTemplates = sqliteTable(
  "message_templates",
  {
    id: id(),
    title: text("title").notNull(),
    category: text("category", { enum: TEMPLATE_CATEGORIES }).notNull(),
    status: text("status", { enum: TEMPLATE_STATUSES }).notNull().default("rascunho"),
    body: text("body").notNull(),
    metaName: text("meta_name"),
    metaLanguage: text("meta_language").notNull().default("pt_BR"),
    ...timestamps(),
  },
  (t) => [
    enumCheck("message_templates_category_check", t.category, TEMPLATE_CATEGORIES),
    enumCheck("message_templates_status_check", t.status, TEMPLATE_STATUSES),
    index("message_templates_category_title_idx").on(t.category, t.title),
    index("message_templates_status_idx").on(t.status),
    // Meta names a template by name and language; two of ours cannot map to the same one.
    uniqueIndex("message_templates_meta_unique").on(t.metaName, t.metaLanguage),
  ],
);

/**
 * Automatic sends: when `trigger` happens, send `template_id` after `offset_minutes`
 * (negative = before the event's time). A template used by a rule cannot be deleted (restrict).
 */
export const automationRules = sqliteTable(
  "automation_rules",
  {
    id: id(),
    name: text("name").notNull(),
    templateId: integer("template_id")
      .notNull()
      .references(() => messageTemplates.id, { onDelete: "restrict" }),
    trigger: text("trigger", { enum: AUTOMATION_TRIGGERS }).notNull(),
    offsetMinutes: integer("offset_minutes").notNull().default(0),
    enabled: bool("enabled").notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    enumCheck("automation_rules_trigger_check", t.trigger, AUTOMATION_TRIGGERS),
    check("automation_rules_name_check", sql`length(trim(${t.name})) > 0`),
    index("automation_rules_enabled_trigger_idx").on(t.enabled, t.trigger),
    index("automation_rules_template_idx").on(t.templateId),
  ],
);

/**
 * Messages to and from patients. Patient name, template title and body are copied at send time so
 * the history stays readable after the patient or template changes or goes. An outbound message is
 * an outbox row: the delivery worker (app/.server/whatsapp-worker.ts) claims it by setting
 * `sending_at` in its own committed write before calling the provider, so a message is never
 * claimed, hence never sent, twice (docs/decisions/0017-whatsapp-delivery.md).
 */
export const messages = sqliteTable(
  "messages",
  {
    id: id(),
    patientId: integer("patient_id").references(() => patients.id, { onDelete: "set null" }),
    templateId: integer("template_id").references(() => messageTemplates.id, { onDelete: "set null" }),
    patientName: text("patient_name").notNull(),
    templateTitle: text("template_title"),
    body: text("body").notNull(),
    toPhone: text("to_phone"),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull().default("queued"),
    error: text("error"),
    /** Id given by the messaging provider (wamid…), to match delivery/read callbacks. */
    externalId: text("external_id"),
    sentBy: integer("sent_by").references(() => users.id, { onDelete: "set null" }),
    direction: text("direction", { enum: MESSAGE_DIRECTIONS }).notNull().default("outbound"),
    kind: text("kind", { enum: MESSAGE_KINDS }).notNull().default("template"),
    /** The Meta template (name, language) and its body parameters in order, frozen when queued. */
    templateName: text("template_name"),
    templateLanguage: text("template_language"),
    params: text("params", { mode: "json" }).$type<string[]>(),
    /** Delivery bookkeeping: attempts made, when the next may start, and the claim of the one under way. */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: instant("next_attempt_at"),
    sendingAt: instant("sending_at"),
    /** When the provider last moved the status (sent, delivered, read, failed). */
    statusAt: instant("status_at"),
    /** A message an automation rule created, and the event it is for (once per rule and event). */
    ruleId: integer("rule_id").references((): AnySQLiteColumn => automationRules.id, { onDelete: "set null" }),
    eventKey: text("event_key"),
    ...timestamps(),
  },
  (t) => [
    enumCheck("messages_status_check", t.status, MESSAGE_STATUSES),
    enumCheck("messages_direction_check", t.direction, MESSAGE_DIRECTIONS),
    enumCheck("messages_kind_check", t.kind, MESSAGE_KINDS),
    index("messages_created_at_idx").on(t.createdAt),
    index("messages_patient_created_idx").on(t.patientId, t.createdAt),
    index("messages_status_created_idx").on(t.status, t.createdAt),
    index("messages_template_created_idx").on(t.templateId, t.createdAt),
    index("messages_external_id_idx").on(t.externalId),
    // The 24-hour customer-service window: a patient's last inbound message.
    index("messages_patient_direction_created_idx").on(t.patientId, t.direction, t.createdAt),
    // The worker's queue: only the rows still waiting, so it stays small however long the history.
    index("messages_queue_idx")
      .on(t.status, t.nextAttemptAt)
      .where(sql`status = 'queued' and direction = 'outbound' and sending_at is null`),
    index("messages_in_flight_idx").on(t.sendingAt).where(sql`sending_at is not null`),
    uniqueIndex("messages_rule_event_unique").on(t.ruleId, t.eventKey),
  ],
);

/**
 * The history of each patient's WhatsApp consent: when, how (`source`) and by whom it was given or
 * withdrawn. `patients.whatsapp_opt_in` is the current state; a trigger logs changes made through
 * the patient form (source 'cadastro').
 */
export const whatsappConsents = sqliteTable(
  "whatsapp_consents",
  {
    id: id(),
    patientId: integer("patient_id")
      .notNull()
      .references(() => patients.id, { onDelete: "cascade" }),
    optedIn: bool("opted_in").notNull(),
    source: text("source", { enum: CONSENT_SOURCES }).notNull(),
    recordedBy: integer("recorded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: instant("created_at")
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`)
      .$defaultFn(() => new Date()),
  },
  (t) => [
    enumCheck("whatsapp_consents_source_check", t.source, CONSENT_SOURCES),
    index("whatsapp_consents_patient_created_idx").on(t.patientId, t.createdAt),
  ],
);
