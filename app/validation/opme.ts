import { z } from "zod";
import { OPME_REASON_MAX, normalizeAnvisa } from "~/lib/opme";
import { boundedNumber } from "./bounded-number";
import { isoDate, optionalText, reaisToCents, requiredText } from "./common";

/** The OPME screen's forms (app/routes/pipeline-opme.tsx), shared by the browser and the server. */

export const opmeItemSchema = z.object({
  description: requiredText("Descreva o item", 200),
  quantity: boundedNumber({
    min: 1,
    max: 9999,
    step: 1,
    messages: { invalid: "Informe uma quantidade inteira", min: "A quantidade mínima é 1", max: "A quantidade máxima é 9999", required: "Informe a quantidade" },
  }),
  anvisaRegistration: optionalText(30).transform((value, ctx) => {
    if (value === null) return null;
    const digits = normalizeAnvisa(value);
    if (!digits) {
      ctx.issues.push({ code: "custom", message: "Registro ANVISA inválido: use os 11 dígitos", input: value });
      return z.NEVER;
    }
    return digits;
  }),
});
export type OpmeItemInput = z.infer<typeof opmeItemSchema>;

const recordId = z.coerce.number({ error: "Registro inválido" }).int("Registro inválido").positive("Registro inválido");

export const opmeQuoteSchema = z.object({
  supplierId: z.coerce.number({ error: "Escolha o fornecedor" }).int("Escolha o fornecedor").positive("Escolha o fornecedor"),
  validUntil: isoDate({ required: "Informe a validade da cotação" }),
  notes: optionalText(500, { multiline: true }),
  prices: z
    .array(z.object({ itemId: recordId, price: reaisToCents({ required: true }) }), { error: "Informe os preços dos itens" })
    .min(1, "Cadastre os itens antes da cotação")
    .max(200),
});
export type OpmeQuoteInput = z.infer<typeof opmeQuoteSchema>;

export const opmeChoiceSchema = z.object({
  quoteId: recordId,
  reason: requiredText("Explique por que esta cotação foi escolhida", OPME_REASON_MAX),
});
export type OpmeChoiceInput = z.infer<typeof opmeChoiceSchema>;

/** Removing an item or a quote: the row's id beside the request's surgery. */
export const opmeRowSchema = z.object({ rowId: recordId });
