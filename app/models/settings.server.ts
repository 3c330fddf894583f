import { eq } from "drizzle-orm";
import { clinicSettings } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import { ensureClinicSettings } from "~/.server/secrets";

export type ClinicSettings = typeof clinicSettings.$inferSelect;

/** The single settings row, created with defaults (and a fresh cookie secret) on first use. */
export function getClinicSettings(): ClinicSettings {
  return ensureClinicSettings();
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
