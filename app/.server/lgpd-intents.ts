/**
 * The record page's writes (/patients/:id action): consents (admins and staff) and, for admins,
 * anonymisation (docs/decisions/0022-lgpd-rights.md). Declared here so the page module stays small.
 */
import { anonymiseSchema, consentSchema } from "~/validation/consent";
import { type Intent, intent } from "./intent-action";
import { anonymisePatient } from "./lgpd-anonymise";
import { recordConsent } from "./lgpd-consents";

export function patientRecordIntents(patientId: number): Record<string, Intent> {
  return {
    "record-consent": intent({
      permission: ["patients", "edit"],
      schema: consentSchema,
      run: ({ user, input }) => recordConsent(user.id, patientId, input),
      success: "Consentimento registrado",
      failure: "Erro ao registrar consentimento",
    }),
    anonymise: intent({
      permission: ["patients", "delete"],
      schema: anonymiseSchema,
      run: ({ user }) => anonymisePatient(user.id, patientId),
      success: "Paciente anonimizado",
      failure: "Erro ao anonimizar paciente",
    }),
  };
}
