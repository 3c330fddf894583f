/**
 * Google Drive: uploads from /google-drive and patients' documents sent to a Drive folder of
 * their own (docs/decisions/0020-google-integration.md). A file is received as it arrives into a
 * temporary file (app/.server/uploads.ts: size limit, type sniffed from its bytes), then streamed
 * from disk to Drive; nothing is held whole in memory.
 */
import fs from "node:fs";
import { and, eq } from "drizzle-orm";
import type { drive_v3 } from "googleapis/build/src/apis/drive/v3";
import { documents, googleDriveFiles, patients } from "~db/schema";
import type { ListParams } from "~/lib/list-params";
import { recordAudit } from "./audit";
import { db } from "./db";
import { DomainError } from "./domain-error";
import { GOOGLE_MESSAGES, GoogleError, apiRoot, authorizedClient, googleConfig, googleLibrary, statusOfGoogleError } from "./google";
import { keysetList } from "./pagination";
import { type ReceivedFile, ALLOWED_TYPES, UPLOAD_MESSAGES, UploadError, discardUpload, receiveUpload, storedPath, verifyStored } from "./uploads";

export const DRIVE_MAX_MB = 20;
export const DRIVE_MAX_BYTES = DRIVE_MAX_MB * 1024 * 1024;
export const DRIVE_FOLDER_MIME = "application/vnd.google-apps.folder";
/** What the upload form shows: the limit and the accepted types. */
export const DRIVE_ACCEPT_HINT = `${Object.values(ALLOWED_TYPES).join(", ")} até ${DRIVE_MAX_MB} MB`;

export type DriveFileRow = typeof googleDriveFiles.$inferSelect;

function driveClient() {
  const config = googleConfig();
  const auth = authorizedClient(config);
  if (!config || !auth) throw new DomainError(GOOGLE_MESSAGES.notConnected);
  const { drive_v3: drive } = googleLibrary.drive();
  return new drive.Drive({ auth, rootUrl: apiRoot(config) });
}

/**
 * Per-call options: googleapis applies the client's `rootUrl` to a call's URL but not to its media
 * (upload) URL, which it builds from the call's own `rootUrl` option; so uploads repeat it.
 */
function callOptions() {
  const config = googleConfig();
  const rootUrl = config ? apiRoot(config) : undefined;
  return rootUrl ? { rootUrl: `${rootUrl}/` } : {};
}

/** The stored row as the API returns it. */
export function driveFileJson(row: DriveFileRow) {
  return {
    id: row.id,
    name: row.name,
    drive_file_id: row.driveFileId,
    mime_type: row.mimeType,
    size_bytes: row.sizeBytes,
    web_view_link: row.webViewLink,
    patient_id: row.patientId,
    uploaded_at: row.uploadedAt.toISOString(),
  };
}

async function createOnDrive(
  drive: drive_v3.Drive,
  file: { name: string; mimeType: string; path: string; parentId: string | null },
): Promise<{ id: string; webViewLink: string | null }> {
  try {
    const { data } = await drive.files.create({
      requestBody: { name: file.name, mimeType: file.mimeType, ...(file.parentId ? { parents: [file.parentId] } : {}) },
      media: { mimeType: file.mimeType, body: fs.createReadStream(file.path) },
      fields: "id,name,mimeType,webViewLink",
    }, callOptions());
    if (!data.id) throw new GoogleError(GOOGLE_MESSAGES.uploadFailed);
    return { id: data.id, webViewLink: data.webViewLink ?? null };
  } catch (error) {
    if (error instanceof GoogleError) throw error;
    throw new GoogleError(GOOGLE_MESSAGES.uploadFailed, statusOfGoogleError(error));
  }
}

/** Reads the multipart body (field `file`) within the Drive limit; refusals are UploadError (400/413/415). */
export function receiveDriveUpload(request: Request) {
  return receiveUpload(request, { maxBytes: DRIVE_MAX_BYTES, maxMb: DRIVE_MAX_MB });
}

/** Sends a received file to the clinic's Drive and keeps its row; the temporary file is removed either way. */
export async function uploadReceived(userId: number, file: ReceivedFile): Promise<DriveFileRow> {
  try {
    const drive = driveClient();
    const created = await createOnDrive(drive, { name: file.originalName, mimeType: file.mimeType, path: file.tempPath, parentId: null });
    return db.transaction((tx) => {
      const row = tx
        .insert(googleDriveFiles)
        .values({ name: file.originalName, driveFileId: created.id, mimeType: file.mimeType, sizeBytes: file.sizeBytes, webViewLink: created.webViewLink, uploadedBy: userId })
        .returning()
        .get();
      recordAudit(tx, { userId, action: "create", entity: "google_drive_file", entityId: row.id, changes: { name: row.name, sizeBytes: row.sizeBytes } });
      return row;
    });
  } finally {
    discardUpload(file);
  }
}

export type DriveUploadOutcome = { ok: true; row: DriveFileRow } | { ok: false; status: 400 | 409 | 413 | 415 | 502; message: string };

/**
 * The upload of /google-drive and POST /api/google/drive/upload (field `file`): received within
 * the limit, then sent to Drive. The caller has checked the permission.
 */
export async function handleDriveUpload(request: Request, userId: number): Promise<DriveUploadOutcome> {
  let received;
  try {
    received = await receiveDriveUpload(request);
  } catch (error) {
    if (error instanceof UploadError) return { ok: false, status: error.status, message: error.message };
    throw error;
  }
  if (!received.file) return { ok: false, status: 400, message: UPLOAD_MESSAGES.missing };
  try {
    return { ok: true, row: await uploadReceived(userId, received.file) };
  } catch (error) {
    if (error instanceof GoogleError) return { ok: false, status: 502, message: GOOGLE_MESSAGES.uploadFailed };
    if (error instanceof DomainError) return { ok: false, status: 409, message: error.message };
    throw error;
  }
}

/** The patient's Drive folder, made on first use ('Paciente — Nome (#id)'). */
async function patientFolder(drive: drive_v3.Drive, userId: number, patient: { id: number; name: string }): Promise<string> {
  const existing = db
    .select({ driveFileId: googleDriveFiles.driveFileId })
    .from(googleDriveFiles)
    .where(and(eq(googleDriveFiles.patientId, patient.id), eq(googleDriveFiles.mimeType, DRIVE_FOLDER_MIME)))
    .get();
  if (existing) return existing.driveFileId;
  const name = `Paciente — ${patient.name} (#${patient.id})`;
  let id: string;
  let webViewLink: string | null;
  try {
    const { data } = await drive.files.create({ requestBody: { name, mimeType: DRIVE_FOLDER_MIME }, fields: "id,webViewLink" }, callOptions());
    if (!data.id) throw new GoogleError(GOOGLE_MESSAGES.uploadFailed);
    [id, webViewLink] = [data.id, data.webViewLink ?? null];
  } catch (error) {
    if (error instanceof GoogleError) throw error;
    throw new GoogleError(GOOGLE_MESSAGES.uploadFailed, statusOfGoogleError(error));
  }
  db.transaction((tx) => {
    const row = tx
      .insert(googleDriveFiles)
      .values({ name, driveFileId: id, mimeType: DRIVE_FOLDER_MIME, webViewLink, patientId: patient.id, uploadedBy: userId })
      .returning({ id: googleDriveFiles.id })
      .get();
    recordAudit(tx, { userId, action: "create", entity: "google_drive_file", entityId: row.id, changes: { folder: true, patientId: patient.id } });
  });
  return id;
}

export class DriveSendError extends DomainError {}

/**
 * Sends one of a patient's documents to the patient's Drive folder (made on first use), streamed
 * from the stored file after checking it is still the one uploaded. A document is sent once.
 */
export async function sendDocumentToDrive(userId: number, documentId: number): Promise<DriveFileRow> {
  const doc = db
    .select({ id: documents.id, patientId: documents.patientId, patientName: patients.name, originalName: documents.originalName, mimeType: documents.mimeType, sizeBytes: documents.sizeBytes, sha256: documents.sha256, storageName: documents.storageName })
    .from(documents)
    .innerJoin(patients, eq(patients.id, documents.patientId))
    .where(eq(documents.id, documentId))
    .get();
  if (!doc) throw new DriveSendError("Documento não encontrado.");
  if (db.select({ id: googleDriveFiles.id }).from(googleDriveFiles).where(eq(googleDriveFiles.documentId, doc.id)).get()) {
    throw new DriveSendError("Este documento já foi enviado ao Google Drive.");
  }
  const check = await verifyStored(doc.storageName, doc);
  if (!check.ok) throw new DriveSendError("O arquivo deste documento não está íntegro no armazenamento e não foi enviado. Avise o administrador.");
  const drive = driveClient();
  const folderId = await patientFolder(drive, userId, { id: doc.patientId, name: doc.patientName });
  const created = await createOnDrive(drive, { name: doc.originalName, mimeType: doc.mimeType, path: storedPath(doc.storageName), parentId: folderId });
  return db.transaction((tx) => {
    const row = tx
      .insert(googleDriveFiles)
      .values({
        name: doc.originalName,
        driveFileId: created.id,
        mimeType: doc.mimeType,
        sizeBytes: doc.sizeBytes,
        webViewLink: created.webViewLink,
        uploadedBy: userId,
        patientId: doc.patientId,
        documentId: doc.id,
      })
      .returning()
      .get();
    recordAudit(tx, { userId, action: "create", entity: "google_drive_file", entityId: row.id, changes: { documentId: doc.id, patientId: doc.patientId } });
    return row;
  });
}

/** google_drive_files newest first (SPEC §7), a page at a time through the uploaded_at index. */
export function listDriveFiles(state: ListParams<"uploadedAt">) {
  return keysetList(
    googleDriveFiles,
    undefined,
    state,
    { key: googleDriveFiles.uploadedAt, id: googleDriveFiles.id, dir: state.dir },
    (at, orderBy, limit, offset) =>
      db
        .select({
          id: googleDriveFiles.id,
          cursorKey: googleDriveFiles.uploadedAt,
          name: googleDriveFiles.name,
          mimeType: googleDriveFiles.mimeType,
          sizeBytes: googleDriveFiles.sizeBytes,
          webViewLink: googleDriveFiles.webViewLink,
          uploadedAt: googleDriveFiles.uploadedAt,
          patientId: googleDriveFiles.patientId,
          patientName: patients.name,
        })
        .from(googleDriveFiles)
        .leftJoin(patients, eq(patients.id, googleDriveFiles.patientId))
        .where(at)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  );
}
