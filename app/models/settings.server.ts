import { eq } from "drizzle-orm";
import { clinicSettings } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { hasVerifiedFactor } from "~/.server/mfa";
import { ensureClinicSettings } from "~/.server/secrets";

export type ClinicSettings = typeof clinicSettings.$inferSelect;

/** The single settings row, created with defaults (and a fresh cookie secret) on first use. */
export function getClinicSettings(): ClinicSettings {
  return ensureClinicSettings();
}

type EditableSettings = Pick<
  ClinicSettings,
  "clinicName" | "uploadMaxMb" | "passwordMinLength" | "sessionIdleMinutes" | "sessionMaxHours" | "loginMaxFailures" | "mfaRequiredForAdmins"
>;

export function updateClinicSettings(userId: number, changes: Partial<EditableSettings>) {
  const before = getClinicSettings();
  if (changes.mfaRequiredForAdmins && !before.mfaRequiredForAdmins && !hasVerifiedFactor(userId)) {
    // Otherwise the administrator turning it on would be sent to set up a factor at once.
    throw new DomainError("Ative a autenticação em dois fatores na sua conta antes de exigi-la dos administradores.", "mfaRequiredForAdmins");
  }
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
