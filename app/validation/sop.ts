import { z } from "zod";
import { SOP_STATUSES } from "~/lib/enums";
import { requiredText } from "./common";

/** The SOP dialog (SPEC §3, §5): title, category and content (Markdown) required; status draft by default. */
export const sopSchema = z.object({
  title: requiredText("Informe o título", 200),
  category: requiredText("Informe a categoria", 120),
  contentMd: z
    .string({ error: "Escreva o conteúdo" })
    .trim()
    .min(1, "Escreva o conteúdo")
    .max(100_000, "Use no máximo 100000 caracteres"),
  status: z.enum(SOP_STATUSES, { error: "Escolha o status" }).default("draft"),
});

export type SopInput = z.infer<typeof sopSchema>;
