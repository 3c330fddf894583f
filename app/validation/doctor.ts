import { z } from "./zod";
import { optionalEmail, optionalPhone, optionalUf, requiredText } from "./common";

export const COMMISSION_MESSAGES = {
  invalid: "Informe a comissão como um número entre 0 e 1 (ex.: 0,15 para 15%)",
  min: "A comissão não pode ser negativa",
  max: "A comissão não pode passar de 1 (100%)",
  step: "Use passos de 0,01 (1%)",
} as const;

export const CRM_MESSAGES = {
  required: "Informe o CRM",
  invalid: "CRM inválido: use apenas os números (a UF vai no campo ao lado)",
} as const;

/** The CRM number typed with or without dots, hyphens and spaces → its 1 to 10 digits. */
const crm = requiredText(CRM_MESSAGES.required, 20).transform((value, ctx) => {
  const digits = value.replace(/[\s.\-]/g, "");
  if (/^\d{1,10}$/.test(digits)) return digits;
  ctx.issues.push({ code: "custom", message: CRM_MESSAGES.invalid, input: value });
  return z.NEVER;
});

/**
 * Commission as a fraction 0..1 in steps of 0.01 (SPEC §5, §9): '0.15' or '0,15' → 0.15.
 * Empty → 0 (the default). Stored as the fraction, shown as a whole percentage.
 */
const commissionRate = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value, ctx) => {
    const text = typeof value === "number" ? String(value) : (value ?? "").trim().replace(",", ".");
    if (text === "") return 0;
    const fail = (message: string) => {
      ctx.issues.push({ code: "custom", message, input: value });
      return z.NEVER;
    };
    if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return fail(COMMISSION_MESSAGES.invalid);
    const rate = Number(text);
    if (!Number.isFinite(rate)) return fail(COMMISSION_MESSAGES.invalid);
    if (rate < 0) return fail(COMMISSION_MESSAGES.min);
    if (rate > 1) return fail(COMMISSION_MESSAGES.max);
    const hundredths = Math.round(rate * 100);
    if (Math.abs(rate * 100 - hundredths) > 1e-6) return fail(COMMISSION_MESSAGES.step);
    return hundredths / 100;
  });

/** The doctor dialog (SPEC §3, §5): name, specialty and CRM required; commission 0..1. */
export const doctorSchema = z.object({
  name: requiredText("Informe o nome do médico", 120),
  specialty: requiredText("Informe a especialidade", 120),
  crm,
  crmUf: optionalUf(),
  phone: optionalPhone(),
  email: optionalEmail(),
  commissionRate,
  active: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
});

export type DoctorInput = z.infer<typeof doctorSchema>;

// The table's formatters live with the other documents' (browser code imports them without zod).
export { formatCommission, formatCrm } from "~/lib/documents";
