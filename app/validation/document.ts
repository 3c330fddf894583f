import { z } from "zod";
import { DOCUMENT_CATEGORIES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { optionalText } from "./common";

export const DOCUMENT_MESSAGES = {
  patientRequired: "Escolha o paciente do documento",
  categoryRequired: "Escolha a categoria do documento",
  surgeryInvalid: "Cirurgia inválida",
} as const;

/**
 * The text fields of the document upload (/files): the file itself is read and checked by the
 * server as it streams (app/.server/uploads.ts), never by this schema.
 */
export const documentSchema = z.object({
  patientId: z
    .string({ error: DOCUMENT_MESSAGES.patientRequired })
    .nullish()
    .transform((value, ctx) => {
      const id = parseId(value);
      if (id !== null) return id;
      ctx.issues.push({ code: "custom", message: DOCUMENT_MESSAGES.patientRequired, input: value });
      return z.NEVER;
    }),
  surgeryId: z
    .string()
    .nullish()
    .transform((value, ctx) => {
      if (value == null || value === "") return null;
      const id = parseId(value);
      if (id !== null) return id;
      ctx.issues.push({ code: "custom", message: DOCUMENT_MESSAGES.surgeryInvalid, input: value });
      return z.NEVER;
    }),
  category: z.enum(DOCUMENT_CATEGORIES, { error: DOCUMENT_MESSAGES.categoryRequired }),
  note: optionalText(500, { multiline: true }),
});

export type DocumentInput = z.infer<typeof documentSchema>;
