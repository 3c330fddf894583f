import { and, eq } from "drizzle-orm";
import { medicalCodes, surgeryFeeLines } from "~db/schema";
import { db } from "~/.server/db";
import { isUniqueViolation } from "~/.server/sql-errors";
import { MEDICAL_CODE_TYPE_LABELS, type MedicalCodeType } from "~/lib/enums";
import type { ListParams } from "~/lib/list-params";
import { medicalCodeSearchText } from "~/lib/master-data-search";
import { MASTER_DATA_MESSAGES, type MedicalCodeInput } from "~/validation/master-data";
import {
  type CatalogSpec,
  MasterDataError,
  catalogPage,
  createRecord,
  deleteBlock,
  deleteRecord,
  getRecord,
  orderBy,
  referenceCount,
  searchIn,
  updateRecord,
} from "./master-data.server";

export { medicalCodeSearchText };

const MEDICAL_CODE = {
  table: medicalCodes,
  entity: "medical_code",
  notFound: "Código não encontrado.",
  thisOne: "este código",
  nameOf: (row) => String(row.code),
  searchText: medicalCodeSearchText,
  references: (conn, id) => referenceCount(conn, surgeryFeeLines, surgeryFeeLines.medicalCodeId, id, "linha de honorários", "linhas de honorários"),
} satisfies CatalogSpec<MedicalCodeInput>;

const CODE_FIELDS = {
  code: medicalCodes.code,
  type: medicalCodes.type,
  description: medicalCodes.description,
  category: medicalCodes.category,
  porte: medicalCodes.porte,
  assistantsCount: medicalCodes.assistantsCount,
  anestheticPorte: medicalCodes.anestheticPorte,
  priceCents: medicalCodes.priceCents,
  active: medicalCodes.active,
};

type CodeState = ListParams<"code"> & { filters: { type: MedicalCodeType | null } };

function codeWhere({ q, filters }: Pick<CodeState, "q" | "filters">) {
  return and(filters.type ? eq(medicalCodes.type, filters.type) : undefined, searchIn(medicalCodes, q));
}

const codeOrder = (dir: "asc" | "desc") => ({ key: medicalCodes.code, id: medicalCodes.id, dir });

export function listMedicalCodes(state: CodeState) {
  return catalogPage(medicalCodes, state, codeWhere(state), codeOrder(state.dir), CODE_FIELDS);
}

export function medicalCodeExport(state: Omit<CodeState, "page">) {
  const query = db.select(CODE_FIELDS).from(medicalCodes).where(codeWhere(state)).orderBy(...orderBy(codeOrder(state.dir)));
  return { fields: CODE_FIELDS, query };
}

export type MedicalCode = typeof medicalCodes.$inferSelect;
export const getMedicalCode = (id: number) => getRecord<MedicalCode>(medicalCodes, id);

function codeTaken(input: Pick<MedicalCodeInput, "type" | "code">): never {
  throw new MasterDataError(`O código ${input.code} já está cadastrado como ${MEDICAL_CODE_TYPE_LABELS[input.type]}.`, "code");
}

/** A code is unique within its type (also enforced by the index medical_codes_type_code_unique). */
export function createMedicalCode(userId: number, input: MedicalCodeInput) {
  const clash = db.select({ id: medicalCodes.id }).from(medicalCodes).where(and(eq(medicalCodes.type, input.type), eq(medicalCodes.code, input.code))).get();
  if (clash) codeTaken(input);
  try {
    return createRecord(MEDICAL_CODE, userId, input);
  } catch (error) {
    if (isUniqueViolation(error)) codeTaken(input);
    throw error;
  }
}

/** Code and type never change once saved (SPEC §5): a form that sends others is refused, not obeyed. */
export function updateMedicalCode(userId: number, id: number, input: MedicalCodeInput) {
  updateRecord(MEDICAL_CODE, userId, id, input, (before) => {
    if (before.code !== input.code || before.type !== input.type) throw new MasterDataError(MASTER_DATA_MESSAGES.codeImmutable, "code");
  });
}

export const deleteMedicalCode = (userId: number, id: number) => deleteRecord(MEDICAL_CODE, userId, id);
export const medicalCodeDeleteBlock = (code: Pick<MedicalCode, "id" | "code">) => deleteBlock(MEDICAL_CODE, code.id, code.code);
