import { z } from "zod";
import { ORDER_STATUSES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { MAX_CENTS, parseReaisToCents } from "~/lib/money";
import { optionalText, requiredText } from "./common";

/**
 * The order dialog (SPEC §3, §5; issue 10): order type required, status pending by default, patient
 * and supplier optional (empty → null), and the items typed as rows (description, quantity, unit
 * price in reais). Blank rows are dropped; the total is computed from the items, never typed.
 */
export const ORDER_MESSAGES = {
  description: "Descreva o item",
  quantity: "Quantidade: um número inteiro de 1 a 100000",
  unitPrice: "Valor unitário inválido",
  tooMany: "No máximo 50 itens por pedido",
} as const;

/** The most rows the dialog offers (the items are kept in the order's JSON). */
export const MAX_ORDER_ITEMS = 50;

const optionalId = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value, ctx) => {
    if (value === undefined || value === null || value === "" || value === "none") return null;
    const id = parseId(value);
    if (id === null) ctx.issues.push({ code: "custom", message: "Escolha uma opção da lista", input: value });
    return id;
  });

const itemRow = z
  .object({
    description: z.string().nullish(),
    quantity: z.string().nullish(),
    unitPrice: z.string().nullish(),
  })
  .nullish();

export interface OrderItem {
  description: string;
  quantity: number;
  /** Unit price in cents; null while not quoted. */
  unitCents: number | null;
}

const items = z
  .array(itemRow)
  .nullish()
  .transform((rows, ctx): OrderItem[] => {
    const out: OrderItem[] = [];
    (rows ?? []).forEach((row, index) => {
      const description = row?.description?.trim() ?? "";
      const quantityText = row?.quantity?.trim() ?? "";
      const priceText = row?.unitPrice?.trim() ?? "";
      if (!description && !quantityText && !priceText) return;
      const issue = (field: string, message: string) => ctx.issues.push({ code: "custom", path: [index, field], message, input: row });
      if (!description) issue("description", ORDER_MESSAGES.description);
      if (description.length > 255) issue("description", "Use no máximo 255 caracteres");
      const quantity = quantityText === "" ? 1 : Number(quantityText.replace(",", "."));
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > 100_000) issue("quantity", ORDER_MESSAGES.quantity);
      const cents = parseReaisToCents(priceText);
      if (cents === undefined || (cents !== null && (cents < 0 || cents > MAX_CENTS))) issue("unitPrice", ORDER_MESSAGES.unitPrice);
      out.push({ description, quantity, unitCents: cents ?? null });
    });
    if (out.length > MAX_ORDER_ITEMS) ctx.issues.push({ code: "custom", message: ORDER_MESSAGES.tooMany, input: rows });
    return out;
  });

export const orderSchema = z.object({
  orderType: requiredText("Informe o tipo do pedido", 120),
  status: z.enum(ORDER_STATUSES, { error: "Escolha o status" }).default("pending"),
  patientId: optionalId,
  supplierId: optionalId,
  items,
  notes: optionalText(5_000, { multiline: true }),
});

export type OrderInput = z.infer<typeof orderSchema>;

/** The order's total in cents from its items (unpriced items count 0); null without any priced item. */
export function orderTotalCents(list: readonly OrderItem[]): number | null {
  const priced = list.filter((item) => item.unitCents !== null);
  return priced.length ? priced.reduce((sum, item) => sum + item.quantity * (item.unitCents ?? 0), 0) : null;
}
