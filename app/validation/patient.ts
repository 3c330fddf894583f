import { z } from "./zod";
import { todayIsoInClinic } from "~/lib/dates";
import { optionalCpf, optionalEmail, optionalIsoDate, optionalPhone, optionalText, requiredText } from "./common";

/** The patient dialog (SPEC §3, §5): only the name is required; a CPF, when given, must be valid. */
export const patientSchema = z.object({
  name: requiredText("Informe o nome do paciente", 120),
  cpf: optionalCpf(),
  dateOfBirth: optionalIsoDate({ invalid: "Data de nascimento inválida" }).refine(
    (value) => value === null || value <= todayIsoInClinic(),
    "A data de nascimento não pode estar no futuro",
  ),
  phone: optionalPhone(),
  email: optionalEmail(),
  address: optionalText(255),
  insurance: optionalText(120),
  insuranceCardNumber: optionalText(40),
  medicalHistory: optionalText(20_000, { multiline: true }),
  whatsappOptIn: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
});

export type PatientInput = z.infer<typeof patientSchema>;
