import { SQL, and, asc, desc, getTableName, inArray, is, isNotNull, notInArray, or, sql } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type VersionedTable, sqlKey, tablesWriteCache } from "~/.server/data-cache";
import { type appointmentSearchKeys, doctors, patients, type surgerySearchKeys } from "~db/schema";
import { db } from "~/.server/db";
import { COUNT_CAP, type KeysetOrder, countMatches, locateIn, pageIds } from "~/.server/pagination";
import type { Cursor } from "~/lib/list-params";
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
 * set first. `planWordSearch` says which search reads what. A short word (`isShort`: one
 * character, which the trigram indexes cannot answer, or two where the table's own text cannot)
 * drives only an unfiltered search, its patients found by testing the patients' keys
 * (`byPatientKeys`), and among other words only when it is rare; otherwise it is tested on the
 * other words' rows, or row by row.
 */
export interface WordSearchTable {
  table: SQLiteTable;
  /** The table's row in `table_versions` (`searchedTables`). */
  versioned: VersionedTable;
  id: AnySQLiteColumn;
  patientId: AnySQLiteColumn;
  /**
   * The trigram index of the patients a search's words are sought in and whose rows are then read:
   * `patients_search`, or one of only the patients who have rows in the table, which every row's
   * patient is in (`surgery_patients_search`, migration 0038: a third of the patients).
   */
  patientIndex: "patients_search" | "surgery_patients_search";
  doctorId: AnySQLiteColumn;
  /**
   * The stored key `ownIndexed` and `ownClasses` seek the row by (the whole own text, or the part of
   * it that repeats); null on rows written by hand until the next start, which are read through
   * `indexes.unkeyed`.
   */
  storedKey: AnySQLiteColumn;
  /**
   * The row's own text holds the word: its stored key, else its text folded now. Tested per row, so
   * a key in the index being read is tested before the table's row is (SQLite seeks it only then).
   */
  ownHolds: (word: string) => SQL;
  /**
   * The rows with stored keys whose own text contains the word, through indexes, as disjoint
   * sources: a condition on the table, sought in `indexes.own`, or a source that joins the table to
   * a trigram index of its own with the condition on that index (read as it yields them: a count
   * that stops at the cap reads no further). None when no key holds it; null when the indexes
   * cannot answer it.
   */
  ownIndexed: (word: string) => OwnSource[] | null;
  /**
   * The indexes each part is read through, named to SQLite (INDEXED BY): its statistics see a list
   * of unknown length (`patient_id in (…)`) of keys each shared by many rows (40 doctors, a few
   * appointment types), and would rather scan the whole table, or seek a filter's index and fold
   * every row's text. `(patient_id, date)` and `(doctor_id, date)` indexes; `own` when `ownIndexed`
   * seeks one (none for a rowid lookup); `unkeyed` holds the rows without a stored key.
   * `patientRows`, when the `patient` index is wide (it covers the filters and the stored key): a
   * narrow one that begins with the patient, which a word's patients' rows are counted in when
   * nothing else is tested on them. A common name's patients are spread over most of the wide
   * index's pages, more than the server's page cache holds (`PAGE_CACHE_KIB`), so each first
   * count after a write read them all again.
   */
  indexes: { patient: string; doctor: string; own?: string; unkeyed: string; patientRows?: string };
  /**
   * Whether a rare short word drives, its patients found by a pass over every patient's key
   * (`byPatientKeys`): it pays when the table is big against the patients (a million appointments)
   * and `ownIndexed` answers the word by testing each of a few keys once. Otherwise a short word
   * drives only when its patients are common enough to settle the count first.
   */
  rareShortWordDrives: boolean;
  /**
   * Whether `ownIndexed` and `ownClasses` answer a word of two characters through an index, as the
   * patients' trigram index does (`isShort`): a table's few keys each tested do; a trigram index
   * of keys that can end in the word does not (its trigrams would miss it at a key's end).
   */
  ownPairs: boolean;
  /** The list's order (with the id): a search's rows are kept in it (`readPairs`). */
  order: AnySQLiteColumn;
  /**
   * The rows with a stored key, split by which of a search's words their key holds (`coverParts`);
   * null when they cannot be split so (too many distinct keys, keys that cannot be listed, or a word
   * too short for the index that tells them: `isShort`).
   */
  ownClasses: (words: string[]) => OwnClass[] | null;
}

/** Rows of a word's own text (`ownIndexed`): a condition sought in `indexes.own`, or a trigram index's rows joined to the table. */
export type OwnSource = SQL | { from: SQL; where: SQL };

/**
 * Rows whose stored key holds exactly `covers` of a search's words: a table's classes partition
 * its keyed rows (none of them holds a row without a key). `index` seeks the class alone.
 */
export interface OwnClass {
  where: SQL;
  covers: string[];
  index?: string;
}

/** Keys a word's own part lists as values (more are read by a subquery), and that a search splits its rows by (more, and it is not split). */
const OWN_KEYS_LISTED = 500;

/**
 * A table's own text as a few distinct keys, each counted in a table of its keys kept by triggers
 * (`appointment_search_keys`, `surgery_search_keys`): a word tests each key once, and its rows are
 * the keys' rows, sought in `index` (the stored key first).
 */
export function fewOwnKeys(keys: typeof appointmentSearchKeys | typeof surgerySearchKeys, storedKey: AnySQLiteColumn, index: string) {
  const holding = (word: string) => sql`select ${keys.key} from ${keys} where ${likeWord(keys.key, word)}`;
  /** Up to OWN_KEYS_LISTED + 1 of the keys holding `word`, listed. */
  const listed = (word: string) => db.all<{ key: string }>(sql`${holding(word)} limit ${OWN_KEYS_LISTED + 1}`).map((row) => row.key);
  return {
    /** The rows whose key holds `word` (listed, or read by a subquery when more); null when no key does. */
    rows(word: string): SQL | null {
      const found = listed(word);
      if (found.length === 0) return null;
      return found.length > OWN_KEYS_LISTED ? sql`${storedKey} in (${holding(word)})` : inArray(storedKey, found);
    },
    /** The keyed rows split by the words their key holds (`ownClasses`); null when the keys holding them are too many to list. */
    classes(words: string[]): OwnClass[] | null {
      const found = words.map(listed);
      const all = [...new Set(found.flat())];
      if (all.length > OWN_KEYS_LISTED) return null;
      const keyed = isNotNull(storedKey);
      return [
        ...byWordsFound(words, found).map(({ members, covers }) => ({ where: inArray(storedKey, members), covers, index })),
        // The keys that hold none, by exclusion (through the doctors' index: `coverParts`).
        { where: all.length ? and(keyed, notInArray(storedKey, all))! : keyed, covers: [] },
      ];
    },
  };
}

/** Items grouped by the words that find them (`found[i]` are those `words[i]` finds), each group with its words in search order. */
export function byWordsFound<T>(words: string[], found: T[][]): { members: T[]; covers: string[] }[] {
  const coversOf = new Map<T, string[]>();
  words.forEach((word, i) => {
    for (const item of found[i]) coversOf.set(item, [...(coversOf.get(item) ?? []), word]);
  });
  const groups = new Map<string, { members: T[]; covers: string[] }>();
  for (const [item, covers] of coversOf) {
    const key = JSON.stringify(covers);
    const group = groups.get(key) ?? { members: [], covers };
    group.members.push(item);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** One disjoint part of a word's rows: where it is read from (the table through an index, or a join), and its condition. */
interface Part {
  from?: SQL;
  index?: string;
  where: SQL;
  /** Where `countParts` reads the part from while nothing but its own condition is tested (`indexes.patientRows`). */
  countFrom?: SQL;
}

/** Where a search's pages come from: its driving parts (sorted), or the order's index walked with `walk`. */
export interface WordSearchPlan {
  total: number;
  totalCapped: boolean;
  parts: Part[] | null;
  walk: SQL | undefined;
  /** The parts' rows in each order's key, read by the first page that needs them (`keptOrder`). */
  kept?: Map<string, Float64Array | null>;
  /** Whether a page of it has been read: the next one reads its rows out in order (`keptOrder`). */
  viewed?: boolean;
  /** A kept plan's walked pages, by order, direction and position: their ids (at most WALKED_PAGES). */
  walked?: Map<string, number[]>;
  /** A filter alone: the index its pages walk in the table's order (`planWordSearch`'s `filterIndex`). */
  walkIndex?: string;
}

/**
 * Too short to drive through the indexes: one character, which the patients' trigram index cannot
 * answer (it answers three characters or more, and two through the trigrams that start with them:
 * `patientIndexQuery`); or two, in a table whose own text cannot answer them (`ownPairs`).
 */
export const isShort = (t: WordSearchTable, word: string) => [...word].length < (t.ownPairs ? 2 : 3);

const patientsWith = (word: string) => sql`select ${patients.id} from ${patients} where ${patientSearch(word)}`;
const doctorsWith = (word: string) => sql`select ${doctors.id} from ${doctors} where ${likeWord(doctors.searchText, word)}`;

/**
 * One row matches one word: in its patient, its doctor or its own text. The patients the word finds
 * are gathered once per statement (`in`), which pays when many rows are tested; `perRow` tests each
 * row's patient key instead, for a walk that stops after a page or a few thousand rows, where
 * gathering every Silva would cost more than the whole walk.
 */
function rowHasWord(t: WordSearchTable, word: string, perRow = false): SQL {
  const doctor = sql`${t.doctorId} in (${doctorsWith(word)})`;
  // A row's patient looked up costs more than its own text and doctor tested: last.
  if (perRow) return or(t.ownHolds(word), doctor, patientHolds(t.patientId, word))!;
  return or(sql`${t.patientId} in (${patientsWith(word)})`, doctor, t.ownHolds(word))!;
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
 * cannot drive. `common`: for a short word, whether it is common (`isCommonShortWord`). The first
 * joins the patients' trigram index to the table (a short word's patients come from their keys:
 * `byPatientKeys`), so a count that stops at the cap reads only the first patients the index
 * yields instead of gathering them all.
 */
function wordParts(t: WordSearchTable, word: string, cap: number, common: boolean): Part[] | null {
  const short = isShort(t, word);
  // Null for a word of two characters that no patient holds.
  const match = short ? null : patientIndexQuery(word);
  const own = t.ownIndexed(word);
  if (!own) return null;
  const patientKeys = short ? byPatientKeys(t, word, common) : null;
  if (short && !patientKeys) return null;
  const doctorIds = doctorsFoundBy(word);
  const patientPart = match
    ? { from: byPatient(t), where: patientIndexMatch(t, match), countFrom: t.indexes.patientRows ? byPatient(t, t.indexes.patientRows) : undefined }
    : (patientKeys?.part ?? null);
  // A short word's patients are too many to gather when it is common ('m'): each row's patient is
  // looked up instead, in the parts read after the patients' own; none when no patient holds it.
  const notPatients = match
    ? sql`${t.patientId} not in (select rowid from ${patientIndex(t)} where ${patientIndexMatch(t, match)})`
    : patientPart
      ? sql`not exists (select 1 from ${patients} where ${patients.id} = ${t.patientId} and ${likeWord(patients.searchText, word)})`
      : undefined;
  const notDoctors = doctorIds.length ? notInArray(t.doctorId, doctorIds) : undefined;
  const parts: Part[] = patientPart ? [patientPart] : [];
  if (doctorIds.length) parts.push({ index: t.indexes.doctor, where: and(inArray(t.doctorId, doctorIds), notPatients)! });
  for (const source of own) {
    parts.push(is(source, SQL) ? { index: t.indexes.own, where: and(source, notPatients, notDoctors)! } : { from: source.from, where: and(source.where, notPatients, notDoctors)! });
  }
  parts.push({ index: t.indexes.unkeyed, where: and(sql`${t.storedKey} is null`, t.ownHolds(word), notPatients, notDoctors)! });
  return parts;
}

/**
 * The doctors a word finds, a few of forty: read now, so an empty part is left out rather than read
 * through an index that a filter (one doctor's) would otherwise make SQLite walk.
 */
const doctorsFoundBy = (word: string) =>
  db.select({ id: doctors.id }).from(doctors).where(likeWord(doctors.searchText, word)).all().map((row) => row.id);

/** The table's patient index, named in SQL (`patientIndex`). */
const patientIndex = (t: WordSearchTable) => sql.raw(t.patientIndex);

/** The patients the trigram query `match` finds in the table's patient index. */
const patientIndexMatch = (t: WordSearchTable, match: string) => sql`${patientIndex(t)} match ${match}`;

/** The patients' trigram index joined to the table's rows (sought in `index`), patient by patient as the index yields them. */
const byPatient = (t: WordSearchTable, index = t.indexes.patient) =>
  sql`${patientIndex(t)} join ${t.table} indexed by ${sql.raw(index)} on ${t.patientId} = ${patientIndex(t)}.rowid`;

/** Patients sampled to tell a common short word from a rarer one (`byPatientKeys`): 2 % of 200 000. */
const SHORT_WORD_SAMPLE = 4_000;
/** A short word is common when its patients are expected to hold this many times the cap of rows. */
const COMMON_SHORT_WORD = 4;

/**
 * The rows of the patients whose key holds a short `word`, patient by patient through the patient
 * index (a count that stops at the cap reads only the first patients): `part` null when no patient
 * holds it, and null when the word should not drive (below). Testing each row's patient instead
 * passed over a million rows (200 ms). The keys are tested:
 * - for a common word (whose share of the first patients, times the table's rows, is several times
 *   the cap: 'm', or 'jo' among a million appointments but not among 100 000 surgeries), in the
 *   patients' table order, where a count that stops at the cap reads a few thousand patients in a
 *   few ms; the key index has them under their letter ('jo' after half the alphabet);
 * - for a rarer one, in the key index, smaller to pass over whole (200 000 keys: about 20 ms, the
 *   table 55), after a pass that stops at the first match, to leave the patients out when none
 *   holds the word ('(' is only in an appointment type). Where that does not pay
 *   (`rareShortWordDrives`), such a word is tested on its other words' rows, or row by row.
 */
function byPatientKeys(t: WordSearchTable, word: string, common: boolean): { part: Part | null } | null {
  const holds = likeWord(patients.searchText, word);
  if (!common && !t.rareShortWordDrives) return null;
  if (!common && !anyPatientHolds(word)) return { part: null };
  return { part: { from: patientsThenRows(t, common ? sql`${patients} not indexed` : PATIENT_KEYS), where: holds } };
}

/** The patients through their key index, passed over whole (a short word's test on each key). */
const PATIENT_KEYS = sql`${patients} indexed by patients_search_text_idx`;

/** The patients read from `source`, each one's rows then sought in the table's patient index. */
const patientsThenRows = (t: WordSearchTable, source: SQL) =>
  sql`${source} cross join ${t.table} indexed by ${sql.raw(t.indexes.patient)} on ${t.patientId} = ${patients.id}`;

/**
 * Whether any patient's key holds a short word: a pass over the key index that stops at the first
 * (about 20 ms when none does), kept until the patients change, since a search asks it again of the
 * words it splits by (`coverParts`).
 */
const anyPatientHolds = (word: string) =>
  patientWordsUntilTablesChange(["patients"], word, () => !!db.get(sql`select 1 from ${PATIENT_KEYS} where ${likeWord(patients.searchText, word)} limit 1`));
const patientWordsUntilTablesChange = tablesWriteCache(64);

/** The share of the first patients (a sample, not indexed) whose key holds a short word. */
function shortWordShare(word: string): number {
  const sample = db.get<{ n: number; holding: number | null }>(
    sql`select count(*) as n, sum(${likeWord(sql`sample.search_text`, word)}) as holding from (select search_text from ${patients} not indexed limit ${SHORT_WORD_SAMPLE}) as sample`,
  )!;
  return sample.n ? (sample.holding ?? 0) / sample.n : 0;
}

/** Whether a short word's patients (`shortWordShare`) are expected to hold several times the cap of the table's rows (`byPatientKeys`). */
const isCommonShortWord = (t: WordSearchTable, share: number, cap: number) => share * countMatches(t.table, undefined).total >= COMMON_SHORT_WORD * cap;

/**
 * A short word among other words is tested on the rows they find when at least this share of the
 * patients holds it: their count then stops at the cap within a few times the cap of their rows
 * ('maria s'). A rarer one, held by few rows, would have them all passed over ('maria x': 490 ms).
 */
const SHORT_WORD_ON_OTHERS = 1 / 4;

/**
 * Short words are tested on the rows several long words share when those are at most this many
 * times the cap: passed over whole when few of them hold the short words.
 */
const SHARED_ROWS_TESTED = 4;

/** The table's rows sampled (its first, not indexed) to tell how many a long word finds (`longWordShare`). */
const TABLE_SAMPLE = 1_000;

/**
 * The share of the table's first rows (a sample, not indexed) that a long word finds: in their
 * patient, doctor or own text. A word that finds most rows (a guide's digits, a hospital's name
 * among keys that cannot be split) costs more read through its indexes (about 3 µs a row with the
 * other words tested) than tested in a pass over the table (about 1).
 */
function longWordShare(t: WordSearchTable, word: string): number {
  // Kept until what it reads is written: a search asks it again as its words are typed ('ana p', 'ana pa').
  return sharesUntilTablesChange(searchedTables(t), JSON.stringify([getTableName(t.table), word]), () => {
    const sample = db.get<{ n: number; found: number | null }>(
      sql`select count(*) as n, sum(found) as found from (select ${rowHasWord(t, word, true)} as found from ${t.table} not indexed limit ${TABLE_SAMPLE})`,
    )!;
    return sample.n ? (sample.found ?? 0) / sample.n : 0;
  });
}
const sharesUntilTablesChange = tablesWriteCache(64);

/**
 * Of long words, the one whose rows are expected to be fewest (`longWordShare`), when they are
 * expected to be at most half the rows `readTested` reads; null otherwise.
 */
function fewestRowsWord(t: WordSearchTable, long: string[], cap: number): string | null {
  if (long.length === 0) return null;
  const [share, word] = long.map((word) => [longWordShare(t, word), word] as const).sort((a, b) => a[0] - b[0])[0];
  return share * countMatches(t.table, undefined).total <= (SHARED_ROWS_TESTED * cap) / 2 ? word : null;
}

/**
 * The rows matching every one of several words, as disjoint parts answered by indexes; null when no
 * word is long enough for the trigram index, or the own text cannot be split (`ownClasses`).
 *
 * A row's doctor and own key hold some of the words; its patient must hold the rest. So the rows
 * are split by their doctor's words (the few doctors the words find, and every other doctor) and
 * their key's, and each split whose doctor and key leave words over reads the patients that have
 * all of those (one trigram query of the long ones, however common each word is alone: 'maria
 * silva', with each of those patients' keys tested for the short ones: 'jose x') with its rows'
 * doctor and key tested in the patient index. A split whose doctor and key hold every word is read
 * whole, and one that leaves only short words is read through its doctor's or key's index, each
 * row's patient tested, or from the patients holding those words when they have fewer rows
 * (`byShortWordsPatients`). A split that leaves to the patient a short word no patient holds has
 * no rows and is left out ('santos (': only a location holds '('). Rows without a key are tested
 * word by word. Common words that are rare together then cost what their few shared patients do,
 * where counting every row that has one of them passed over the whole table. `shares`: the short
 * words' shares of the sampled patients (`shortWordShare`), where the search knows them.
 */
function coverParts(t: WordSearchTable, words: string[], shares: ReadonlyMap<string, number> = new Map(), cap = COUNT_CAP): Part[] | null {
  // A word of two characters that no patient holds has no match: a split that leaves it to the
  // patient has no rows.
  const matches = new Map(words.filter((word) => !isShort(t, word)).map((word) => [word, patientIndexQuery(word)]));
  if (matches.size === 0) return null;
  const ownClasses = t.ownClasses(words);
  if (!ownClasses) return null;
  const found = byWordsFound(words, words.map(doctorsFoundBy));
  const holdsAll = (covers: string[]) => covers.length === words.length;
  const parts: Part[] = [];
  // Doctors whose own key holds every word: all their rows, with a key or without.
  const whole = found.filter((group) => holdsAll(group.covers)).flatMap((group) => group.members);
  if (whole.length) parts.push({ index: t.indexes.doctor, where: inArray(t.doctorId, whole) });
  const doctorClasses = [
    ...found.filter((group) => !holdsAll(group.covers)).map((group) => ({ where: inArray(t.doctorId, group.members), covers: group.covers })),
    { where: found.length ? notInArray(t.doctorId, found.flatMap((group) => group.members)) : undefined, covers: [] as string[] },
  ];
  // Splits grouped by the long words they leave to the patient (one trigram query each), each with
  // the short words it leaves.
  const byLongLeft = new Map<string, { long: string[]; splits: (Part & { short: string[] })[] }>();
  // A short word the sample found in no patient's key, and that none holds ('('): a split that
  // leaves it to the patient has no rows.
  const heldByNoPatient = (word: string) => shares.get(word) === 0 && !anyPatientHolds(word);
  for (const doctor of doctorClasses) {
    for (const own of ownClasses) {
      const split = { index: own.index ?? t.indexes.doctor, where: and(doctor.where, own.where)! };
      const left = words.filter((word) => !doctor.covers.includes(word) && !own.covers.includes(word));
      const long = left.filter((word) => !isShort(t, word));
      const short = left.filter((word) => isShort(t, word));
      if (short.some(heldByNoPatient) || long.some((word) => !matches.get(word))) continue;
      if (long.length === 0) {
        // Its doctor or key holds every long word: a doctor's rows, or a key's, each row's patient
        // tested for the short words left; or the rows of the patients holding those, when fewer.
        parts.push(byShortWordsPatients(t, split, short, shares, cap) ?? narrowed([split], ...short.map((word) => patientHolds(t.patientId, word)))[0]);
        continue;
      }
      const key = JSON.stringify(long);
      const group = byLongLeft.get(key) ?? { long, splits: [] };
      group.splits.push({ ...split, short });
      byLongLeft.set(key, group);
    }
  }
  for (const { long, splits } of byLongLeft.values()) {
    const match = long.map((word) => `(${matches.get(word)})`).join(" AND ");
    const holds = (short: string[]) => short.map((word) => patientHolds(sql`${patientIndex(t)}.rowid`, word));
    // The same short words left by every split are tested once per patient, outside the splits.
    const shared = splits.every((split) => JSON.stringify(split.short) === JSON.stringify(splits[0].short)) ? splits[0].short : [];
    const eachSplit = splits.map((split) => and(split.where, ...holds(split.short.filter((word) => !shared.includes(word))))!);
    parts.push({ from: byPatient(t), where: and(patientIndexMatch(t, match), ...holds(shared), or(...eachSplit))! });
  }
  parts.push({
    index: t.indexes.unkeyed,
    where: and(sql`${t.storedKey} is null`, whole.length ? notInArray(t.doctorId, whole) : undefined, allWords(t, words, true))!,
  });
  return parts;
}

/**
 * A key's pass over the patients' key index (`byPatientKeys`), counted in the table's rows whose
 * patient it would spare testing: 200 000 keys take about 20 ms, a row's patient tested about 0.8 µs.
 */
const PATIENT_KEYS_PER_ROW_TESTED = 8;

/**
 * Whether a short word alone, counted row by row, has each row's patient looked up (`rowHasWord`'s
 * `perRow`) rather than every patient holding it gathered first: when its share of the patients
 * (`shortWordShare`) brings the count to its cap within fewer rows than a pass over the patients'
 * keys costs. A digit is in nearly every key (CPF, phone): gathered, every patient was read for
 * the first 21 of the surgeries' picker (102 ms) and the 10 001 of their list (111 ms); looked up,
 * 2.5 and 14 ms. A rare letter is gathered: looked up, 'x' passed over every surgery (89 → 268 ms).
 */
const countsPerRow = (share: number, cap: number) =>
  share > 0 && (cap + 1) / share <= countMatches(patients, undefined).total / PATIENT_KEYS_PER_ROW_TESTED;

/**
 * A split whose doctor or key holds every long word (`coverParts`), read from the patients holding
 * its short words (passed over in the key index, their rows then sought in the patient index and
 * tested for the split), when it has more rows than those patients are expected to: their share of
 * the sample (`shortWordShare`) times the table's rows, plus the pass. Null otherwise (or with no
 * share known), each of the split's rows then having its patient tested. The split's rows are
 * counted only that far. 'maria x': each of the 300 000 appointments at Vila Mariana had its patient
 * tested for 'x' (220 ms), where the patients holding 'x', one in twenty, have 46 000. Not counted
 * when its rows tested one by one reach the cap within the bound, about `cap / share` of them (a
 * common short word): 'ana p' counted a split of 500 000 rows to that bound (43 ms) to learn that
 * the patients holding 'p', half of them, had more.
 */
function byShortWordsPatients(
  t: WordSearchTable,
  split: Part & { index: string },
  short: string[],
  shares: ReadonlyMap<string, number>,
  cap: number,
): Part | null {
  const known = short.filter((word) => shares.has(word)).map((word) => shares.get(word)!);
  if (short.length === 0 || known.length === 0) return null;
  const share = Math.min(...known);
  const expected = share * countMatches(t.table, undefined).total;
  const bound = Math.ceil(expected + countMatches(patients, undefined).total / PATIENT_KEYS_PER_ROW_TESTED);
  if (share > 0 && (cap + 1) / share <= bound) return null;
  const splitRows = db.get<{ n: number }>(sql`select count(*) as n from (select 1 from ${t.table} indexed by ${sql.raw(split.index)} where ${split.where} limit ${bound})`)!.n;
  if (splitRows < bound) return null;
  return { from: patientsThenRows(t, PATIENT_KEYS), where: and(...short.map((word) => patientSearch(word, { inOrder: true })), split.where)! };
}

/** The patient `id` holds `word` in their key, looked up (a short word, which the trigram index cannot answer). */
const patientHolds = (id: SQL | AnySQLiteColumn, word: string) =>
  sql`exists (select 1 from ${patients} where ${patients.id} = ${id} and ${patientSearch(word, { inOrder: true })})`;

/** The parts with more conditions (filters, the other words, a page's position), read from where those are tested. */
const narrowed = (parts: Part[], ...conditions: (SQL | undefined)[]) =>
  conditions.some(Boolean) ? parts.map(({ countFrom: _narrower, ...part }) => ({ ...part, where: and(part.where, ...conditions)! })) : parts;

/** `select <columns> from <part> where <condition>` for each part, joined by UNION ALL; `counting`, from each part's `countFrom`. */
function unionAll(t: WordSearchTable, parts: Part[], columns: SQL, { counting = false } = {}): SQL {
  const source = ({ from, index, countFrom }: Part) =>
    (counting ? countFrom : undefined) ?? from ?? (index ? sql`${t.table} indexed by ${sql.raw(index)}` : sql`${t.table}`);
  return sql.join(
    parts.map((part) => sql`select ${columns} from ${source(part)} where ${part.where}`),
    sql` union all `,
  );
}

/** How many rows the parts hold, counting no further than `cap + 1`. */
function countParts(t: WordSearchTable, parts: Part[], cap: number): number {
  return db.get<{ n: number }>(sql`select count(*) as n from (${unionAll(t, parts, sql`1`, { counting: true })} limit ${cap + 1})`)!.n;
}

/**
 * The search `q` with the list's `filters`: its capped total, and where its pages come from.
 *
 * - A short word few patients hold, among other words and unfiltered ('silva kw'), is counted
 *   first, its patients found by their keys (`byPatientKeys`): with no rows it ends the search,
 *   with at most COUNT_CAP they bound it (below).
 * - Several words, at least one of them long, whose tables' own keys can be split by them: the rows
 *   of their splits (`coverParts`), the short words tested on the patients the long ones find, with
 *   the filters, read up to the cap. When the own keys cannot be split by the short words (a
 *   surgeries' word a guide may hold: '7'), the splits of several long words, read once with the
 *   short words and the filters tested on each row, when they are at most SHARED_ROWS_TESTED times
 *   the cap; so too the rows of one long word, when its sampled share (`longWordShare`) expects at
 *   most half that many.
 * - Otherwise each word that can drive is counted alone through its parts, up to the cap: cheap,
 *   since the count stops there. A word with no rows ends the search. A short word drives only
 *   unfiltered: alone, or among other words when few patients hold it. When most do, it is tested
 *   on the rows of the one other word.
 * - When the rarest word has at most COUNT_CAP rows, they bound everything else: the search's count
 *   and its pages read only them, tested for the other words and the filters.
 * - A single word over the cap, without filters, is over the cap; with a filter that keeps more
 *   rows than the cap, its rows are read with the filter up to the cap.
 * - Several words, every one over the cap, whose own keys cannot be split by them: the rows of the
 *   one expected to have fewest (`fewestRowsWord`), when at most half of SHARED_ROWS_TESTED times
 *   the cap, read once with the others and the filters tested on each row.
 * - Anything else (such words with more rows, a filter that keeps fewer rows than the cap, a short
 *   word with a filter) is counted row by row, through whichever index SQLite picks: passing over
 *   a common word's rows through its indexes costs more per row than a pass over the table, once
 *   they are more than a few tens of thousands.
 *
 * A search over the cap walks the date order for its pages, where one row in a hundred matching
 * fills a page within a few thousand rows.
 */
export function planWordSearch(
  t: WordSearchTable,
  q: string,
  filters: SQL | undefined,
  { cap = COUNT_CAP, filterIndex }: { cap?: number; filterIndex?: string } = {},
): WordSearchPlan {
  const words = searchWords(q);
  if (words.length === 0 && !filters) return plan(t, words, filters, cap);
  // Kept until the table, the patients or the doctors are written: every page of a search or a
  // filter ('stage aprovado', counted in its index up to the cap), and every view of it, shares its count.
  const key = JSON.stringify([getTableName(t.table), words, filters ? sqlKey(filters) : null, cap, filterIndex ?? null]);
  return plansUntilTablesChange(searchedTables(t), key, () => {
    const kept = plan(t, words, filters, cap);
    // A filter alone walks its own index to a page (named, when the list knows it): nothing to keep.
    if (words.length === 0) return filterIndex ? { ...kept, walkIndex: filterIndex } : kept;
    return kept.parts ? kept : { ...kept, walked: new Map() };
  });
}

/** Pages of a walked search kept on its plan: the first few, and any viewed again and again. */
const WALKED_PAGES = 16;

/** Search plans kept until what they read is written, apart from the figures (app/.server/data-cache.ts). */
const plansUntilTablesChange = tablesWriteCache(128);

/**
 * Every table a search of `t`, or a page of its list, reads: the table (with the keys and trigram
 * index its triggers keep), the patients (theirs) and the doctors. A write anywhere else (a task, a
 * payment, a message) leaves what is kept of them.
 */
export const searchedTables = (t: WordSearchTable): readonly VersionedTable[] => [t.versioned, "patients", "doctors"];

function plan(t: WordSearchTable, words: string[], filters: SQL | undefined, cap: number): WordSearchPlan {
  const walk = and(allWords(t, words, true), filters);
  // The search's rows when they are all in `parts`: read once, up to the cap, for its count and
  // the order every page is a slice of; over the cap, pages walk the date order. A word's own
  // parts are cheap to find and dear to read out (a Silva's ten thousand rows: 1.5 ms counted,
  // 7 ms read), so they are counted first and read out only if viewed again; the split or
  // narrowed parts cost more to find than to read.
  const capped: WordSearchPlan = { total: cap, totalCapped: true, parts: null, walk };
  // The parts' rows read out (`readPairs`, `readTested`): over the cap, or kept in order.
  const readOut = (parts: Part[], { n, pairs }: { n: number; pairs: Float64Array | null }): WordSearchPlan =>
    n > cap ? capped : { total: n, totalCapped: false, parts, walk, kept: new Map([[t.order.name, pairs]]) };
  const settled = (parts: Part[], { countFirst = false } = {}): WordSearchPlan => {
    if (countFirst) {
      const n = countParts(t, parts, cap);
      // Its rows are read out in order when a page of it is viewed again (`wordSearchPage`).
      return n > cap ? capped : { total: n, totalCapped: false, parts, walk };
    }
    return readOut(parts, readPairs(t, parts, t.order, cap + 1));
  };
  // A short word among other words, unfiltered (what is sent while the second word is typed:
  // 'maria s'): when most patients hold it, tested on the rows the other words find; row by row,
  // its count passed over a few hundred thousand rows ('maria s' 36 ms, 'silva m' 180). When few
  // rows can hold it, it drives, its patients found by their keys: row by row, a word nothing
  // holds passed over every row ('maria xz' 340 ms). In between, the patients the long words find
  // are tested for it (`coverParts`): row by row, 'jose x' passed over every row (410 ms). Alone,
  // it tells how its count is made (`countsPerRow`).
  const shares = new Map(!filters ? words.filter((word) => isShort(t, word)).map((word) => [word, shortWordShare(word)]) : []);
  // Only with one other word: the rows of several, split by their words, are read out up to the
  // cap rather than counted, and passed over whole when few of them hold the short word.
  const onOthers = words.filter((word) => !isShort(t, word)).length === 1 ? words.filter((word) => (shares.get(word) ?? 0) >= SHORT_WORD_ON_OTHERS) : [];
  const driving = words.filter((word) => !onOthers.includes(word));
  const onDriven = (parts: Part[], drivers: string[]) =>
    narrowed(parts, filters, ...words.filter((word) => !drivers.includes(word)).map((word) => rowHasWord(t, word, true)));
  /** A word's parts, when it drives. */
  const partsOf = (word: string): Part[] | null => {
    // With a filter, a short word does not drive: its parts read out up to the cap took from 0.2 to
    // 5 times the count row by row ('m' cancelled 25 ms against 130; '12' scheduled 300 against 55,
    // its keys and patients being nearly every row's). Among other words, only a rare one drives.
    const short = isShort(t, word);
    const common = short && !filters && isCommonShortWord(t, shares.get(word) ?? shortWordShare(word), cap);
    const drives = !short || (!filters && (words.length === 1 || !common));
    return drives ? wordParts(t, word, cap, common) : null;
  };
  // The rarest word counted so far (a closure assigns it: declared wide so it is not narrowed to null).
  let rarest = null as { word: string; parts: Part[]; n: number } | null;
  /** Counts a word's rows through its parts, up to the cap, keeping the rarest: 0 when it has none, null when it cannot drive. */
  const counted = (word: string): number | null => {
    const parts = partsOf(word);
    if (!parts) return null;
    const n = countParts(t, parts, cap);
    if (!rarest || n < rarest.n) rarest = { word, parts, n };
    return n;
  };
  const none: WordSearchPlan = { total: 0, totalCapped: false, parts: null, walk };
  /** The rows of `parts` (which `drivers` find), read once with the other words and the filters tested on each, when they are at most SHARED_ROWS_TESTED times the cap. */
  const readOthersTested = (parts: Part[] | null, drivers: string[]): WordSearchPlan | null => {
    if (!parts) return null;
    const rest = and(...words.filter((word) => !drivers.includes(word)).map((word) => rowHasWord(t, word, true)), filters)!;
    const tested = readTested(t, parts, rest, SHARED_ROWS_TESTED * cap, cap);
    return tested && readOut(narrowed(parts, rest), tested);
  };
  const rowByRow = (perRow = false): WordSearchPlan => ({ ...countMatches(t.table, and(allWords(t, words, perRow), filters), cap), parts: null, walk });
  // A short word few patients hold, among other words ('silva kw'): its rows, its patients found by
  // their keys, cost less to count than the other words' patients do to test for it.
  const rareShort = words.length > 1 && !filters ? driving.filter((word) => isShort(t, word) && !isCommonShortWord(t, shares.get(word)!, cap)) : [];
  for (const word of rareShort) if (counted(word) === 0) return none;
  if (rarest && rarest.n <= cap) return settled(onDriven(rarest.parts, [rarest.word]));
  const covered = driving.length > 1 ? coverParts(t, driving, shares, cap) : null;
  if (covered) return settled(onDriven(covered, driving));
  // Long words with short ones the own text cannot be split by (a surgeries' word a guide may
  // hold: 'silva 7'): the rows the long words share (split as above), or the one long word's, read
  // once with the short words tested on each, when they are few enough to pass over whole. Row by
  // row, the count passed over most of the table ('lima ca' 195 ms, 'ana pa' 171, before the
  // surgeries' keys without the guide: then 50 and 70).
  const long = driving.filter((word) => !isShort(t, word));
  /** The rows of the long word expected to have fewest (`fewestRowsWord`), the others tested on each: null when too many. Read once. */
  let fewestRead: WordSearchPlan | null | undefined;
  const readFewest = () => {
    if (fewestRead === undefined) {
      const fewest = fewestRowsWord(t, long, cap);
      fewestRead = fewest ? readOthersTested(partsOf(fewest), [fewest]) : null;
    }
    return fewestRead;
  };
  if (long.length >= 1 && long.length < driving.length) {
    const shared = long.length > 1 ? coverParts(t, long) : null;
    const tested = shared ? readOthersTested(shared, long) : readFewest();
    if (tested) return tested;
    // The rows several long words share are among each one's: more than the bound, so are those.
    if (shared) fewestRead = null;
  }
  if (words.length === 1 && !filters) {
    // One word alone is settled by its parts. A short word's cost more to find (a pass over the
    // keys) than to read out.
    const parts = partsOf(words[0]);
    if (parts) return settled(parts, { countFirst: !isShort(t, words[0]) });
    return rowByRow(shares.has(words[0]) && countsPerRow(shares.get(words[0])!, cap));
  }
  // Several long words, each expected over the cap by its sample: counting each to the cap would
  // only confirm it ('ana pau': 28 ms), so the rows of the one expected to have fewest are read at
  // once, as below. Its count comes out exact either way.
  const total = countMatches(t.table, undefined).total;
  if (words.length > 1 && long.length === driving.length && long.every((word) => longWordShare(t, word) * total > cap)) {
    const tested = readFewest();
    if (tested) return tested;
  }
  for (const word of driving) if (!rareShort.includes(word) && counted(word) === 0) return none;
  if (rarest && rarest.n <= cap) return settled(onDriven(rarest.parts, [rarest.word]));
  // Over the cap, with only common short words besides: counted on its rows, up to the cap.
  if (rarest && onOthers.length && driving.length === 1) return settled(onDriven(rarest.parts, [rarest.word]), { countFirst: true });
  // One word over the cap, and a filter that keeps more rows than the cap: the word's rows, with
  // the filter tested in their indexes (sought in the doctor and own-text ones), up to the cap. A
  // filter that keeps fewer is cheaper to test row by row, through its own index.
  if (rarest && words.length === 1 && filters && countMatches(t.table, filters, cap).totalCapped) return settled(narrowed(rarest.parts, filters));
  // Several words, each over the cap, that the own text cannot be split by ('ana g-70': 'ana' in
  // 12 000 surgeries, 'g-70' in a tenth of the guides): the rows of the one expected to have
  // fewest, when few enough, read once with the others tested on each ('ana pau', before the
  // surgeries' keys without the guide: 62 ms, where the count row by row took 115).
  const tested = words.length > 1 ? readFewest() : null;
  if (tested) return tested;
  return rowByRow();
}

/**
 * `keysetPage`'s `locate` for a search's pages: a typed page's row found in the table's order index
 * (`locateIn`) when the search walks it; none when its pages come from its own rows, which
 * `wordSearchPage` slices.
 */
export const wordSearchLocate = (t: WordSearchTable, plan: WordSearchPlan, order: KeysetOrder) =>
  plan.parts ? undefined : locateIn(t.table, plan.walk, order);

/**
 * The condition and offset that read one page of `plan` (`keysetPage`'s arguments). Counted under
 * the cap: the page's ids, sorted from the driving parts on its first view and sliced from its rows
 * kept in order after that. Over the cap: the search and the page's position, walked in the order's
 * index, the page's ids kept for a kept plan.
 */
export function wordSearchPage(
  t: WordSearchTable,
  plan: WordSearchPlan,
  order: KeysetOrder,
  page: { position: SQL | undefined; cursor?: Cursor; ahead: boolean; limit: number; offset: number },
): { where: SQL | undefined; offset: number } {
  const ascending = (order.dir === "asc") === page.ahead;
  if (!plan.parts) {
    const where = and(plan.walk, page.position);
    // Unfiltered, the page's read walks the order's index itself.
    if (!plan.walk) return { where, offset: page.offset };
    // A search's or a filter's page: its ids found in the table alone (a filter's through the index
    // its list names), then read with the screen's joins (`pageIds`). A kept search's page walked
    // once is known when viewed again.
    const key = JSON.stringify([order.key.name, ascending, page.cursor ?? null, page.offset, page.limit]);
    let ids = plan.walked?.get(key);
    if (!ids) {
      const direction = ascending ? asc : desc;
      const index = order.key === t.order ? plan.walkIndex : undefined;
      ids = pageIds(t.table, t.id, where, [direction(order.key), direction(order.id)], { limit: page.limit, offset: page.offset, index });
      if (plan.walked) {
        if (plan.walked.size >= WALKED_PAGES) plan.walked.delete(plan.walked.keys().next().value!);
        plan.walked.set(key, ids);
      }
    }
    return { where: inArray(t.id, ids), offset: 0 };
  }
  // A search's first page is sorted by SQLite from its parts, or found by walking the order when
  // its rows are dense in it; from its second view on (another page, or the same again), pages are
  // slices of its rows read out once in order.
  const kept = plan.kept?.has(order.key.name) || plan.viewed ? keptOrder(t, plan, order) : null;
  plan.viewed = true;
  if (kept && (!page.cursor || page.cursor.every((value) => typeof value === "number"))) {
    return { where: inArray(t.id, keptPage(kept, ascending, page.cursor as [number, number] | undefined, page.offset, page.limit)), offset: 0 };
  }
  const walked = !kept && !page.position && page.offset === 0 ? firstPageWalked(t, plan, order, ascending, page.limit) : null;
  if (walked) return { where: inArray(t.id, walked), offset: 0 };
  const union = unionAll(t, narrowed(plan.parts, page.position), sql`${t.id} as id, ${order.key} as k`);
  const dir = ascending ? sql.raw("asc") : sql.raw("desc");
  const ids = db
    .all<{ id: number }>(sql`select id from (${union}) order by k ${dir}, id ${dir} limit ${page.limit} offset ${page.offset}`)
    .map((row) => row.id);
  return { where: inArray(t.id, ids), offset: 0 };
}

/** Rows of the order a search's first page may walk (`firstPageWalked`): a few ms of tests at most. */
const FIRST_PAGE_WALK = 2_000;

/**
 * The ids of a counted search's first page, found by walking the table's order and testing each
 * row (`walk`), when its rows are dense enough there that the page is expected within half of
 * FIRST_PAGE_WALK rows ('silva': one surgery in twenty, 500 rows for a page of 25); null when they
 * are not, or when the walk ends before the page is full (rows bunched at the other end), and the
 * page is then sorted from the parts. Sorting passes over every row of the search again right after
 * its count did (a Silva's 5 000 surgeries: 7 ms each; the walk 2).
 */
function firstPageWalked(t: WordSearchTable, plan: WordSearchPlan, order: KeysetOrder, ascending: boolean, limit: number): number[] | null {
  if (order.key !== t.order || !plan.walk || plan.total === 0) return null;
  if ((limit * countMatches(t.table, undefined).total) / plan.total > FIRST_PAGE_WALK / 2) return null;
  const dir = sql.raw(ascending ? "asc" : "desc");
  const ids = db
    .all<{ id: number }>(
      sql`select id from (select ${t.id} as id, (${plan.walk}) as hit from ${t.table} order by ${order.key} ${dir}, ${t.id} ${dir} limit ${FIRST_PAGE_WALK}) where hit limit ${limit}`,
    )
    .map((row) => row.id);
  return ids.length === limit ? ids : null;
}

/**
 * `limit` rows of `plan` from `offset`, newest first (the order's key, then the id), for a reader
 * with no page of its own (a picker, an API): the condition and offset to select them with, or null
 * when nothing matches.
 */
export function wordSearchSlice(
  t: WordSearchTable,
  plan: WordSearchPlan,
  limit: number,
  offset: number,
): { where: SQL | undefined; offset: number } | null {
  if (plan.total === 0) return null;
  const order: KeysetOrder = { key: t.order, id: t.id, dir: "desc" };
  return wordSearchPage(t, plan, order, { position: undefined, ahead: true, limit, offset });
}

/**
 * The plan's rows in the order's key, ascending, as [key, id] pairs: read once, then every page of
 * the search (numbered, or from a cursor either way) is a slice of them, where each page would
 * read and sort every match again. Null when a key is not a number (compared as SQLite would only
 * then). Kept on the plan, so as long as it is (`planWordSearch`), and at most COUNT_CAP pairs (160 KB).
 */
function keptOrder(t: WordSearchTable, plan: WordSearchPlan, order: KeysetOrder): Float64Array | null {
  plan.kept ??= new Map();
  const name = order.key.name;
  if (!plan.kept.has(name)) plan.kept.set(name, readPairs(t, plan.parts!, order.key).pairs);
  return plan.kept.get(name) ?? null;
}

/**
 * The parts' rows as [key, id] pairs in (key, id) order, and how many they are; with `limit`, no
 * more than that many are read, and none are sorted when they reach it. `pairs` is null then, or
 * when a key is not a number. (Sorted here: SQLite would sort each part whole before the limit.)
 */
function readPairs(t: WordSearchTable, parts: Part[], key: AnySQLiteColumn, limit?: number): { n: number; pairs: Float64Array | null } {
  const union = unionAll(t, parts, sql`${key} as k, ${t.id} as id`);
  const rows = db.all<{ k: unknown; id: number }>(limit === undefined ? union : sql`select k, id from (${union}) limit ${limit}`);
  if (limit !== undefined && rows.length >= limit) return { n: rows.length, pairs: null };
  return { n: rows.length, pairs: sortedPairs(rows) };
}

/**
 * The rows of `parts` that pass `test`, as `readPairs` gives them (`pairs` null when more than
 * `cap`), reading no more than `bound` of the parts' rows: null when they hold more. Reading stops
 * once more than `cap` have passed: a search over the cap needs no more ('ana p' among the
 * surgeries: 63 → 35 ms).
 */
function readTested(t: WordSearchTable, parts: Part[], test: SQL, bound: number, cap: number): { n: number; pairs: Float64Array | null } | null {
  const union = unionAll(t, parts, sql`${t.order} as k, ${t.id} as id, (${test}) as hit`);
  const rows = db.all<{ k: unknown; id: number; seen: number }>(
    sql`select k, id, seen from (select k, id, hit, row_number() over () as seen from (select * from (${union}) limit ${bound + 1})) where hit or seen > ${bound} limit ${cap + 1}`,
  );
  // Past `bound` rows (the last row read) before more than `cap` passed: null.
  if (rows.some((row) => row.seen > bound)) return null;
  return { n: rows.length, pairs: rows.length > cap ? null : sortedPairs(rows) };
}

/** [key, id] pairs in (key, id) order; null when a key is not a number. */
function sortedPairs(rows: { k: unknown; id: number }[]): Float64Array | null {
  if (!rows.every((row) => typeof row.k === "number")) return null;
  const numeric = rows as { k: number; id: number }[];
  numeric.sort((a, b) => a.k - b.k || a.id - b.id);
  const pairs = new Float64Array(numeric.length * 2);
  numeric.forEach((row, i) => {
    pairs[2 * i] = row.k;
    pairs[2 * i + 1] = row.id;
  });
  return pairs;
}

/** One page's ids from the kept pairs: beyond the cursor (after it ascending, before it descending), past `offset`. */
function keptPage(pairs: Float64Array, ascending: boolean, cursor: [number, number] | undefined, offset: number, limit: number): number[] {
  const n = pairs.length / 2;
  const ids: number[] = [];
  if (ascending) {
    for (let i = (cursor ? firstPast(pairs, cursor, true) : 0) + offset; i < n && ids.length < limit; i += 1) ids.push(pairs[2 * i + 1]);
  } else {
    for (let i = (cursor ? firstPast(pairs, cursor, false) : n) - 1 - offset; i >= 0 && ids.length < limit; i -= 1) ids.push(pairs[2 * i + 1]);
  }
  return ids;
}

/** The index of the first pair after `cursor` (or at it, unless `strictly`), by binary search on (key, id). */
function firstPast(pairs: Float64Array, [key, id]: [number, number], strictly: boolean): number {
  let low = 0;
  let high = pairs.length / 2;
  while (low < high) {
    const mid = (low + high) >> 1;
    const [k, i] = [pairs[2 * mid], pairs[2 * mid + 1]];
    const past = k > key || (k === key && (strictly ? i > id : i >= id));
    if (past) high = mid;
    else low = mid + 1;
  }
  return low;
}
