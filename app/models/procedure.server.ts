import { type SQL, and, eq, or, sql } from "drizzle-orm";
import { medicalCodes } from "~db/schema";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import type { ListParams } from "~/lib/list-params";
import type { ProcedureFilters } from "~/lib/lists";
import { likeContains } from "~/lib/search";
import { catalogPage } from "./master-data.server";

/**
 * /procedures: the medical codes (CBHPM, TUSS, CID-10, own) as a searchable, read-only list.
 * The search matches every word against the stored key (accent- and case-insensitive: code,
 * description, category, type, the CBHPM/TUSS twin); a word with a digit is a code and also
 * matches with its dots and dashes removed on both sides, so '3.07.15.18-0', '30715180',
 * 'm51.1' and 'm511' all find their code.
 */

type ProcedureState = ListParams<"code"> & { filters: ProcedureFilters };

/** Punctuation a code is written with ('3.07.15.18-0', 'M51.1'). */
const bare = (text: SQL | typeof medicalCodes.searchText) => sql`replace(replace(${text}, '.', ''), '-', '')`;

function codeWord(word: string): SQL {
  if (!/\d/.test(word)) return likeWord(medicalCodes.searchText, word);
  const stripped = word.replace(/[.-]/g, "");
  if (!stripped) return likeWord(medicalCodes.searchText, word);
  return or(likeWord(medicalCodes.searchText, word), sql`${bare(medicalCodes.searchText)} like ${likeContains(stripped)} escape '\\'`)!;
}

export function procedureWhere({ q, filters }: Pick<ProcedureState, "q" | "filters">): SQL | undefined {
  return and(
    filters.type ? eq(medicalCodes.type, filters.type) : undefined,
    // '+': filter while walking the code order's index instead of sorting every active code.
    filters.active ? sql`+${medicalCodes.active} = ${filters.active === "sim" ? 1 : 0}` : undefined,
    matchAllWords(q, codeWord),
  );
}

const PROCEDURE_FIELDS = {
  code: medicalCodes.code,
  type: medicalCodes.type,
  description: medicalCodes.description,
  category: medicalCodes.category,
  priceCents: medicalCodes.priceCents,
  active: medicalCodes.active,
};

export function listProcedures(state: ProcedureState) {
  return catalogPage(medicalCodes, state, procedureWhere(state), { key: medicalCodes.code, id: medicalCodes.id, dir: state.dir }, PROCEDURE_FIELDS);
}
