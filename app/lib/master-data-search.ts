import type { hospitals, medicalCodes, payers, suppliers } from "~db/schema";
import { formatCnpj } from "./documents";
import { HOSPITAL_TYPE_LABELS, MEDICAL_CODE_TYPE_LABELS, PAYER_TYPE_LABELS, SUPPLIER_TYPE_LABELS } from "./enums";
import { twinCode } from "./medical-codes";
import { buildSearchText } from "./search";

/**
 * The stored search keys of the Cadastros rows, shared by the models and the seeds (which must not
 * open the server's database by importing a model). Each starts with the name, so ordering by the
 * key sorts 'Álvaro' with the A's.
 */

type PayerRow = typeof payers.$inferInsert;
type HospitalRow = typeof hospitals.$inferInsert;
type SupplierRow = typeof suppliers.$inferInsert;
type MedicalCodeRow = typeof medicalCodes.$inferInsert;

/** Payer (convênio): name, CNPJ (formatted and bare), registro ANS, e-mail and type. */
export function payerSearchText(
  p: Pick<PayerRow, "name" | "cnpj" | "contactEmail"> & { ansRegistration?: string | null; type: NonNullable<PayerRow["type"]> },
) {
  return buildSearchText(p.name, formatCnpj(p.cnpj), p.ansRegistration, p.contactEmail, PAYER_TYPE_LABELS[p.type]);
}

/** Hospital: name, city, CNPJ (formatted and bare), CNES and type. */
export function hospitalSearchText(
  h: Pick<HospitalRow, "name" | "city" | "cnpj"> & { cnes?: string | null; type: NonNullable<HospitalRow["type"]> },
) {
  return buildSearchText(h.name, h.city, formatCnpj(h.cnpj), h.cnes, HOSPITAL_TYPE_LABELS[h.type]);
}

/** Supplier: name, CNPJ (formatted and bare), e-mail and type. */
export function supplierSearchText(s: Pick<SupplierRow, "name" | "cnpj" | "contactEmail"> & { type: NonNullable<SupplierRow["type"]> }) {
  return buildSearchText(s.name, formatCnpj(s.cnpj), s.contactEmail, SUPPLIER_TYPE_LABELS[s.type]);
}

/** Medical code: code, description, category, type, and a CBHPM/TUSS code's twin ('30715180' finds both). */
export function medicalCodeSearchText(c: Pick<MedicalCodeRow, "code" | "description" | "category" | "type">) {
  return buildSearchText(c.code, c.description, c.category, MEDICAL_CODE_TYPE_LABELS[c.type], twinCode(c.type, c.code)?.code);
}
