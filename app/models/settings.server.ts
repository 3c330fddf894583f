import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { clinicSettings } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";

export type ClinicSettings = typeof clinicSettings.$inferSelect;

/** The single settings row, created with defaults (and a fresh cookie secret) on first use. */
export function getClinicSettings(): ClinicSettings {
  const row = db.select().from(clinicSettings).where(eq(clinicSettings.id, 1)).get();
  if (row) return row;
  db.insert(clinicSettings)
    .values({ id: 1, cookieSecret: randomBytes(32).toString("hex") })
    .onConflictDoNothing()
    .run();
  return db.select().from(clinicSettings).where(eq(clinicSettings.id, 1)).get()!;
}

export function getCookieSecret(): string {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  const settings = getClinicSettings();
  if (settings.cookieSecret) return settings.cookieSecret;
  const secret = randomBytes(32).toString("hex");
  db.update(clinicSettings).set({ cookieSecret: secret }).where(eq(clinicSettings.id, 1)).run();
  return secret;
}

export function updateClinicSettings(
  userId: number,
  changes: Partial<Pick<ClinicSettings, "clinicName" | "passwordMinLength">>,
) {
  const before = getClinicSettings();
  db.transaction((tx) => {
    tx.update(clinicSettings).set(changes).where(eq(clinicSettings.id, 1)).run();
    const diff: Record<string, [unknown, unknown]> = {};
    for (const [key, value] of Object.entries(changes)) {
      const old = before[key as keyof ClinicSettings];
      if (old !== value) diff[key] = [old, value];
    }
    recordAudit(tx, { userId, action: "update", entity: "clinic_settings", entityId: 1, changes: diff });
  });
}
