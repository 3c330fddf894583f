import type { payers } from "~db/schema";
import { formatCnpj } from "~/lib/documents";
import { PAYER_TYPE_LABELS } from "~/lib/enums";
import { buildSearchText } from "~/lib/search";

type PayerRow = typeof payers.$inferInsert;

/** The stored search key of a payer (convênio): name, CNPJ (formatted and bare), e-mail and type. */
export function payerSearchText(p: Pick<PayerRow, "name" | "cnpj" | "contactEmail"> & { type: NonNullable<PayerRow["type"]> }) {
  return buildSearchText(p.name, formatCnpj(p.cnpj), p.contactEmail, PAYER_TYPE_LABELS[p.type]);
}
