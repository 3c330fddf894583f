import { z } from "zod";
import { normalizeCep, normalizeDigits } from "~/lib/documents";
import { CBHPM_BANDS, HOSPITAL_TYPES, MEDICAL_CODE_TYPES, PAYER_TYPES, SUPPLIER_TYPES } from "~/lib/enums";
import { normalizeMedicalCode } from "~/lib/medical-codes";
import { TISS_VERSIONS } from "~/lib/receivables";
import { boundedNumber, checkbox, wholePercent } from "./bounded-number";
import { optionalCnpj, optionalEmail, optionalPhone, optionalText, optionalUf, reaisToCents, requiredText } from "./common";

/** The four Cadastros forms (SPEC §3, §5, §9; issue 10). Browser-safe: the dialogs validate with them too. */

export const MASTER_DATA_MESSAGES = {
  coverage: "A cobertura deve estar entre 0 e 100%",
  paymentTerms: "Informe o prazo em dias (0 a 365)",
  rating: "A avaliação vai de 0 a 5, em passos de 0,1",
  ans: "O registro ANS tem 6 dígitos",
  ansOnlyInsurers: "Registro ANS só se aplica a convênios",
  tissOnlyInsurers: "A configuração TISS só se aplica a convênios",
  cnes: "O CNES tem 7 dígitos",
  cep: "CEP inválido: use o formato 00000-000",
  cbhpmOnly: "Só se aplica a códigos CBHPM",
  porte: "Porte inválido: de 1A a 14C",
  assistants: "Informe de 0 a 4 auxiliares",
  anestheticPorte: "O porte anestésico vai de 0 a 8",
  codeImmutable: "O código e o tipo não podem ser alterados",
} as const;

function optionalDigits(length: number, message: string) {
  return z
    .string()
    .nullish()
    .transform((value, ctx) => {
      const text = value?.trim() ?? "";
      if (text === "") return null;
      const digits = normalizeDigits(text, length);
      if (digits) return digits;
      ctx.issues.push({ code: "custom", message, input: value });
      return z.NEVER;
    });
}

const optionalCep = () =>
  z
    .string()
    .nullish()
    .transform((value, ctx) => {
      const text = value?.trim() ?? "";
      if (text === "") return null;
      const cep = normalizeCep(text);
      if (cep) return cep;
      ctx.issues.push({ code: "custom", message: MASTER_DATA_MESSAGES.cep, input: value });
      return z.NEVER;
    });

const paymentTermsDays = boundedNumber({ min: 0, max: 365, step: 1, fallback: 30, messages: { invalid: MASTER_DATA_MESSAGES.paymentTerms } });
const notes = optionalText(5_000, { multiline: true });

export const payerSchema = z
  .object({
    name: requiredText("Informe o nome do pagador", 160),
    type: z.enum(PAYER_TYPES, { error: "Escolha o tipo" }).default("insurance"),
    cnpj: optionalCnpj(),
    ansRegistration: optionalDigits(6, MASTER_DATA_MESSAGES.ans),
    contactEmail: optionalEmail(),
    contactPhone: optionalPhone(),
    paymentTermsDays,
    coveragePercentage: boundedNumber({ min: 0, max: 100, step: 0.01, fallback: 100, messages: { invalid: MASTER_DATA_MESSAGES.coverage } }),
    assistant1FeePercent: wholePercent(60),
    assistant2FeePercent: wholePercent(40),
    assistant3FeePercent: wholePercent(30),
    assistant4FeePercent: wholePercent(30),
    multipleSameRoutePercent: wholePercent(50),
    multipleOtherRoutePercent: wholePercent(70),
    urgencySurchargePercent: wholePercent(30),
    cbhpmEdition: optionalText(20),
    cbhpmBand: z.enum(CBHPM_BANDS, { error: "Escolha a faixa" }).default("original"),
    /** TISS: the schema version of the insurer's guides and the clinic's code there (codigoPrestadorNaOperadora, st_texto14). */
    tissVersion: z.enum(TISS_VERSIONS, { error: "Escolha a versão TISS" }).default(TISS_VERSIONS[0]),
    tissProviderCode: optionalText(14),
    active: checkbox(),
    notes,
  })
  .superRefine((payer, ctx) => {
    if (payer.ansRegistration && payer.type !== "insurance") {
      ctx.addIssue({ code: "custom", path: ["ansRegistration"], message: MASTER_DATA_MESSAGES.ansOnlyInsurers });
    }
    if (payer.tissProviderCode && payer.type !== "insurance") {
      ctx.addIssue({ code: "custom", path: ["tissProviderCode"], message: MASTER_DATA_MESSAGES.tissOnlyInsurers });
    }
  });
export type PayerInput = z.infer<typeof payerSchema>;

export const hospitalSchema = z.object({
  name: requiredText("Informe o nome do hospital", 160),
  cnpj: optionalCnpj(),
  cnes: optionalDigits(7, MASTER_DATA_MESSAGES.cnes),
  address: optionalText(255),
  city: optionalText(120),
  state: optionalUf(),
  postalCode: optionalCep(),
  contactEmail: optionalEmail(),
  contactPhone: optionalPhone(),
  type: z.enum(HOSPITAL_TYPES, { error: "Escolha o tipo" }).default("private"),
  accreditation: optionalText(120),
  active: checkbox(),
  notes,
});
export type HospitalInput = z.infer<typeof hospitalSchema>;

export const supplierSchema = z.object({
  name: requiredText("Informe o nome do fornecedor", 160),
  cnpj: optionalCnpj(),
  type: z.enum(SUPPLIER_TYPES, { error: "Escolha o tipo" }).default("opme"),
  contactEmail: optionalEmail(),
  contactPhone: optionalPhone(),
  address: optionalText(255),
  paymentTermsDays,
  qualityRating: boundedNumber({ min: 0, max: 5, step: 0.1, fallback: 5, messages: { invalid: MASTER_DATA_MESSAGES.rating } }),
  active: checkbox(),
  notes,
});
export type SupplierInput = z.infer<typeof supplierSchema>;

/** The code form's fields (what the browser's constraints read: Conform cannot read a transformed schema). */
export const medicalCodeFields = z.object({
  type: z.enum(MEDICAL_CODE_TYPES, { error: "Escolha o tipo" }),
  code: requiredText("Informe o código", 30),
  description: requiredText("Informe a descrição", 500),
  category: optionalText(120),
  porte: optionalText(3)
    .transform((value) => value?.toUpperCase() ?? null)
    .refine((value) => value === null || /^([1-9]|1[0-4])[ABC]$/.test(value), MASTER_DATA_MESSAGES.porte),
  assistantsCount: boundedNumber({ min: 0, max: 4, step: 1, fallback: null, messages: { invalid: MASTER_DATA_MESSAGES.assistants } }),
  anestheticPorte: boundedNumber({ min: 0, max: 8, step: 1, fallback: null, messages: { invalid: MASTER_DATA_MESSAGES.anestheticPorte } }),
  priceCents: reaisToCents({ required: false }),
  active: checkbox(),
});

/** The code form: the type decides how the code is written (see ~/lib/medical-codes); porte fields for CBHPM only. */
export const medicalCodeSchema = medicalCodeFields.transform((input, ctx) => {
  const code = normalizeMedicalCode(input.type, input.code);
  if (!code.ok) ctx.addIssue({ code: "custom", path: ["code"], message: code.message });
  if (input.type !== "cbhpm") {
    for (const field of ["porte", "assistantsCount", "anestheticPorte"] as const) {
      if (input[field] !== null) ctx.addIssue({ code: "custom", path: [field], message: MASTER_DATA_MESSAGES.cbhpmOnly });
    }
  }
  return { ...input, code: code.ok ? code.code : input.code };
});
export type MedicalCodeInput = z.infer<typeof medicalCodeSchema>;
