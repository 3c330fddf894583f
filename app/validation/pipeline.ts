import { z } from "zod";
import { OPME_REASON_MAX } from "~/lib/opme";
import { DENIAL_REASON_MAX, PIPELINE_STAGE_IDS } from "~/lib/pipeline";
import { optionalText } from "./common";

export const PIPELINE_MESSAGES = {
  stage: "Escolha uma das etapas do pipeline.",
  denialReason: "Informe o motivo da negativa do convênio.",
} as const;

/**
 * A card's move (the board's menu, drag and drop, or the denial form). A move to 'Negado' needs
 * the denial reason and says whether the clinic appeals.
 */
export const moveSchema = z
  .object({
    to: z.enum(PIPELINE_STAGE_IDS, { message: PIPELINE_MESSAGES.stage }),
    denialReason: optionalText(DENIAL_REASON_MAX, { multiline: true }),
    denialAppeal: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
    /** Why 'Aprovado' goes ahead without OPME quotes from three different suppliers (checked by the move). */
    justification: optionalText(OPME_REASON_MAX, { multiline: true }),
  })
  .superRefine((value, ctx) => {
    if (value.to === "negado" && !value.denialReason) {
      ctx.addIssue({ code: "custom", path: ["denialReason"], message: PIPELINE_MESSAGES.denialReason });
    }
  });

export type MoveInput = z.infer<typeof moveSchema>;
