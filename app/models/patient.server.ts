import { type SQL, type SQLWrapper, and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { appointments, documents, patients, surgeries } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { DomainError } from "~/.server/domain-error";
import { db, prepared, preparedQuery } from "~/.server/db";
import { ftsPhrase, likeWord, pairTermsQuery, searchWords, typedDigits } from "~/.server/search-sql";
import { isUniqueViolation } from "~/.server/sql-errors";
import { tablesWriteCache } from "~/.server/data-cache";
import { COUNT_CAP, type KeysetOrder, countMatches, keysetPage, pageUntilWrite } from "~/.server/pagination";
import { PAGE_SIZE, type ListParams } from "~/lib/list-params";
import type { PatientSort } from "~/lib/lists";
import { buildSearchText } from "~/lib/search";
import type { PatientInput } from "~/validation/patient";

export { PATIENT_LIST, PATIENT_SORTS } from "~/lib/lists";

/** A rule of the domain the user can fix (duplicate CPF, patient still referenced …). */
export class PatientError extends DomainError<keyof PatientInput & string> {}

/** The stored search key of a patient; the demo seed uses it too, so both match the same way. */
export function patientSearchText(p: Pick<PatientInput, "name" | "cpf" | "email" | "phone">) {
  return buildSearchText(p.name, p.cpf, p.email, p.phone);
}

/**
 * How a search finds patients. Words of two characters or more are answered by the trigram index
 * `patients_search` (migration 0002) in ONE query, every word ANDed ('"joao" AND "silva"'), so a
 * search costs about the same on 200 000 patients as on 200: a word of three or more as itself, one
 * of two as the trigrams that start with it (`pairQuery`). A word of one character is tested in
 * the keys, and so are the words of two beside it (`short`). A query made of digits and punctuation
 * ("123.456.789-09") is also tried as bare digits. `match` is the whole search as one index query
 * when no word has one character: its matches can then be counted in the index alone. `unheld`: a
 * word of two characters that no key holds, so that the words match no patient (the bare digits
 * still may).
 */
type SearchPlan = { match: string | null; indexed: string | null; unheld: boolean; words: string[]; short: string[]; digits: string | null };

function searchPlan(q: string): SearchPlan | null {
  const words = searchWords(q);
  if (words.length === 0) return null;
  const length = (word: string) => [...word].length;
  // Beside a word of one character, tested in each key anyway, a pair is tested there too: a common
  // one's patients gathered from the index cost more than the test ('a ma': 25 ms against 5).
  const indexable = words.some((word) => length(word) < 2) ? 3 : 2;
  const short = words.filter((word) => length(word) < indexable);
  const queries = words.filter((word) => length(word) >= indexable).map((word) => (length(word) >= 3 ? ftsPhrase(word) : pairQuery(word)));
  const unheld = queries.includes(null);
  const indexed = queries.length && !unheld ? queries.join(" AND ") : null;
  const digits = typedDigits(q);
  const byDigits = digits ? ftsPhrase(digits) : null;
  const match = unheld ? byDigits : short.length ? null : byDigits ? `(${indexed}) OR ${byDigits}` : indexed;
  return { match, indexed, unheld, words, short, digits };
}

/**
 * A word of two characters as a query of the patients' trigram index: the trigrams that start with
 * it, read from the index's vocabulary (`patients_search_terms`, migration 0039): 'pa' is "pac" OR
 * "pai" OR "par" OR "pat" OR "pau". A key starts and ends with a space (`buildSearchText`), so the
 * word, wherever it is in a key, is followed by a character there, and a key holds it exactly when
 * it holds one of those trigrams. Null when no key does. Tested in every key instead, 'pa' cost
 * 20 ms on 200 000 patients; from the index, 1 ms.
 */
function pairQuery(word: string): string | null {
  return pairsUntilTablesChange(["patients"], word, () => pairTermsQuery("patients_search_terms", word));
}

/**
 * Kept until the patients change: reading a pair's terms passes over their postings (a common pair's
 * 'ma': 4 ms), and a search of appointments asks for the same pair's query several times.
 */
const pairsUntilTablesChange = tablesWriteCache(64);

/**
 * The trigram index query (`patients_search match ?`) that finds the patients of a search, or null
 * when it has a word of one character, or one of two that no key holds. Other lists join it to read
 * their rows patient by patient as the index yields them (app/models/word-search.server.ts), for
 * words of three characters or more.
 */
export function patientIndexQuery(q: string): string | null {
  return searchPlan(q)?.match ?? null;
}

/** Rows among the index query's matches. */
function inIndex(query: string): SQL {
  return sql`${patients.id} in (select rowid from patients_search where patients_search match ${query})`;
}

/**
 * Search over the stored key: name, CPF, e-mail and phone, accent- and case-insensitive, every word
 * in any order. `inOrder` is for a search that matches many patients (1 % or more): the page then
 * walks the order's index and tests each key, which finds a page after a few hundred keys, instead
 * of gathering every match from the search index and sorting them.
 */
export function patientSearch(q: string, options: { inOrder?: boolean } = {}): SQL | undefined {
  return planWhere(searchPlan(q), options);
}

/** `patientSearch` for a plan already worked out (the list and the pickers need it more than once). */
function planWhere(
  plan: SearchPlan | null,
  { inOrder = false, key = patients.searchText }: { inOrder?: boolean; key?: SQLWrapper } = {},
): SQL | undefined {
  if (!plan) return undefined;
  const contains = (word: string) => likeWord(key, word);
  if (inOrder) {
    const byWords = and(...plan.words.map(contains))!;
    return plan.digits ? sql`(${byWords} or ${contains(plan.digits)})` : byWords;
  }
  if (plan.match) return inIndex(plan.match);
  const byWords = plan.unheld ? sql`0` : and(plan.indexed ? inIndex(plan.indexed) : undefined, ...plan.short.map(contains))!;
  return plan.digits ? sql`(${byWords} or ${inIndex(ftsPhrase(plan.digits))})` : byWords;
}

/** How many patients a search matches, capped like every list total: from the index alone when it answers the whole search. */
function countPatients(plan: SearchPlan | null, cap = COUNT_CAP, where = planWhere(plan)) {
  const match = plan?.match;
  if (!match) return countMatches(patients, where, cap);
  const n = (prepared("select count(*) from (select 1 from patients_search where patients_search match ? limit ?)").pluck().get(match, cap + 1) as number | undefined) ?? 0;
  return n > cap ? { total: cap, totalCapped: true } : { total: n, totalCapped: false };
}

/** The list's order: name (the search key starts with the folded name, so "Álvaro" sorts with the A's) or date. */
function patientOrder({ sort, dir }: Pick<ListParams<PatientSort>, "sort" | "dir">): KeysetOrder {
  return { key: sort === "createdAt" ? patients.createdAt : patients.searchText, id: patients.id, dir };
}

/** Matches from which a search page walks the order's index (about 1 % of a large practice's patients). */
const ORDER_SCAN_MATCHES = 2_000;

/**
 * Keys of the name index a common search's page walks before it looks elsewhere. A common surname
 * (Silva) is spread over the alphabet and fills a page within a few hundred keys; a first name
 * (Maria, José, Vitor) gathers under its letter, and walking the index up to it took 5–15 ms on
 * 200 000 patients.
 */
const NAME_WINDOW = 4_000;

/**
 * The ids of the first `limit` matches of a common search in name order from `position`, if
 * they are among the next NAME_WINDOW keys of the name index (read from the index alone), else
 * null. `ascending` is the direction the page is read in.
 */
function idsInNameWindow(plan: SearchPlan, position: SQL | undefined, ascending: boolean, limit: number): number[] | null {
  const direction = ascending ? asc : desc;
  const window = db
    .select({ id: patients.id, key: patients.searchText })
    .from(patients)
    .where(position)
    .orderBy(direction(patients.searchText), direction(patients.id))
    .limit(NAME_WINDOW)
    .as("name_window");
  const ids = db
    .select({ id: window.id })
    .from(window)
    .where(planWhere(plan, { inOrder: true, key: window.key }))
    .orderBy(direction(window.key), direction(window.id))
    .limit(limit)
    .all()
    .map((row) => row.id);
  return ids.length === limit ? ids : null;
}

/**
 * Where a search's page comes from, for a search matching `counted` patients:
 * - a rare one (under ORDER_SCAN_MATCHES): its matches from the search index, sorted;
 * - a common one in name order: the next keys of the name index (`idsInNameWindow`); when its
 *   page is not there, its matches sorted if they are counted, else the whole index walked;
 * - a common one in date order: the date index walked (dates do not gather like first names).
 */
function searchPage(plan: SearchPlan | null, where: SQL | undefined, counted: { total: number; totalCapped: boolean }, byName: boolean) {
  if (!plan || counted.total < ORDER_SCAN_MATCHES) return { where, window: false };
  const walked = planWhere(plan, { inOrder: true });
  if (!byName) return { where: walked, window: false };
  return { where: counted.totalCapped ? walked : where, window: true };
}

/**
 * The patients list, a page kept until the patients are written (`pageUntilWrite`): viewed again,
 * or returned to from a patient's record, it is not searched or read again.
 */
export function listPatients(state: ListParams<PatientSort>) {
  const { q, sort, dir, page, after, before } = state;
  return pageUntilWrite("patients", [q.trim(), sort, dir, page, after ?? null, before ?? null], () => listedPatients(state), ["patients"]);
}

function listedPatients(state: ListParams<PatientSort>) {
  const plan = searchPlan(state.q);
  const where = planWhere(plan);
  const order = patientOrder(state);
  const counted = countPatients(plan, COUNT_CAP, where);
  const source = searchPage(plan, where, counted, order.key === patients.searchText);
  const page = keysetPage(state, order, (position, orderBy, limit, offset, ahead) => {
    const ids = plan && source.window && offset === 0 ? idsInNameWindow(plan, position, (order.dir === "asc") === ahead, limit) : null;
    return db
      .select({ ...PATIENT_ROW, cursorKey: order.key })
      .from(patients)
      .where(ids ? inArray(patients.id, ids) : and(source.where, position))
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset)
      .all();
  }, counted.totalCapped ? null : counted.total);
  return { ...page, ...counted, pageSize: PAGE_SIZE };
}

const PATIENT_ROW = {
  id: patients.id,
  name: patients.name,
  cpf: patients.cpf,
  phone: patients.phone,
  email: patients.email,
  insurance: patients.insurance,
};
const PATIENT_EXPORT_FIELDS = {
  name: patients.name,
  cpf: patients.cpf,
  dateOfBirth: patients.dateOfBirth,
  phone: patients.phone,
  email: patients.email,
  insurance: patients.insurance,
  address: patients.address,
  whatsappOptIn: patients.whatsappOptIn,
  createdAt: patients.createdAt,
};

/** Every patient the list's search matches, in the list's order, with the columns a report needs (not paged: streamed). */
export function patientExport({ q, sort, dir }: Omit<ListParams<PatientSort>, "page">) {
  const order = dir === "asc" ? asc : desc;
  const { key } = patientOrder({ sort, dir });
  const query = db.select(PATIENT_EXPORT_FIELDS).from(patients).where(patientSearch(q)).orderBy(order(key), order(patients.id));
  return { fields: PATIENT_EXPORT_FIELDS, query };
}

export function getPatient(id: number) {
  return patientByIdQuery().get({ id }) ?? null;
}

/** Prepared once: the files list reads its filtered patient on every view (~0.1 ms to build and compile). */
const patientByIdQuery = preparedQuery(() =>
  db.select().from(patients).where(eq(patients.id, sql.placeholder("id"))).prepare(),
);

/**
 * Patients matching a query, for pickers: a patient picker's matches for `q` (`/api/patients`,
 * the dialogs' server-rendered pickers), kept until the patients are written: a picker typed into
 * again, or a dialog opened again, reads nothing. Callers must not modify what it returns.
 */
export function searchPatientOptions(q: string, limit = 20) {
  return patientOptionsUntilTablesChange(["patients"], `${limit}:${q}`, () => readPatientOptions(q, limit));
}
/** A store of its own: its keys come from what users type. */
const patientOptionsUntilTablesChange = tablesWriteCache(64);

function readPatientOptions(q: string, limit: number) {
  // As the list's first page (`searchPage`), counting further only when it must: a rare name sorts
  // its few matches; a common one is looked for in the first keys of the name index, and if it is
  // not there, its matches are sorted when they can be counted, else the whole index is walked.
  const plan = searchPlan(q);
  const common = countPatients(plan, ORDER_SCAN_MATCHES).totalCapped;
  const ids = plan && common ? idsInNameWindow(plan, undefined, true, limit) : null;
  const walk = !ids && common && countPatients(plan).totalCapped;
  return db
    .select({ id: patients.id, name: patients.name, cpf: patients.cpf })
    .from(patients)
    .where(ids ? inArray(patients.id, ids) : planWhere(plan, { inOrder: walk }))
    .orderBy(asc(patients.searchText), asc(patients.id))
    .limit(limit)
    .all();
}

function assertCpfFree(cpf: string | null, exceptId?: number) {
  if (!cpf) return;
  const clash = db
    .select({ id: patients.id, name: patients.name })
    .from(patients)
    .where(exceptId ? and(eq(patients.cpf, cpf), ne(patients.id, exceptId)) : eq(patients.cpf, cpf))
    .get();
  if (clash) throw new PatientError(`Este CPF já está cadastrado para ${clash.name}.`, "cpf");
}

function values(input: PatientInput, before?: { whatsappOptIn: boolean; whatsappOptInAt: Date | null }) {
  const optInChanged = !before || before.whatsappOptIn !== input.whatsappOptIn;
  return {
    ...input,
    searchText: patientSearchText(input),
    ...(optInChanged ? { whatsappOptInAt: input.whatsappOptIn ? new Date() : null } : {}),
  };
}

function rethrowCpfRace(error: unknown): never {
  if (isUniqueViolation(error, "cpf")) throw new PatientError("Este CPF já está cadastrado para outro paciente.", "cpf");
  throw error;
}

export function createPatient(userId: number, input: PatientInput) {
  assertCpfFree(input.cpf);
  try {
    return db.transaction((tx) => {
      const row = tx.insert(patients).values(values(input)).returning({ id: patients.id }).get();
      recordAudit(tx, { userId, action: "create", entity: "patient", entityId: row.id, changes: input });
      return row.id;
    });
  } catch (error) {
    rethrowCpfRace(error);
  }
}

export function updatePatient(userId: number, id: number, input: PatientInput) {
  const before = getPatient(id);
  if (!before) throw new PatientError("Paciente não encontrado.");
  // Anonymisation is final (LGPD art. 18, ADR 0022): identifiers cannot be typed back in.
  if (before.anonymizedAt) throw new PatientError("Este paciente foi anonimizado: os dados de identificação não podem ser editados.");
  assertCpfFree(input.cpf, id);
  try {
    db.transaction((tx) => {
      tx.update(patients).set(values(input, before)).where(eq(patients.id, id)).run();
      recordAudit(tx, { userId, action: "update", entity: "patient", entityId: id, changes: diffChanges(before, input) });
    });
  } catch (error) {
    rethrowCpfRace(error);
  }
}

/**
 * Deletes a patient who has no appointments or surgeries. Clinical history is never removed
 * as a side effect: those must be dealt with first (ADR 0003). Tasks, orders and messages that
 * mention the patient keep existing, unlinked.
 */
export function deletePatient(userId: number, id: number) {
  db.transaction((tx) => {
    const patient = tx.select().from(patients).where(eq(patients.id, id)).get();
    if (!patient) throw new PatientError("Paciente não encontrado.");
    const nAppointments = tx.select({ n: count() }).from(appointments).where(eq(appointments.patientId, id)).get()!.n;
    const nSurgeries = tx.select({ n: count() }).from(surgeries).where(eq(surgeries.patientId, id)).get()!.n;
    const nDocuments = tx.select({ n: count() }).from(documents).where(eq(documents.patientId, id)).get()!.n;
    if (nDocuments > 0) {
      throw new PatientError(
        `Não é possível excluir ${patient.name}: há ${describeCount(nDocuments, "documento", "documentos")} no prontuário deste paciente.`,
      );
    }
    if (nAppointments + nSurgeries > 0) {
      throw new PatientError(
        `Não é possível excluir ${patient.name}: há ${describeCount(nAppointments, "consulta", "consultas")} e ${describeCount(nSurgeries, "cirurgia", "cirurgias")} ligadas a este paciente.`,
      );
    }
    tx.delete(patients).where(eq(patients.id, id)).run();
    const { searchText: _omit, ...snapshot } = patient;
    recordAudit(tx, { userId, action: "delete", entity: "patient", entityId: id, changes: snapshot });
  });
}

export function describeCount(n: number, one: string, many: string) {
  return `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;
}
