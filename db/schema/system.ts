import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, instant, timestamps } from "./columns";

/** The clinic's own settings: a single row with id 1. */
export const clinicSettings = sqliteTable(
  "clinic_settings",
  {
    id: integer("id").primaryKey(),
    clinicName: text("clinic_name").notNull().default("Minha Clínica"),
    timeZone: text("time_zone").notNull().default("America/Sao_Paulo"),
    passwordMinLength: integer("password_min_length").notNull().default(8),
    /** Largest document upload accepted, in megabytes (/files); the app keeps it within 1–200. */
    uploadMaxMb: integer("upload_max_mb").notNull().default(20),
    /** Configurações → Segurança: a session unused this long ends (SBIS NGS1: configurable inactivity timeout). */
    sessionIdleMinutes: integer("session_idle_minutes").notNull().default(30),
    /** A session ends this long after sign-in, however much it is used. */
    sessionMaxHours: integer("session_max_hours").notNull().default(12),
    /** Failed sign-ins before the account (for browsers it has not signed in on) cools down; at most 10. */
    loginMaxFailures: integer("login_max_failures").notNull().default(5),
    /** Administrators must have a verified TOTP factor to use the app. */
    mfaRequiredForAdmins: bool("mfa_required_for_admins").notNull().default(false),
    /** Secret for signing flash cookies, made on first start when SESSION_SECRET is not set. */
    cookieSecret: text("cookie_secret"),
    ...timestamps(),
  },
  (t) => [
    check("clinic_settings_single_row", sql`${t.id} = 1`),
    check("clinic_settings_password_min", sql`${t.passwordMinLength} between 8 and 128`),
    check("clinic_settings_session_idle", sql`${t.sessionIdleMinutes} between 5 and 480`),
    check("clinic_settings_session_max", sql`${t.sessionMaxHours} between 1 and 24`),
    check("clinic_settings_login_failures", sql`${t.loginMaxFailures} between 3 and 10`),
  ],
);

/**
 * Who did what, when and from where: every write, every view of a patient's data, every export and
 * download, logins and lockouts. Append-only and hash-chained (docs/decisions/0011-audit-trail-and-backups.md):
 * each entry's `hash` covers its own fields and the previous entry's hash, triggers refuse UPDATE
 * and DELETE, and the insert trigger takes only the entry that follows the last one (its id and its
 * `prev_hash`), which keeps two writers from forking the chain.
 * `user_id` has no foreign key on purpose: the trail keeps the id of an account that is later removed.
 * `changes` is JSON: { field: [before, after] } where values may be kept, else { fields: [names] }.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: id(),
    userId: integer("user_id"),
    action: text("action", {
      enum: [
        "create", "update", "delete", "login", "login_failed", "lockout", "logout", "grant_role",
        "export", "download", "view", "verify", "backup", "restore",
      ],
    }).notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    changes: text("changes", { mode: "json" }),
    /** The client's address as the server saw it (or as a trusted proxy reported it). */
    ip: text("ip"),
    createdAt: instant("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
    /** The previous entry's hash (64 zeros for the first entry). Null only before migration 0004 sealed old rows. */
    prevHash: text("prev_hash"),
    /** sha256 of this entry's canonical form (app/.server/audit-chain.ts). */
    hash: text("hash"),
  },
  (t) => [
    index("audit_log_entity_idx").on(t.entity, t.entityId),
    index("audit_log_entity_only_idx").on(t.entity),
    index("audit_log_action_idx").on(t.action),
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_user_idx").on(t.userId),
  ],
);

/**
 * The daily backup the server makes by itself (Configurações → Backups): a single row with id 1.
 * Where backups go is the machine's business (BACKUP_DIR), not the screen's.
 */
export const backupSettings = sqliteTable(
  "backup_settings",
  {
    id: integer("id").primaryKey(),
    dailyEnabled: bool("daily_enabled").notNull().default(false),
    /** Hour of the day (clinic time zone) at which the daily backup runs. */
    dailyHour: integer("daily_hour").notNull().default(2),
    /** How many backups to keep; older ones are removed after a successful backup. */
    retention: integer("retention").notNull().default(14),
    lastRunAt: instant("last_run_at"),
    lastFile: text("last_file"),
    lastError: text("last_error"),
    ...timestamps(),
  },
  (t) => [
    check("backup_settings_single_row", sql`${t.id} = 1`),
    check("backup_settings_hour", sql`${t.dailyHour} between 0 and 23`),
    check("backup_settings_retention", sql`${t.retention} between 1 and 365`),
  ],
);
