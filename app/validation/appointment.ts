import { z } from "./zod";
import { APPOINTMENT_STATUSES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { clinicDateTime, optionalText, requiredText } from "./common";

/** Longest appointment accepted; it also bounds the window the double-booking check scans. */
export const MAX_APPOINTMENT_HOURS = 12;

export const APPOINTMENT_MESSAGES = {
  patientRequired: "Selecione o paciente",
  doctorRequired: "Selecione o médico",
  startRequired: "Informe a data e a hora de início",
  endRequired: "Informe a data e a hora de término",
  typeRequired: "Informe o tipo de consulta",
  statusInvalid: "Status inválido",
  endBeforeStart: "O horário de término deve ser depois do início",
  tooLong: `Uma consulta pode durar no máximo ${MAX_APPOINTMENT_HOURS} horas`,
} as const;

/** The id of a row picked in a select; blank or not a positive integer reports `message`. */
function pickedId(message: string) {
  return z
    .string({ error: message })
    .nullish()
    .transform((value, ctx) => {
      const id = parseId(value);
      if (id !== null) return id;
      ctx.issues.push({ code: "custom", message, input: value });
      return z.NEVER;
    });
}

/**
 * The appointment dialog (SPEC §3, §5): patient, doctor, start, end and type required; status
 * defaults to scheduled. Start and end are São Paulo wall times from `datetime-local` inputs.
 */
export const appointmentSchema = z
  .object({
    patientId: pickedId(APPOINTMENT_MESSAGES.patientRequired),
    doctorId: pickedId(APPOINTMENT_MESSAGES.doctorRequired),
    startTime: clinicDateTime({ required: APPOINTMENT_MESSAGES.startRequired }),
    endTime: clinicDateTime({ required: APPOINTMENT_MESSAGES.endRequired }),
    type: requiredText(APPOINTMENT_MESSAGES.typeRequired, 120),
    location: optionalText(160),
    status: z.preprocess(
      (value) => (value === "" || value === null ? undefined : value),
      z.enum(APPOINTMENT_STATUSES, { error: APPOINTMENT_MESSAGES.statusInvalid }).default("scheduled"),
    ),
    notes: optionalText(5000, { multiline: true }),
  })
  .superRefine((value, ctx) => {
    const { startTime, endTime } = value;
    // Runs even when other fields failed (see `when`), so both times may still be raw input.
    if (!(startTime instanceof Date) || !(endTime instanceof Date)) return;
    if (endTime.getTime() <= startTime.getTime()) {
      ctx.addIssue({ code: "custom", path: ["endTime"], message: APPOINTMENT_MESSAGES.endBeforeStart });
    } else if (endTime.getTime() - startTime.getTime() > MAX_APPOINTMENT_HOURS * 3_600_000) {
      ctx.addIssue({ code: "custom", path: ["endTime"], message: APPOINTMENT_MESSAGES.tooLong });
    }
  }, { when: () => true });

export type AppointmentInput = z.infer<typeof appointmentSchema>;
