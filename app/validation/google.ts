import { z } from "zod";
import { GOOGLE_NAME_PRIVACY, GOOGLE_SYNC_MODES } from "~/lib/enums";
import { requiredText } from "./common";

/** 'Create Form' (/google-forms): the form's title. */
export const googleFormSchema = z.object({
  title: requiredText("Informe o título do formulário", 200),
});
export type GoogleFormInput = z.infer<typeof googleFormSchema>;

/** The calendar push settings (/google-calendar): where events go and how patients are named. */
export const googleCalendarSettingsSchema = z
  .object({
    syncMode: z.enum(GOOGLE_SYNC_MODES, { error: "Escolha para onde enviar" }),
    clinicCalendarId: z.string().trim().max(1024, "Calendário inválido").optional(),
    namePrivacy: z.enum(GOOGLE_NAME_PRIVACY, { error: "Escolha como o paciente aparece" }),
  })
  .refine((value) => value.syncMode !== "clinic" || !!value.clinicCalendarId, {
    message: "Escolha o calendário da clínica",
    path: ["clinicCalendarId"],
  });
export type GoogleCalendarSettingsInput = z.infer<typeof googleCalendarSettingsSchema>;

/** One doctor's calendar when events go to one calendar per doctor (empty: the doctor's events are not sent). */
export const googleDoctorCalendarSchema = z.object({
  doctorId: z.coerce.number({ error: "Médico inválido" }).int().positive("Médico inválido"),
  calendarId: z.string().trim().max(1024, "Calendário inválido").optional(),
});
export type GoogleDoctorCalendarInput = z.infer<typeof googleDoctorCalendarSchema>;
