import { CONSENT_PURPOSES, CONSENT_SOURCES } from "~/lib/consents";
import { z } from "./zod";

/** The patient page's 'Registrar consentimento' form: a purpose, given or withdrawn, and how. */
export const consentSchema = z.object({
  purpose: z.enum(CONSENT_PURPOSES, { error: "Escolha a finalidade" }),
  granted: z.enum(["sim", "nao"], { error: "Escolha se o paciente autoriza ou revoga" }),
  source: z.enum(CONSENT_SOURCES, { error: "Escolha a origem" }),
});
export type ConsentInput = z.infer<typeof consentSchema>;

/** The anonymisation dialog: the administrator must tick that they understand it cannot be undone. */
export const anonymiseSchema = z.object({
  confirm: z.literal("sim", { error: "Marque a confirmação para anonimizar" }),
});
