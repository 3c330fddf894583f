import { z } from "./zod";
import { ROLES } from "~/lib/permissions";

export const generalSettingsSchema = z.object({
  clinicName: z
    .string({ error: "Informe o nome da clínica" })
    .trim()
    .min(1, "Informe o nome da clínica")
    .max(120, "Use no máximo 120 caracteres"),
  /** Largest document upload (/files), in megabytes. */
  uploadMaxMb: z.coerce
    .number({ error: "Informe um número" })
    .int("Use um número inteiro")
    .min(1, "O mínimo é 1 MB")
    .max(200, "O máximo é 200 MB"),
});

/** Configurações → Segurança: password policy, session timeouts, sign-in lockout and the MFA policy. */
export const securitySettingsSchema = z.object({
  passwordMinLength: z.coerce
    .number({ error: "Informe um número" })
    .int("Use um número inteiro")
    .min(8, "O mínimo permitido é 8 caracteres")
    .max(128, "O máximo permitido é 128 caracteres"),
  sessionIdleMinutes: z.coerce
    .number({ error: "Informe um número" })
    .int("Use um número inteiro")
    .min(5, "O mínimo é 5 minutos")
    .max(480, "O máximo é 480 minutos (8 horas)"),
  sessionMaxHours: z.coerce
    .number({ error: "Informe um número" })
    .int("Use um número inteiro")
    .min(1, "O mínimo é 1 hora")
    .max(24, "O máximo é 24 horas"),
  loginMaxFailures: z.coerce
    .number({ error: "Informe um número" })
    .int("Use um número inteiro")
    .min(3, "O mínimo é 3 tentativas")
    .max(10, "O máximo é 10 tentativas"),
  mfaRequiredForAdmins: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
});

/** An administrator requires another user to choose a new password at the next sign-in. */
export const userIdSchema = z.object({
  userId: z.coerce.number().int().positive(),
});

export const setRoleSchema = z.object({
  userId: z.coerce.number().int().positive(),
  /** Empty means "no role": the account waits again for an administrator. */
  role: z.enum(ROLES).optional(),
});
