import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { AUTOMATION_TRIGGERS, MESSAGE_STATUSES, TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from "../../app/lib/enums";
import { users } from "./auth";
import { patients } from "./clinical";
import { bool, id, timestamps } from "./columns";
import { enumCheck } from "./helpers";

/** Patient message templates; `body` holds {{placeholders}} such as {{paciente.nome}}. Only 'aprovado' can be sent. */
export const messageTemplates = sqliteTable(
  "message_templates",
  {
    id: id(),
    title: text("title").notNull(),
    category: text("category", { enum: TEMPLATE_CATEGORIES }).notNull(),
    status: text("status", { enum: TEMPLATE_STATUSES }).notNull().default("rascunho"),
    body: text("body").notNull(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("message_templates_category_check", t.category, TEMPLATE_CATEGORIES),
    enumCheck("message_templates_status_check", t.status, TEMPLATE_STATUSES),
    index("message_templates_category_title_idx").on(t.category, t.title),
    index("message_templates_status_idx").on(t.status),
  ],
);

/**
 * Messages sent (or attempted) to patients. Patient name, template title and body are copied
 * at send time so the history stays readable after the patient or template changes or goes.
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
    /** Id given by the messaging provider, to match delivery/read callbacks. */
    externalId: text("external_id"),
    sentBy: integer("sent_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    enumCheck("messages_status_check", t.status, MESSAGE_STATUSES),
    index("messages_created_at_idx").on(t.createdAt),
    index("messages_patient_created_idx").on(t.patientId, t.createdAt),
    index("messages_status_idx").on(t.status),
    index("messages_template_idx").on(t.templateId),
    index("messages_external_id_idx").on(t.externalId),
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
