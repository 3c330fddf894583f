import { z } from "zod";

/** Configurações → Backups: the daily backup the server makes by itself. */
export const backupScheduleSchema = z.object({
  dailyEnabled: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  dailyHour: z.coerce
    .number({ error: "Escolha um horário" })
    .int("Escolha um horário")
    .min(0, "Escolha um horário entre 0h e 23h")
    .max(23, "Escolha um horário entre 0h e 23h"),
  retention: z.coerce
    .number({ error: "Informe um número" })
    .int("Use um número inteiro")
    .min(1, "Mantenha ao menos 1 backup")
    .max(365, "Mantenha no máximo 365 backups"),
});
export type BackupScheduleInput = z.infer<typeof backupScheduleSchema>;
