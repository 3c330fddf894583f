import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, instant, timestamps } from "./columns";

import { ROLES } from "../../app/lib/permissions";

/** Accounts that can sign in. The e-mail is stored lower-cased. */
export const users = sqliteTable("users", {
  id: id(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  /** Normalised name and e-mail for accent-insensitive search (see app/lib/search.ts). */
  searchText: text("search_text").notNull().default(""),
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
    ...timestamps(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);
