import { z } from "zod";
import { ROLES } from "~/lib/permissions";

export const generalSettingsSchema = z.object({
  clinicName: z
    .string({ error: "Informe o nome da clínica" })
    .trim()
    .min(1, "Informe o nome da clínica")
    .max(120, "Use no máximo 120 caracteres"),
});

export const securitySettingsSchema = z.object({
  passwordMinLength: z.coerce
    .number({ error: "Informe um número" })
    .int("Use um número inteiro")
    .min(8, "O mínimo permitido é 8 caracteres")
    .max(128, "O máximo permitido é 128 caracteres"),
});

export const setRoleSchema = z.object({
  userId: z.coerce.number().int().positive(),
  /** Empty means "no role": the account waits again for an administrator. */
  role: z.enum(ROLES).optional(),
});
