import { z } from "zod";
import { parseId } from "~/lib/list-params";
import { boundedNumber, checkbox } from "./bounded-number";
import { optionalEmail, optionalPhone, optionalText, optionalUf, requiredText } from "./common";

/** The referrer (encaminhador) dialog (SPEC §3, §5): name required; commission a decimal 0..1 in steps of 0.01, 0 if empty. */
export const referrerSchema = z.object({
  name: requiredText("Informe o nome do encaminhador", 160),
  specialty: optionalText(120),
  crm: optionalText(20).transform((value, ctx) => {
    if (value === null) return null;
    const digits = value.replace(/[\s.\-]/g, "");
    if (/^\d{1,10}$/.test(digits)) return digits;
    ctx.issues.push({ code: "custom", message: "CRM inválido: use apenas os números (a UF vai no campo ao lado)", input: value });
    return z.NEVER;
  }),
  crmUf: optionalUf(),
  phone: optionalPhone(),
  email: optionalEmail(),
  commissionRate: boundedNumber({
    min: 0,
    max: 1,
    step: 0.01,
    fallback: 0,
    messages: { invalid: "Informe a comissão entre 0 e 1 (ex.: 0,05 para 5%), em passos de 0,01" },
  }),
  notes: optionalText(5_000, { multiline: true }),
  active: checkbox(),
});
export type ReferrerInput = z.infer<typeof referrerSchema>;

/** Linking a patient to the referrer who sent them ('encaminhado por'). */
export const referralSchema = z.object({
  patientId: z.union([z.string(), z.number()]).transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) {
      ctx.issues.push({ code: "custom", message: "Escolha o paciente", input: value });
      return z.NEVER;
    }
    return id;
  }),
});
