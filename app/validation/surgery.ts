import { z } from "./zod";
import { SURGERY_STATUSES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { INITIAL_PIPELINE_STAGE, PIPELINE_STAGE_IDS } from "~/lib/pipeline";
import { clinicDateTime, optionalText, reaisToCents, requiredText } from "./common";

/** The choice in the hospital and payer selects that means "not in Cadastros: type the name". */
export const OTHER_CHOICE = "outro";

export const SURGERY_MESSAGES = {
  patient: "Selecione o paciente",
  doctor: "Selecione o médico",
  surgeryType: "Informe o tipo de cirurgia",
  scheduledDate: "Informe a data e a hora da cirurgia",
  status: "Status inválido",
  stage: "Etapa inválida",
  duration: "Informe a duração em minutos (ex.: 120)",
  durationMin: "A duração deve ser de pelo menos 1 minuto",
  durationMax: "A duração máxima é de 1.440 minutos (24 horas)",
  hospital: "Hospital inválido",
  hospitalName: "Informe o nome do hospital",
  payer: "Pagador inválido",
  payerName: "Informe o nome do pagador",
} as const;

/** Longest estimated duration accepted: a whole day. */
export const MAX_DURATION_MIN = 24 * 60;

function fail(ctx: z.RefinementCtx, message: string, input: unknown): never {
  ctx.issues.push({ code: "custom", message, input });
  return z.NEVER;
}

/** True when none of `fields` has an issue yet (so their parsed values can be read). */
function fieldsParsed(issues: ReadonlyArray<{ path?: ReadonlyArray<PropertyKey> }>, fields: readonly string[]) {
  return !issues.some((issue) => fields.includes(String(issue.path?.[0])));
}

/** A picker's value: the id of the chosen row; empty or not an id reports `message`. */
function requiredId(message: string) {
  return z
    .string({ error: message })
    .nullish()
    .transform((value, ctx) => parseId(value) ?? fail(ctx, message, value));
}

/** A select of Cadastros rows: an id, `OTHER_CHOICE` (name typed beside it), or empty → null. */
function registryChoice(message: string) {
  return z
    .string({ error: message })
    .nullish()
    .transform((value, ctx): number | typeof OTHER_CHOICE | null => {
      const text = value?.trim() ?? "";
      if (text === "") return null;
      if (text === OTHER_CHOICE) return OTHER_CHOICE;
      return parseId(text) ?? fail(ctx, message, value);
    });
}

/**
 * Estimated duration in minutes (SPEC §5: optional, "converted to an integer"): '120' → 120,
 * '90,5' or '90.5' → 91 (rounded to the minute); empty → null.
 */
const estimatedDurationMin = z
  .string({ error: SURGERY_MESSAGES.duration })
  .nullish()
  .transform((value, ctx) => {
    const text = (value ?? "").trim().replace(",", ".");
    if (text === "") return null;
    if (!/^\d{1,6}(\.\d+)?$/.test(text)) return fail(ctx, SURGERY_MESSAGES.duration, value);
    const minutes = Math.round(Number(text));
    if (minutes < 1) return fail(ctx, SURGERY_MESSAGES.durationMin, value);
    if (minutes > MAX_DURATION_MIN) return fail(ctx, SURGERY_MESSAGES.durationMax, value);
    return minutes;
  });

/**
 * The surgery dialog (SPEC §3, §5). Patient, doctor, surgery type and scheduled date are required.
 * The status field is posted as `surgeryStatus` (not `status`) so the no-JavaScript picker search,
 * which resubmits the form as a GET, does not collide with the list's `?status=` filter.
 * `billedAmount` is typed in reais ('1.234,56') and comes out as integer cents.
 */
export const surgerySchema = z
  .object({
    patientId: requiredId(SURGERY_MESSAGES.patient),
    doctorId: requiredId(SURGERY_MESSAGES.doctor),
    surgeryType: requiredText(SURGERY_MESSAGES.surgeryType, 200),
    scheduledDate: clinicDateTime({ required: SURGERY_MESSAGES.scheduledDate }),
    surgeryStatus: z.enum(SURGERY_STATUSES, { error: SURGERY_MESSAGES.status }).default("scheduled"),
    currentStage: z.enum(PIPELINE_STAGE_IDS, { error: SURGERY_MESSAGES.stage }).default(INITIAL_PIPELINE_STAGE),
    estimatedDurationMin,
    hospitalId: registryChoice(SURGERY_MESSAGES.hospital),
    hospitalName: optionalText(200),
    payerId: registryChoice(SURGERY_MESSAGES.payer),
    payerName: optionalText(200),
    guideNumber: optionalText(60),
    billedAmount: reaisToCents({ required: false }),
    notes: optionalText(5000, { multiline: true }),
  })
  // 'Outro' needs a typed name. `when` lets these checks run even while other fields have errors,
  // so every message shows at once (zod skips refinements of an object with issues by default).
  .refine((value) => value.hospitalId !== OTHER_CHOICE || value.hospitalName !== null, {
    path: ["hospitalName"],
    message: SURGERY_MESSAGES.hospitalName,
    when: (payload) => fieldsParsed(payload.issues, ["hospitalId", "hospitalName"]),
  })
  .refine((value) => value.payerId !== OTHER_CHOICE || value.payerName !== null, {
    path: ["payerName"],
    message: SURGERY_MESSAGES.payerName,
    when: (payload) => fieldsParsed(payload.issues, ["payerId", "payerName"]),
  });

export type SurgeryInput = z.infer<typeof surgerySchema>;

/** The dialog's field names, e.g. to refill them from a picker's GET round trip. */
export const SURGERY_FORM_FIELDS = [
  "patientId",
  "doctorId",
  "surgeryType",
  "scheduledDate",
  "surgeryStatus",
  "currentStage",
  "estimatedDurationMin",
  "hospitalId",
  "hospitalName",
  "payerId",
  "payerName",
  "guideNumber",
  "billedAmount",
  "notes",
] as const;
