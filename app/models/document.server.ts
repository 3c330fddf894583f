import { type SQL, and, desc, eq, gte, lt, or, sql } from "drizzle-orm";
import { documents, patients, surgeries } from "~db/schema";
import { recordAudit, recordDownload } from "~/.server/audit";
import { db, preparedQuery } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { type KeysetOrder, countMatches, keysetPage, locateIn } from "~/.server/pagination";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import { type ReceivedFile, discardUpload, keepUpload, newStorageName, removeStored, verifyStored } from "~/.server/uploads";
import { addDaysInClinic, startOfIsoDateInClinic } from "~/lib/dates";
import { PAGE_SIZE, type ListParams } from "~/lib/list-params";
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

/** Search over the file's name and note, and the patient (name, CPF …) through their stored key. */
function documentSearch(q: string): SQL | undefined {
  return matchAllWords(q, (word) =>
    or(
      likeWord(documents.searchText, word),
      sql`${documents.patientId} in (select ${patients.id} from ${patients} where ${patientSearch(word)})`,
    )!,
  );
}

function documentWhere(q: string, filters: DocumentFilters): SQL | undefined {
  const from = startOfIsoDateInClinic(filters.from);
  const toDay = startOfIsoDateInClinic(filters.to);
  return and(
    documentSearch(q),
    filters.patientId ? eq(documents.patientId, filters.patientId) : undefined,
    filters.category ? eq(documents.category, filters.category) : undefined,
    from ? gte(documents.createdAt, from) : undefined,
    toDay ? lt(documents.createdAt, addDaysInClinic(toDay, 1)) : undefined,
  );
}

export function listDocuments(state: ListParams<DocumentSort>, filters: DocumentFilters) {
  const where = documentWhere(state.q, filters);
  const order: KeysetOrder = { key: documents.createdAt, id: documents.id, dir: state.dir };
  const counted = countMatches(documents, where);
  const page = keysetPage(
    state,
    order,
    (position, orderBy, limit, offset) =>
      db
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
        .where(and(where, position))
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
    counted.totalCapped ? null : counted.total,
    locateIn(documents, where, order),
  );
  return { ...page, ...counted, pageSize: PAGE_SIZE };
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
