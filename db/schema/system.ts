import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { id, instant, timestamps } from "./columns";

/** The clinic's own settings: a single row with id 1. */
export const clinicSettings = sqliteTable(
  "clinic_settings",
  {
    id: integer("id").primaryKey(),
    clinicName: text("clinic_name").notNull().default("Minha Clínica"),
    timeZone: text("time_zone").notNull().default("America/Sao_Paulo"),
    passwordMinLength: integer("password_min_length").notNull().default(8),
    /** Secret for signing flash cookies, made on first start when SESSION_SECRET is not set. */
    cookieSecret: text("cookie_secret"),
    ...timestamps(),
  },
  (t) => [
    check("clinic_settings_single_row", sql`${t.id} = 1`),
    check("clinic_settings_password_min", sql`${t.passwordMinLength} between 8 and 128`),
  ],
);

/** Who changed what, and when. `changes` is JSON: { field: [before, after] } or a snapshot. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: id(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action", { enum: ["create", "update", "delete", "login", "logout", "grant_role", "export", "view"] }).notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    changes: text("changes", { mode: "json" }),
    createdAt: instant("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    index("audit_log_entity_idx").on(t.entity, t.entityId),
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_user_idx").on(t.userId),
  ],
);

