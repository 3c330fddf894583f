import type { hospitals } from "~db/schema";
import { formatCnpj } from "~/lib/documents";
import { HOSPITAL_TYPE_LABELS } from "~/lib/enums";
import { buildSearchText } from "~/lib/search";

type HospitalRow = typeof hospitals.$inferInsert;

/** The stored search key of a hospital: name, city, CNPJ (formatted and bare) and type. */
export function hospitalSearchText(h: Pick<HospitalRow, "name" | "city" | "cnpj"> & { type: NonNullable<HospitalRow["type"]> }) {
  return buildSearchText(h.name, h.city, formatCnpj(h.cnpj), HOSPITAL_TYPE_LABELS[h.type]);
}
