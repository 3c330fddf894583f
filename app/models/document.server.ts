import { type SQL, and, desc, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import { documents, patients, surgeries } from "~db/schema";
import { recordAudit, recordDownload } from "~/.server/audit";
import { db, preparedQuery } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import type { VersionedTable } from "~/.server/data-cache";
import { COUNT_CAP, type KeysetOrder, countMatches, keysetList, pageIds, pageUntilWrite } from "~/.server/pagination";
import { ftsPhrase, likeWord, pairTermsQuery, searchWords, typedDigits } from "~/.server/search-sql";
import { type ReceivedFile, discardUpload, keepUpload, newStorageName, removeStored, verifyStored } from "~/.server/uploads";
import { addDaysInClinic, startOfIsoDateInClinic } from "~/lib/dates";
import type { ListParams } from "~/lib/list-params";
import type { DocumentFilters, DocumentSort } from "~/lib/lists";
import { buildSearchText } from "~/lib/search";
import type { DocumentInput } from "~/validation/document";
import { patientSearch } from "./patient.server";

export { DOCUMENT_LIST } from "~/lib/lists";

/** A rule the person can fix (unknown patient, a surgery of another patient …). */
export class DocumentError extends DomainError<keyof DocumentInput & string> {}

/** Largest upload the clinic accepts (Settings, default 20 MB). */
export function uploadLimit(): { maxMb: number; maxBytes: number } {
  const row = db.get<{ mb: number | null }>(sql`select upload_max_mb as mb from clinic_settings where id = 1`);
  const maxMb = Math.min(200, Math.max(1, row?.mb ?? 20));
  return { maxMb, maxBytes: maxMb * 1024 * 1024 };
}

/**
 * A document holds `word` when its own text (the file's name and note) or its patient's key does
 * (ADR 0005), tested on the row: the patient's key read by the row's patient (its primary key), so
 * a common name's thousands of patients are not gathered first.
 */
function documentHolds(word: string): SQL {
  const patientHolds = sql`exists (select 1 from ${patients} where ${patients.id} = ${documents.patientId} and ${patientSearch(word, { inOrder: true })})`;
  return or(likeWord(documents.searchText, word), patientHolds)!;
}

/**
 * The query of `documents_search` (migration 0050: each document's own text and its patient's key,
 * trigram-indexed) for a search's words of two characters or more, every one held in either text:
 * a word of three or more as itself, and if it is digits and punctuation (a CPF as typed) also as
 * its bare digits in the patient's key, as `patientSearch` tries it; a word of two as the trigrams
 * that start with it (`pairTermsQuery`: both keys end in a space). `none` when a word of two is in
 * no key, so that nothing matches; null when every word has one character.
 */
function indexQuery(words: string[]): string | "none" | null {
  const terms: string[] = [];
  for (const word of words) {
    const length = [...word].length;
    if (length < 2) continue;
    if (length === 2) {
      const pairs = pairTermsQuery("documents_search_terms", word);
      if (pairs === null) return "none";
      terms.push(pairs);
      continue;
    }
    const digits = typedDigits(word);
    terms.push(digits ? `(${ftsPhrase(word)} OR patient : ${ftsPhrase(digits)})` : ftsPhrase(word));
  }
  return terms.length ? terms.join(" AND ") : null;
}

/**
 * Matches a search's page gathers from the index and sorts, at most. Past it, and up to COUNT_CAP,
 * the page walks the date order testing each row's id against the matches' ids, which SQLite sets
 * apart from the index once per query; past COUNT_CAP, a word is common enough that the walk fills
 * a page within a few hundred rows testing the texts themselves, and the index is not read again.
 */
const GATHERED_MAX = 1_000;

/**
 * A search of the documents (every word held, `documentHolds`), planned: its words of two
 * characters or more are found and counted in `documents_search`, those of one tested on those
 * rows. A search the index finds in GATHERED_MAX documents or fewer reads them by id and sorts
 * them; one found in up to COUNT_CAP walks the date order keeping the index's matches (a name,
 * 'renato', 3 254 documents of 485 203: 1.6 ms, where testing the rows' texts took 15 and reading
 * and sorting the matches 4); a common one ('silva', 'laudo') walks the date order testing each
 * row's texts, as its page fills within a few hundred. A search of one-character words only is
 * tested row by row, and so is one within a patient's documents (`indexed: false`); one with a word
 * of two that no key holds matches nothing.
 */
function documentSearch(q: string, { indexed = true } = {}) {
  const words = searchWords(q);
  if (words.length === 0) return undefined;
  const query = indexed ? indexQuery(words) : null;
  const single = words.filter((word) => [...word].length < 2).map(documentHolds);
  return {
    /** Tested on each row, in the order's walk. */
    walked: and(...words.map(documentHolds))!,
    /** The index's matches (null without a word it answers) and the one-character words' tests of them. */
    indexed: query === null || query === "none" ? null : { query, rest: and(...single) },
    none: query === "none",
  };
}
type DocumentSearch = NonNullable<ReturnType<typeof documentSearch>>;

function documentFilters(filters: DocumentFilters): SQL | undefined {
  const from = startOfIsoDateInClinic(filters.from);
  const toDay = startOfIsoDateInClinic(filters.to);
  return and(
    filters.patientId ? eq(documents.patientId, filters.patientId) : undefined,
    filters.category ? eq(documents.category, filters.category) : undefined,
    from ? gte(documents.createdAt, from) : undefined,
    toDay ? lt(documents.createdAt, addDaysInClinic(toDay, 1)) : undefined,
  );
}

/**
 * The documents a search matches, through the index when it answers the search (each match joined
 * to its row for the one-character words and the filters): how many, capped (a count that reaches
 * the cap reads no further), and the test of a page's rows: their ids when they are GATHERED_MAX or
 * fewer, membership in the index's matches up to COUNT_CAP, the texts themselves past it.
 */
function matchedDocuments(search: DocumentSearch | undefined, filtered: SQL | undefined): { where: SQL | undefined; total: number; totalCapped: boolean } {
  if (search?.none) return { where: sql`0`, total: 0, totalCapped: false };
  const walked = and(search?.walked, filtered);
  if (!search?.indexed) return { where: walked, ...countMatches(documents, walked) };
  const { query } = search.indexed;
  const inIndex = sql`select rowid as id from documents_search where documents_search match ${query}`;
  const where = and(search.indexed.rest, filtered);
  // The index alone when nothing else tests the rows: reading a few thousand documents' rows costs more than the index does.
  // Otherwise the index's matches lead (`cross join`): led by a filter's index, each of its rows would be matched by the index alone.
  // A category alone is tested without the row: each match sought by (category, rowid) in documents_category_idx (migration 0052).
  // In the index's own order (rowid), so that the count goes on from the last id gathered instead of reading those rows again.
  const matches = (limit: number, after = 0) =>
    where
      ? sql`select ${documents.id} as id from documents_search cross join ${documents} on ${documents.id} = documents_search.rowid
            where documents_search match ${query} and documents_search.rowid > ${after} and ${where} order by documents_search.rowid limit ${limit}`
      : sql`${inIndex} and rowid > ${after} order by rowid limit ${limit}`;
  const ids = db.all<{ id: number }>(matches(GATHERED_MAX + 1)).map((row) => row.id);
  if (ids.length <= GATHERED_MAX) return { where: inArray(documents.id, ids), total: ids.length, totalCapped: false };
  const n = ids.length + db.get<{ n: number }>(sql`select count(*) as n from (${matches(COUNT_CAP + 1 - ids.length, ids.at(-1))})`).n;
  if (n > COUNT_CAP) return { where: walked, total: COUNT_CAP, totalCapped: true };
  // `+` keeps the id from being sought: the order's index is walked, each row's id looked up in the matches' set.
  return { where: and(sql`+${documents.id} in (${inIndex})`, where), total: n, totalCapped: false };
}

/** What a page of documents reads: the documents (and their search index), their patients' names and keys, their surgeries' types. */
const DOCUMENT_PAGE_TABLES: readonly VersionedTable[] = ["documents", "patients", "surgeries"];

/**
 * The documents list, a page kept until a document, a patient or a surgery is written
 * (`pageUntilWrite`, migration 0051): viewed again, returned to from a patient's record, or paged
 * back to, a page or a search is not read again, and its rows' markup is kept with it.
 */
export function listDocuments(state: ListParams<DocumentSort>, filters: DocumentFilters) {
  return pageUntilWrite("documents", [state, filters], () => readDocuments(state, filters), DOCUMENT_PAGE_TABLES);
}

function readDocuments(state: ListParams<DocumentSort>, filters: DocumentFilters) {
  // One patient's documents are few: tested in their own index rather than sought among everyone's.
  const search = documentSearch(state.q, { indexed: !filters.patientId });
  const filtered = documentFilters(filters);
  const { where, ...counted } = matchedDocuments(search, filtered);
  const order: KeysetOrder = { key: documents.createdAt, id: documents.id, dir: state.dir };
  return keysetList(
    documents,
    where,
    state,
    order,
    (matching, orderBy, limit, offset) => {
      // The page's ids from the documents alone (the date order walked, or the matches' rows sorted), then their joins.
      const ids = pageIds(documents, documents.id, matching, orderBy, { limit, offset });
      if (ids.length === 0) return [];
      return db
        .select({
          id: documents.id,
          cursorKey: documents.createdAt,
          createdAt: documents.createdAt,
          patientId: documents.patientId,
          patientName: patients.name,
          category: documents.category,
          originalName: documents.originalName,
          note: documents.note,
          mimeType: documents.mimeType,
          sizeBytes: documents.sizeBytes,
          surgeryId: documents.surgeryId,
          surgeryType: surgeries.surgeryType,
        })
        .from(documents)
        .innerJoin(patients, eq(patients.id, documents.patientId))
        .leftJoin(surgeries, eq(surgeries.id, documents.surgeryId))
        .where(inArray(documents.id, ids))
        .orderBy(...orderBy)
        .all();
    },
    counted,
  );
}

export function getDocument(id: number) {
  return (
    db
      .select({
        id: documents.id,
        patientId: documents.patientId,
        patientName: patients.name,
        originalName: documents.originalName,
        mimeType: documents.mimeType,
        sizeBytes: documents.sizeBytes,
        sha256: documents.sha256,
        storageName: documents.storageName,
        category: documents.category,
      })
      .from(documents)
      .innerJoin(patients, eq(patients.id, documents.patientId))
      .where(eq(documents.id, id))
      .get() ?? null
  );
}

/** The patient's surgeries, newest first, for the upload's optional 'cirurgia' choice. */
export function patientSurgeryOptions(patientId: number) {
  return db
    .select({ id: surgeries.id, surgeryType: surgeries.surgeryType, scheduledDate: surgeries.scheduledDate })
    .from(surgeries)
    .where(eq(surgeries.patientId, patientId))
    .orderBy(desc(surgeries.scheduledDate), desc(surgeries.id))
    .limit(100)
    .all();
}

/** The patient's latest documents (their record's 'Documentos' card). */
export function recentPatientDocuments(patientId: number, limit = 5) {
  return recentDocumentsQuery().all({ patientId, limit });
}

const recentDocumentsQuery = preparedQuery(() =>
  db
    .select({ id: documents.id, originalName: documents.originalName, category: documents.category, createdAt: documents.createdAt })
    .from(documents)
    .where(eq(documents.patientId, sql.placeholder("patientId")))
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

export function documentSearchText(originalName: string, note: string | null) {
  return buildSearchText(originalName, note);
}

/**
 * Keeps an uploaded file as the patient's document: the row and the file's move into place in
 * one transaction (a failed insert leaves no file; a failed move leaves no row). The received
 * temporary file is always consumed.
 */
export function createDocument(userId: number, input: DocumentInput, file: ReceivedFile): number {
  try {
    return db.transaction((tx) => {
      const patient = tx.select({ id: patients.id }).from(patients).where(eq(patients.id, input.patientId)).get();
      if (!patient) throw new DocumentError("Paciente não encontrado. Busque e selecione o paciente novamente.", "patientId");
      if (input.surgeryId !== null) {
        const surgery = tx.select({ patientId: surgeries.patientId }).from(surgeries).where(eq(surgeries.id, input.surgeryId)).get();
        if (!surgery || surgery.patientId !== input.patientId) throw new DocumentError("Escolha uma cirurgia deste paciente.", "surgeryId");
      }
      const storageName = newStorageName();
      const row = tx
        .insert(documents)
        .values({
          patientId: input.patientId,
          surgeryId: input.surgeryId,
          category: input.category,
          note: input.note,
          originalName: file.originalName,
          mimeType: file.mimeType,
          sizeBytes: file.sizeBytes,
          sha256: file.sha256,
          storageName,
          uploadedBy: userId,
          searchText: documentSearchText(file.originalName, input.note),
        })
        .returning({ id: documents.id })
        .get();
      recordAudit(tx, {
        userId,
        action: "create",
        entity: "document",
        entityId: row.id,
        changes: { patientId: input.patientId, surgeryId: input.surgeryId, category: input.category, mimeType: file.mimeType, size: file.sizeBytes, sha256: file.sha256 },
      });
      // Last, inside the transaction: if the move fails the row is rolled back.
      keepUpload(file, storageName);
      return row.id;
    });
  } finally {
    discardUpload(file);
  }
}

/** Removes a document (admins): the row and its audit entry in one transaction, then the file. */
export function deleteDocument(userId: number, id: number) {
  const storageName = db.transaction((tx) => {
    const row = tx.select().from(documents).where(eq(documents.id, id)).get();
    if (!row) throw new DocumentError("Documento não encontrado.");
    tx.delete(documents).where(eq(documents.id, id)).run();
    recordAudit(tx, {
      userId,
      action: "delete",
      entity: "document",
      entityId: id,
      changes: { patientId: row.patientId, category: row.category, size: row.sizeBytes, sha256: row.sha256 },
    });
    return row.storageName;
  });
  removeStored(storageName);
}

/**
 * A download: the stored bytes are checked against the size and SHA-256 kept at upload before
 * anything is sent, and the download is in the audit log.
 */
export async function prepareDownload(request: Request, user: { id: number }, id: number) {
  const doc = getDocument(id);
  if (!doc) return { status: "not-found" as const };
  const check = await verifyStored(doc.storageName, doc);
  if (!check.ok) {
    console.error(`Document ${id}: stored file ${check.reason} (${doc.storageName})`);
    return { status: check.reason, doc };
  }
  recordDownload(request, user, "document", id, { patientId: doc.patientId });
  return { status: "ok" as const, doc, path: check.path };
}
