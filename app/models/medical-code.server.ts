import type { medicalCodes } from "~db/schema";
import { MEDICAL_CODE_TYPE_LABELS } from "~/lib/enums";
import { buildSearchText } from "~/lib/search";

type MedicalCodeRow = typeof medicalCodes.$inferInsert;

/** The stored search key of a medical code (CBHPM, TUSS, CID-10, own): code, description, category and type. */
export function medicalCodeSearchText(c: Pick<MedicalCodeRow, "code" | "description" | "category" | "type">) {
  return buildSearchText(c.code, c.description, c.category, MEDICAL_CODE_TYPE_LABELS[c.type]);
}
