import { z } from "zod";
import { CHECKLIST_ITEM_MAX, CHECKLIST_MAX_ITEMS, PIPELINE_STAGE_IDS } from "~/lib/pipeline";
import { cleanText, requiredText } from "./common";

export { CHECKLIST_ITEM_MAX, CHECKLIST_MAX_ITEMS };

/** A stage's checklist (Configurações → Checklists): a title, on/off, and one item per line. */
export const checklistSchema = z.object({
  stage: z.enum(PIPELINE_STAGE_IDS, { message: "Escolha uma das etapas do pipeline." }),
  title: requiredText("Informe o título da tarefa", 120),
  active: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  items: z
    .string()
    .max(CHECKLIST_MAX_ITEMS * (CHECKLIST_ITEM_MAX + 2), "Lista longa demais")
    .nullish()
    .transform((value, ctx) => {
      const lines = (value ?? "")
        .split(/\r?\n/)
        .map((line) => cleanText(line))
        .filter(Boolean);
      if (lines.length > CHECKLIST_MAX_ITEMS) {
        ctx.issues.push({ code: "custom", message: `Use no máximo ${CHECKLIST_MAX_ITEMS} itens`, input: value });
        return z.NEVER;
      }
      if (lines.some((line) => line.length > CHECKLIST_ITEM_MAX)) {
        ctx.issues.push({ code: "custom", message: `Cada item tem no máximo ${CHECKLIST_ITEM_MAX} caracteres`, input: value });
        return z.NEVER;
      }
      return lines;
    }),
});
export type ChecklistInput = z.infer<typeof checklistSchema>;
