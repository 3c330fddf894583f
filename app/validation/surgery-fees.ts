import { z } from "zod";
import { ACCESS_ROUTES, ACCOMMODATIONS, SURGERY_TEAM_ROLES, type SurgeryTeamRole, URGENCY_MODES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { checkbox } from "./bounded-number";
import { reaisToCents, requiredText } from "./common";

/** The forms of a surgery's honorários screen (/surgeries/:id/honorarios). */

function fail(ctx: z.RefinementCtx, message: string, input: unknown): never {
  ctx.issues.push({ code: "custom", message, input });
  return z.NEVER;
}

/** A doctor chosen in a select: an id, or empty → null. */
const optionalDoctor = z
  .string({ error: "Médico inválido" })
  .nullish()
  .transform((value, ctx) => {
    const text = value?.trim() ?? "";
    if (!text) return null;
    return parseId(text) ?? fail(ctx, "Médico inválido", value);
  });

/** Adding a procedure: its CBHPM or TUSS code as typed ('3.07.15.18-0' or '30715180'), route and laterality. */
export const procedureSchema = z.object({
  code: requiredText("Informe o código CBHPM ou TUSS do procedimento", 20).refine((code) => /^[\d.\-\s]{8,14}$/.test(code) && code.replace(/\D/g, "").length === 8, {
    message: "Use o código de 8 dígitos (ex.: 3.07.15.18-0 ou 30715180)",
  }),
  accessRoute: z.enum(ACCESS_ROUTES, { error: "Escolha a via de acesso" }).default("same"),
  bilateral: checkbox(),
});
export type ProcedureInput = z.infer<typeof procedureSchema>;

export const removeProcedureSchema = z.object({
  procedureId: z.string({ error: "Procedimento inválido" }).transform((value, ctx) => parseId(value) ?? fail(ctx, "Procedimento inválido", value)),
});

/** The team: the surgeon is required; one person per role at most. */
export const teamSchema = z
  .object(Object.fromEntries(SURGERY_TEAM_ROLES.map((role) => [role, optionalDoctor])) as Record<SurgeryTeamRole, typeof optionalDoctor>)
  .superRefine((team, ctx) => {
    if (!team.cirurgiao) ctx.addIssue({ code: "custom", path: ["cirurgiao"], message: "Escolha o cirurgião" });
    const seen = new Map<number, SurgeryTeamRole>();
    for (const role of SURGERY_TEAM_ROLES) {
      const id = team[role];
      if (!id) continue;
      if (seen.has(id)) ctx.addIssue({ code: "custom", path: [role], message: "Este médico já ocupa outra função na equipe" });
      seen.set(id, role);
    }
    for (const [i, role] of (["auxiliar_2", "auxiliar_3", "auxiliar_4"] as const).entries()) {
      const before = (["auxiliar_1", "auxiliar_2", "auxiliar_3"] as const)[i];
      if (team[role] && !team[before]) ctx.addIssue({ code: "custom", path: [role], message: "Preencha os auxiliares em ordem" });
    }
  });
export type TeamInput = z.infer<typeof teamSchema>;

export const feeSettingsSchema = z.object({
  accommodation: z.enum(ACCOMMODATIONS, { error: "Escolha a acomodação" }),
  urgency: z.enum(URGENCY_MODES, { error: "Escolha se houve urgência" }),
});
export type FeeSettingsInput = z.infer<typeof feeSettingsSchema>;

/** Overriding one line: the amount paid in reais and why (kept with the line and in the audit log). */
export const feeOverrideSchema = z.object({
  lineId: z.string({ error: "Linha inválida" }).transform((value, ctx) => parseId(value) ?? fail(ctx, "Linha inválida", value)),
  amount: reaisToCents(),
  reason: requiredText("Informe o motivo do ajuste", 500),
});
export type FeeOverrideInput = z.infer<typeof feeOverrideSchema>;

export const feeLineSchema = z.object({
  lineId: z.string({ error: "Linha inválida" }).transform((value, ctx) => parseId(value) ?? fail(ctx, "Linha inválida", value)),
});
