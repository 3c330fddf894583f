import type { suppliers } from "~db/schema";
import { formatCnpj } from "~/lib/documents";
import { SUPPLIER_TYPE_LABELS } from "~/lib/enums";
import { buildSearchText } from "~/lib/search";

type SupplierRow = typeof suppliers.$inferInsert;

/** The stored search key of a supplier: name, CNPJ (formatted and bare), e-mail and type. */
export function supplierSearchText(s: Pick<SupplierRow, "name" | "cnpj" | "contactEmail"> & { type: NonNullable<SupplierRow["type"]> }) {
  return buildSearchText(s.name, formatCnpj(s.cnpj), s.contactEmail, SUPPLIER_TYPE_LABELS[s.type]);
}
