import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, instant, timestamps } from "./columns";

import { ROLES } from "../../app/lib/permissions";

/** Accounts that can sign in. The e-mail is stored lower-cased. */
export const users = sqliteTable("users", {
  id: id(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  /** Normalised name and e-mail for accent-insensitive search (see app/lib/search.ts). */
  searchText: text("search_text").notNull().default(""),
  /** Set by an administrator: the next sign-in must choose a new password before anything else. */
  mustChangePassword: bool("must_change_password").notNull().default(false),
  ...timestamps(),
});

/** SPEC §3 profiles: id equal to the user id, a display name. */
export const profiles = sqliteTable("profiles", {
  id: integer("id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  ...timestamps(),
});

/** SPEC §3 user_roles. One role per account; an account without a row awaits an administrator. */
export const userRoles = sqliteTable(
  "user_roles",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    grantedBy: integer("granted_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [check("user_roles_role_check", sql`${t.role} in ('admin', 'staff', 'doctor')`)],
);

/**
 * Server-side sessions. The cookie holds a random token; only its SHA-256 is stored here,
 * so a copy of the database does not hand out live sessions.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: instant("expires_at").notNull(),
    lastSeenAt: instant("last_seen_at").notNull(),
    userAgent: text("user_agent"),
    /**
     * A sign-in not finished yet: 'mfa' awaits the second factor, 'password' a new password the
     * administrator required. Such a session opens no page but the sign-in step it awaits.
     */
    stage: text("stage", { enum: ["mfa", "password"] }),
    ...timestamps(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/**
 * Failed sign-ins, per key: `account:<e-mail>`, `ip:<address>`, `device:<id>` or `mfa:<user id>`
 * (see docs/decisions/0010-login-throttling-sessions-and-mfa.md). Kept in the database so a
 * restart does not clear it; a row is removed after a success or a day without failures.
 */
export const loginThrottle = sqliteTable(
  "login_throttle",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull().default(0),
    lastFailureAt: instant("last_failure_at").notNull(),
    lockedUntil: instant("locked_until"),
  },
  (t) => [index("login_throttle_last_failure_idx").on(t.lastFailureAt)],
);

/** A user's TOTP factor. The secret is stored encrypted (AES-256-GCM); unverified until a first code matches. */
export const mfaFactors = sqliteTable("mfa_factors", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  verifiedAt: instant("verified_at"),
  /** The last time step a code was accepted for: a code is never accepted twice. */
  lastTimeStep: integer("last_time_step"),
  ...timestamps(),
});

/** Ten single-use recovery codes per verified factor, stored as hashes only. */
export const mfaRecoveryCodes = sqliteTable(
  "mfa_recovery_codes",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: instant("used_at"),
    ...timestamps(),
  },
  (t) => [index("mfa_recovery_codes_user_idx").on(t.userId)],
);
