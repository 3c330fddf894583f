import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { clinicSettings } from "~db/schema";
import { writeCache } from "./data-cache";
import { db, preparedQuery } from "./db";

/**
 * The clinic's single settings row and the cookie-signing secret it holds. Kept below the
 * models: the toast cookie (request plumbing) needs the secret, the settings screen the row.
 */

/**
 * The single settings row, created with defaults (and a fresh cookie secret) on first use. Kept
 * until the next write (`writeCache`): a signed-in page reads it two or three times (the session's
 * policy, the MFA rule, the shell's clinic name), and mapping its row cost more than the version
 * check. The row is shared: callers must not modify it.
 */
export function ensureClinicSettings(): typeof clinicSettings.$inferSelect {
  return settingsUntilWrite("clinic-settings", () => {
    const row = settingsQuery().get();
    if (row) return row;
    db.insert(clinicSettings)
      .values({ id: 1, cookieSecret: randomBytes(32).toString("hex") })
      .onConflictDoNothing()
      .run();
    return settingsQuery().get()!;
  });
}
const settingsUntilWrite = writeCache(1);

/** Read on every page (the shell shows the clinic's name): prepared once. */
const settingsQuery = preparedQuery(() => db.select().from(clinicSettings).where(eq(clinicSettings.id, 1)).prepare());

/** SESSION_SECRET when set, else the secret stored in the settings row (made on first use). */
export function getCookieSecret(): string {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  const settings = ensureClinicSettings();
  if (settings.cookieSecret) return settings.cookieSecret;
  const secret = randomBytes(32).toString("hex");
  db.update(clinicSettings).set({ cookieSecret: secret }).where(eq(clinicSettings.id, 1)).run();
  return secret;
}

/**
 * AES-256-GCM sealing of a short secret under a 32-byte key: `iv.tag.body`, each base64url. Opening
 * checks the tag, so a value changed in the database (or sealed under another key) throws.
 */
export function sealText(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

export function openSealed(key: Buffer, stored: string): string {
  const [iv, tag, body] = stored.split(".").map((part) => Buffer.from(part, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}
