import { type SQL, and, getTableName, inArray, notInArray, or, sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { writeCache } from "~/.server/data-cache";
import { doctors, patients } from "~db/schema";
import { db } from "~/.server/db";
import { COUNT_CAP, type KeysetOrder, countMatches } from "~/.server/pagination";
import { likeWord, searchWords } from "~/.server/search-sql";
import { patientIndexQuery, patientSearch } from "./patient.server";

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
 * and rows still without a key (by the index that holds them). Parts that cannot overlap are
 * counted and read with UNION ALL, which streams and stops at a LIMIT, where UNION builds the whole
 * set first. `planWordSearch` says which search reads what; words shorter than three characters
 * never drive (the trigram indexes cannot answer them) and are tested row by row.
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
  /**
   * Rows whose stored key contains the word, through an index; "none" when no key holds it, null
   * when the index cannot answer it.
   */
  ownIndexed: (word: string) => SQL | "none" | null;
  /**
   * The indexes each part is read through, named to SQLite (INDEXED BY): its statistics see a list
   * of unknown length (`patient_id in (…)`) of keys each shared by many rows (40 doctors, a few
   * appointment types), and would rather scan the whole table, or seek a filter's index and fold
   * every row's text. `(patient_id, date)` and `(doctor_id, date)` indexes; `own` when `ownIndexed`
   * seeks one (none for a rowid lookup); `unkeyed` holds the rows without a stored key.
   */
  indexes: { patient: string; doctor: string; own?: string; unkeyed: string };
}

/** One disjoint part of a word's rows: where it is read from (the table through an index, or a join), and its condition. */
interface Part {
  from?: SQL;
  index?: string;
  where: SQL;
}

/** Where a search's pages come from: its driving parts (sorted), or the order's index walked with `walk`. */
export interface WordSearchPlan {
  total: number;
  totalCapped: boolean;
  parts: Part[] | null;
  walk: SQL | undefined;
}

const DRIVER_MIN_LENGTH = 3;

const patientsWith = (word: string) => sql`select ${patients.id} from ${patients} where ${patientSearch(word)}`;
const doctorsWith = (word: string) => sql`select ${doctors.id} from ${doctors} where ${likeWord(doctors.searchText, word)}`;

/**
 * One row matches one word: in its patient, its doctor or its own text. The patients the word finds
 * are gathered once per statement (`in`), which pays when many rows are tested; `perRow` tests each
 * row's patient key instead, for a walk that stops after a page or a few thousand rows, where
 * gathering every Silva would cost more than the whole walk.
 */
function rowHasWord(t: WordSearchTable, word: string, perRow = false): SQL {
  const patient = perRow
    ? sql`exists (select 1 from ${patients} where ${patients.id} = ${t.patientId} and ${patientSearch(word, { inOrder: true })})`
    : sql`${t.patientId} in (${patientsWith(word)})`;
  return or(patient, sql`${t.doctorId} in (${doctorsWith(word)})`, likeWord(t.ownText, word))!;
}

/** The search tested row by row: every word matches (exports, receivables, the walk of a common search). */
export function rowSearch(t: WordSearchTable, q: string): SQL | undefined {
  return allWords(t, searchWords(q));
}

/** Every one of `words` matches the row (`rowHasWord`). */
function allWords(t: WordSearchTable, words: string[], perRow = false): SQL | undefined {
  return words.length ? and(...words.map((word) => rowHasWord(t, word, perRow))) : undefined;
}

/**
 * The rows matching `word`, as four disjoint parts each answered by an index; null when the word
 * cannot drive. The first joins the patients' trigram index to the table, so a count that stops at
 * the cap reads only the first patients the index yields instead of gathering them all.
 */
function wordParts(t: WordSearchTable, word: string): Part[] | null {
  if ([...word].length < DRIVER_MIN_LENGTH) return null;
  const match = patientIndexQuery(word);
  const own = match ? t.ownIndexed(word) : null;
  if (!match || !own) return null;
  // The doctors it finds, a few of forty: read now, so an empty part is left out rather than read
  // through an index that a filter (one doctor's) would otherwise make SQLite walk.
  const doctorIds = db.select({ id: doctors.id }).from(doctors).where(likeWord(doctors.searchText, word)).all().map((row) => row.id);
  const notPatients = sql`${t.patientId} not in (select rowid from patients_search where patients_search match ${match})`;
  const notDoctors = doctorIds.length ? notInArray(t.doctorId, doctorIds) : undefined;
  const parts: Part[] = [
    {
      from: sql`patients_search join ${t.table} indexed by ${sql.raw(t.indexes.patient)} on ${t.patientId} = patients_search.rowid`,
      where: sql`patients_search match ${match}`,
    },
  ];
  if (doctorIds.length) parts.push({ index: t.indexes.doctor, where: and(inArray(t.doctorId, doctorIds), notPatients)! });
  if (own !== "none") parts.push({ index: t.indexes.own, where: and(own, notPatients, notDoctors)! });
  parts.push({ index: t.indexes.unkeyed, where: and(sql`${t.searchText} is null`, likeWord(t.ownText, word), notPatients, notDoctors)! });
  return parts;
}

/** The parts with more conditions (filters, the other words, a page's position). */
const narrowed = (parts: Part[], ...conditions: (SQL | undefined)[]) => parts.map((part) => ({ ...part, where: and(part.where, ...conditions)! }));

/** `select <columns> from <part> where <condition>` for each part, joined by UNION ALL. */
function unionAll(t: WordSearchTable, parts: Part[], columns: SQL): SQL {
  const source = ({ from, index }: Part) => from ?? (index ? sql`${t.table} indexed by ${sql.raw(index)}` : sql`${t.table}`);
  return sql.join(
    parts.map((part) => sql`select ${columns} from ${source(part)} where ${part.where}`),
    sql` union all `,
  );
}

/** How many rows the parts hold, counting no further than `cap + 1`. */
function countParts(t: WordSearchTable, parts: Part[], cap: number): number {
  return db.get<{ n: number }>(sql`select count(*) as n from (${unionAll(t, parts, sql`1`)} limit ${cap + 1})`)!.n;
}

/**
 * The search `q` with the list's `filters`: its capped total, and where its pages come from.
 *
 * - Each word that can drive is counted alone through its parts, up to the cap: cheap, since the
 *   count stops there. A word with no rows ends the search.
 * - When the rarest word has at most COUNT_CAP rows, they bound everything else: the search's count
 *   and its pages read only them, tested for the other words and the filters.
 * - A single word over the cap, without filters, is over the cap: its page walks the date order,
 *   where one row in a hundred matching fills a page within a few thousand rows.
 * - Anything else (every word over the cap with another word or a filter, or only short words) is
 *   counted row by row, through whichever index SQLite picks: passing over a common word's rows
 *   through its indexes costs more per row than a pass over the table, once they are more than a
 *   few tens of thousands.
 */
export function planWordSearch(t: WordSearchTable, q: string, filters: SQL | undefined, cap = COUNT_CAP): WordSearchPlan {
  const words = searchWords(q);
  if (words.length === 0) return plan(t, words, filters, cap);
  // Kept until the next write: every page of a search, and every view of it, shares its count.
  const key = JSON.stringify([getTableName(t.table), words, filters ? sqlText(filters) : null, cap]);
  return plansUntilWrite(key, () => plan(t, words, filters, cap));
}

/** Search plans kept until the next write, apart from the figures (app/.server/data-cache.ts). */
const plansUntilWrite = writeCache(128);

/** A condition's SQL with its values inlined, as a key. */
const sqlText = (condition: SQL) => {
  const { sql: text, params } = sqlTextDialect.sqlToQuery(condition);
  return JSON.stringify([text, params]);
};
const sqlTextDialect = new SQLiteSyncDialect();

function plan(t: WordSearchTable, words: string[], filters: SQL | undefined, cap: number): WordSearchPlan {
  const walk = and(allWords(t, words, true), filters);
  let rarest: { word: string; parts: Part[]; n: number } | null = null;
  for (const word of words) {
    const parts = wordParts(t, word);
    if (!parts) continue;
    const n = countParts(t, parts, cap);
    if (n === 0) return { total: 0, totalCapped: false, parts: null, walk };
    if (!rarest || n < rarest.n) rarest = { word, parts, n };
  }
  if (rarest && rarest.n <= cap) {
    const others = words.filter((word) => word !== rarest.word).map((word) => rowHasWord(t, word, true));
    if (others.length === 0 && !filters) return { total: rarest.n, totalCapped: false, parts: rarest.parts, walk };
    const parts = narrowed(rarest.parts, filters, ...others);
    return { total: countParts(t, parts, cap), totalCapped: false, parts, walk };
  }
  if (rarest && words.length === 1 && !filters) return { total: cap, totalCapped: true, parts: null, walk };
  return { ...countMatches(t.table, and(allWords(t, words), filters), cap), parts: null, walk };
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
  if (!plan.parts) return { where: and(plan.walk, page.position), offset: page.offset };
  const union = unionAll(t, narrowed(plan.parts, page.position), sql`${t.id} as id, ${order.key} as k`);
  const dir = (order.dir === "asc") === page.ahead ? sql.raw("asc") : sql.raw("desc");
  const ids = db
    .all<{ id: number }>(sql`select id from (${union}) order by k ${dir}, id ${dir} limit ${page.limit} offset ${page.offset}`)
    .map((row) => row.id);
  return { where: inArray(t.id, ids), offset: 0 };
}
