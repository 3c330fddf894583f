import { type SQL, and, inArray, or, sql } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { doctors, patients } from "~db/schema";
import { db } from "~/.server/db";
import { COUNT_CAP, type KeysetOrder, countMatches } from "~/.server/pagination";
import { likeWord, searchWords } from "~/.server/search-sql";
import { patientSearch } from "./patient.server";

/**
 * Searching appointments and surgeries in time proportional to their matches
 * (docs/decisions/0008, 'Searches driven by their words'). A row matches a word when the word is in
 * its patient's key, its doctor's, or its own text; a search matches when every word does (ADR 0005).
 *
 * Tested row by row, a word that matches few rows costs a pass over the whole table for its count
 * (a million appointments: 170 ms for a rare name, 400 ms for one that matches nothing). Here each
 * word's rows are instead found through indexes, in four disjoint parts: the appointments of the
 * patients the word finds (trigram index, then `(patient_id, date)`), of the doctors it finds that
 * are not already there, the rows whose own stored key holds it (`ownIndexed`) that are in neither,
 * and rows still without a key (a partial index holds only them). Parts that cannot overlap are
 * counted and read with UNION ALL, which streams and stops at a LIMIT, where UNION builds the whole
 * set first.
 *
 * - The count follows the rarest word's parts (each word's own matches counted first, capped), each
 *   row tested for the other words and the filters, and stops after COUNT_CAP + 1.
 * - A search counted under the cap reads its page from those parts: their (date, id) from the
 *   indexes, sorted, and only the page's rows fetched. One over the cap walks the list's date order
 *   and tests each row, which finds a page within a few hundred rows when one row in a hundred matches.
 * - Words shorter than three characters never drive (the trigram indexes cannot answer them); they
 *   are tested row by row. A search made only of them is the row-by-row search throughout.
 */
export interface WordSearchTable {
  table: SQLiteTable;
  id: AnySQLiteColumn;
  patientId: AnySQLiteColumn;
  doctorId: AnySQLiteColumn;
  /** The stored key of the row's own text; null on rows written by hand until the next start. */
  searchText: AnySQLiteColumn;
  /** The row's own text as searched: the stored key, else the text folded now. */
  ownText: SQL;
  /** Rows whose stored key contains the word, through an index; null when the index cannot answer it. */
  ownIndexed: (word: string) => SQL | null;
}

/** Where a search's page comes from: its driving parts (sorted), or the order's index walked with `where`. */
export interface WordSearchPlan {
  where: SQL | undefined;
  total: number;
  totalCapped: boolean;
  parts: SQL[] | null;
}

const DRIVER_MIN_LENGTH = 3;

const patientsWith = (word: string) => sql`select ${patients.id} from ${patients} where ${patientSearch(word)}`;
const doctorsWith = (word: string) => sql`select ${doctors.id} from ${doctors} where ${likeWord(doctors.searchText, word)}`;

/** One row matches one word: in its patient, its doctor or its own text. */
function rowHasWord(t: WordSearchTable, word: string): SQL {
  return or(
    sql`${t.patientId} in (${patientsWith(word)})`,
    sql`${t.doctorId} in (${doctorsWith(word)})`,
    likeWord(t.ownText, word),
  )!;
}

/** The search tested row by row: every word matches (exports, and the walk of a common search). */
export function rowSearch(t: WordSearchTable, q: string): SQL | undefined {
  const words = searchWords(q);
  return words.length ? and(...words.map((word) => rowHasWord(t, word))) : undefined;
}

/** The rows matching `word`, as four disjoint conditions each answered by an index; null when the word cannot drive. */
function wordParts(t: WordSearchTable, word: string): SQL[] | null {
  const own = t.ownIndexed(word);
  if (!own || [...word].length < DRIVER_MIN_LENGTH) return null;
  const inPatients = sql`${t.patientId} in (${patientsWith(word)})`;
  const notPatients = sql`${t.patientId} not in (${patientsWith(word)})`;
  const inDoctors = sql`${t.doctorId} in (${doctorsWith(word)})`;
  const notDoctors = sql`${t.doctorId} not in (${doctorsWith(word)})`;
  return [
    inPatients,
    and(inDoctors, notPatients)!,
    and(own, notPatients, notDoctors)!,
    and(sql`${t.searchText} is null`, likeWord(t.ownText, word), notPatients, notDoctors)!,
  ];
}

/** How many rows the parts hold, counting no further than `cap + 1`. */
function countParts(t: WordSearchTable, parts: SQL[], cap: number): number {
  const union = sql.join(
    parts.map((part) => sql`select 1 from ${t.table} where ${part}`),
    sql` union all `,
  );
  return db.get<{ n: number }>(sql`select count(*) as n from (${union} limit ${cap + 1})`)!.n;
}

/**
 * The search `q` with the list's `filters`: its capped total, and where its pages come from.
 * `where` is the whole condition row by row (search and filters) for the walk.
 */
export function planWordSearch(t: WordSearchTable, q: string, filters: SQL | undefined, cap = COUNT_CAP): WordSearchPlan {
  const where = and(rowSearch(t, q), filters);
  const words = searchWords(q);
  const drivers = words.flatMap((word) => {
    const parts = wordParts(t, word);
    return parts ? [{ word, parts }] : [];
  });
  if (drivers.length === 0) return { where, ...countMatches(t.table, where, cap), parts: null };

  let driver = drivers[0];
  if (drivers.length > 1) {
    let fewest = Infinity;
    for (const candidate of drivers) {
      const n = countParts(t, candidate.parts.map((part) => and(part, filters)!), cap);
      if (n === 0) return { where, total: 0, totalCapped: false, parts: null };
      if (n < fewest) [fewest, driver] = [n, candidate];
    }
  }
  const others = words.filter((word) => word !== driver.word).map((word) => rowHasWord(t, word));
  const parts = driver.parts.map((part) => and(part, filters, ...others)!);
  const n = countParts(t, parts, cap);
  return n > cap ? { where, total: cap, totalCapped: true, parts: null } : { where, total: n, totalCapped: false, parts };
}

/**
 * The condition and offset that read one page of `plan` (`keysetPage`'s arguments): the page's ids
 * sorted from the driving parts when the search was counted under the cap, else the search and the
 * page's position, walked in the order's index.
 */
export function wordSearchPage(
  t: WordSearchTable,
  plan: WordSearchPlan,
  order: KeysetOrder,
  page: { position: SQL | undefined; ahead: boolean; limit: number; offset: number },
): { where: SQL | undefined; offset: number } {
  if (!plan.parts) return { where: and(plan.where, page.position), offset: page.offset };
  const union = sql.join(
    plan.parts.map((part) => sql`select ${t.id} as id, ${order.key} as k from ${t.table} where ${and(part, page.position)}`),
    sql` union all `,
  );
  const dir = (order.dir === "asc") === page.ahead ? sql.raw("asc") : sql.raw("desc");
  const ids = db
    .all<{ id: number }>(sql`select id from (${union}) order by k ${dir}, id ${dir} limit ${page.limit} offset ${page.offset}`)
    .map((row) => row.id);
  return { where: inArray(t.id, ids), offset: 0 };
}
