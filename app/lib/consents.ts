/**
 * The consents a clinic records for a patient (docs/decisions/0022-lgpd-rights.md). Browser-safe:
 * the patient page, its dialog and the server read the same lists.
 *
 * WhatsApp is one of them, but its state lives where the messaging reads it
 * (`patients.whatsapp_opt_in`, history in `whatsapp_consents`); the others are logged in
 * `patient_consents`. Every change is a new row: history is kept, never overwritten.
 */
export const CONSENT_PURPOSES = ["whatsapp", "tratamento_dados", "uso_imagem", "pesquisa"] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];
/** The purposes logged in `patient_consents` (WhatsApp has its own log). */
export const OTHER_CONSENT_PURPOSES = ["tratamento_dados", "uso_imagem", "pesquisa"] as const;

export const CONSENT_PURPOSE_LABELS: Record<ConsentPurpose, string> = {
  whatsapp: "Mensagens por WhatsApp",
  tratamento_dados: "Termo de privacidade (tratamento de dados)",
  uso_imagem: "Uso de imagem",
  pesquisa: "Pesquisa científica",
};

export const CONSENT_PURPOSE_DESCRIPTIONS: Record<ConsentPurpose, string> = {
  whatsapp: "Lembretes, orientações e avisos da clínica pelo WhatsApp.",
  tratamento_dados:
    "Ciência do termo de privacidade da clínica. O atendimento e o prontuário não dependem dele (LGPD art. 11, II, f; Lei 13.787/2018).",
  uso_imagem: "Fotos e vídeos de exames e procedimentos em aulas, congressos ou publicações, sem identificar o paciente.",
  pesquisa: "Uso dos dados clínicos, sem identificação, em pesquisas científicas.",
};

/** How a consent was given or withdrawn; the same list as the WhatsApp log (whatsapp_consents.source). */
export const CONSENT_SOURCES = ["cadastro", "formulario", "verbal", "paciente_whatsapp"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export const CONSENT_SOURCE_LABELS: Record<ConsentSource, string> = {
  cadastro: "Cadastro do paciente",
  formulario: "Termo assinado",
  verbal: "Verbal (registrado pela equipe)",
  paciente_whatsapp: "Pelo WhatsApp",
};

/** How many past decisions of one purpose the dialog shows (a purpose rarely has more than a few). */
export const CONSENT_HISTORY_LIMIT = 20;

export function isConsentPurpose(value: unknown): value is ConsentPurpose {
  return typeof value === "string" && (CONSENT_PURPOSES as readonly string[]).includes(value);
}
