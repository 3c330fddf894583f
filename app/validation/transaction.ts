import { z } from "zod";
import { TRANSACTION_TYPES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { isoDate, optionalText, reaisToCents, requiredText } from "./common";

export const TRANSACTION_MESSAGES = {
  type: "Escolha o tipo: receita ou despesa",
  category: "Informe a categoria",
  date: "Informe a data",
  surgery: "Cirurgia inválida",
} as const;

/**
 * The /financial dialog (SPEC §3, §5): type, amount, category and date required; the amount is
 * typed in reais and kept as integer cents (at least R$ 0,01); the surgery link is optional.
 * Type and category are posted as `transactionType` / `transactionCategory` so that the picker's
 * no-JavaScript search (a GET of the whole form) does not collide with the list's filters.
 */
export const transactionSchema = z.object({
  transactionType: z.enum(TRANSACTION_TYPES, { error: TRANSACTION_MESSAGES.type }),
  // Typed in reais, held as cents.
  amount: reaisToCents({ min: 1 }),
  transactionCategory: requiredText(TRANSACTION_MESSAGES.category, 80),
  description: optionalText(500),
  transactionDate: isoDate({ required: TRANSACTION_MESSAGES.date }),
  surgeryId: z
    .string({ error: TRANSACTION_MESSAGES.surgery })
    .nullish()
    .transform((value, ctx) => {
      const text = value?.trim() ?? "";
      if (text === "" || text === "none") return null;
      const id = parseId(text);
      if (id !== null) return id;
      ctx.issues.push({ code: "custom", message: TRANSACTION_MESSAGES.surgery, input: value });
      return z.NEVER;
    }),
});
export type TransactionInput = z.infer<typeof transactionSchema>;
