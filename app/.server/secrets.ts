import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { clinicSettings } from "~db/schema";
import { db } from "./db";

/**
 * The clinic's single settings row and the cookie-signing secret it holds. Kept below the
 * models: the toast cookie (request plumbing) needs the secret, the settings screen the row.
 */

/** The single settings row, created with defaults (and a fresh cookie secret) on first use. */
export function ensureClinicSettings(): typeof clinicSettings.$inferSelect {
  const row = db.select().from(clinicSettings).where(eq(clinicSettings.id, 1)).get();
  if (row) return row;
  db.insert(clinicSettings)
    .values({ id: 1, cookieSecret: randomBytes(32).toString("hex") })
    .onConflictDoNothing()
    .run();
  return db.select().from(clinicSettings).where(eq(clinicSettings.id, 1)).get()!;
}

/** SESSION_SECRET when set, else the secret stored in the settings row (made on first use). */
export function getCookieSecret(): string {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  const settings = ensureClinicSettings();
  if (settings.cookieSecret) return settings.cookieSecret;
  const secret = randomBytes(32).toString("hex");
  db.update(clinicSettings).set({ cookieSecret: secret }).where(eq(clinicSettings.id, 1)).run();
  return secret;
}
