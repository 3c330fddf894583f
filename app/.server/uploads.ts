import Busboy from "busboy";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { documentsDir as configuredDocumentsDir } from "./backup";
import { onFirstImport } from "./on-first-use";

/**
 * Patients' documents on disk (docs/decisions/0016-patient-record-and-documents.md): one directory,
 * DOCUMENTS_DIR (default db/documents, the one backups copy), files under random names with mode
 * 0600, each written to a temporary file and renamed into place only once complete.
 */
export const documentsDir = configuredDocumentsDir();

/** The types a document may have, judged by its first bytes (never by its name or the browser's word). */
export const ALLOWED_TYPES: Record<string, string> = {
  "application/pdf": "PDF",
  "image/jpeg": "JPG",
  "image/png": "PNG",
  "image/webp": "WEBP",
  "image/heic": "HEIC",
};

export const UPLOAD_MESSAGES = {
  type: "Apenas arquivos PDF ou imagens são permitidos",
  size: (maxMb: number) => `O arquivo passa do limite de ${maxMb} MB.`,
  missing: "Escolha o arquivo a enviar.",
  encoding: "Envie o formulário como multipart/form-data.",
  malformed: "Não foi possível ler o arquivo enviado. Tente novamente.",
} as const;

/** A refused upload: 400 (malformed, missing file), 413 (too large) or 415 (not a PDF or image). */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415,
  ) {
    super(message);
  }
}

/** A file received and written to a temporary name in the documents directory, not yet kept. */
export interface ReceivedFile {
  tempPath: string;
  originalName: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

/** Room for the form's text fields and multipart framing on top of the file itself. */
const FORM_OVERHEAD = 64 * 1024;
/** Bytes file-type reads to recognise a type. */
const SNIFF_BYTES = 4100;

function ensureDir() {
  fs.mkdirSync(documentsDir, { recursive: true, mode: 0o700 });
}

function tempName() {
  return path.join(documentsDir, `.upload-${randomBytes(12).toString("hex")}.tmp`);
}

/** A name safe to show and to offer on download: no path, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, "").trim().slice(-200);
  return clean || "documento";
}

/** Removes a temporary upload (after a refusal or a failed save); a missing file is fine. */
export function discardUpload(file: ReceivedFile | null | undefined) {
  if (file) fs.rmSync(file.tempPath, { force: true });
}

/**
 * Reads a multipart/form-data request as it arrives: text fields (few and short) into memory, the
 * one file straight to a temporary file while counting its bytes and hashing it. A body announced
 * as too large is refused before a byte is read; one that turns out too large is cut off at the
 * limit (413). The file's type is then sniffed from its first bytes (415 unless PDF or image, or
 * with `text`, plain text such as a CSV).
 * The caller has already checked the user's permission.
 */
export async function receiveUpload(
  request: Request,
  { maxBytes, maxMb, text = false }: { maxBytes: number; maxMb: number; text?: boolean },
): Promise<ReceivedUpload> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new UploadError(UPLOAD_MESSAGES.encoding, 415);
  const announced = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(announced) && announced > maxBytes + FORM_OVERHEAD) throw new UploadError(UPLOAD_MESSAGES.size(maxMb), 413);
  if (!request.body) throw new UploadError(UPLOAD_MESSAGES.missing, 400);
  ensureDir();

  let parser: Busboy.Busboy;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 4 * 1024, parts: 22, headerPairs: 20 },
      defParamCharset: "utf8",
    });
  } catch {
    throw new UploadError(UPLOAD_MESSAGES.malformed, 400);
  }

  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  let written: Promise<void> | null = null;
  let failure: UploadError | null = null;
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>);

  const done = new Promise<void>((resolve, reject) => {
    const fail = (error: UploadError) => {
      failure ??= error;
      body.unpipe(parser);
      body.destroy();
      reject(failure);
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(new UploadError("Um dos campos do formulário é longo demais.", 400));
      fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || file) {
        stream.resume();
        return;
      }
      const tempPath = tempName();
      const hash = createHash("sha256");
      const head: Buffer[] = [];
      let headBytes = 0;
      let size = 0;
      const out = fs.createWriteStream(tempPath, { flags: "wx", mode: 0o600 });
      const received: ReceivedFile = { tempPath, originalName: cleanFileName(info.filename), mimeType: "", sizeBytes: 0, sha256: "" };
      file = received;
      written = new Promise<void>((resolveFile, rejectFile) => {
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          hash.update(chunk);
          if (headBytes < SNIFF_BYTES) {
            head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
            headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
          }
        });
        stream.on("limit", () => {
          stream.unpipe(out);
          stream.resume();
          // Removed once closed, so a late open cannot leave it behind.
          out.on("close", () => fs.rmSync(tempPath, { force: true }));
          out.destroy();
          fail(new UploadError(UPLOAD_MESSAGES.size(maxMb), 413));
        });
        stream.on("error", () => rejectFile(new UploadError(UPLOAD_MESSAGES.malformed, 400)));
        out.on("error", rejectFile);
        out.on("finish", () => {
          // Durable before it is renamed into place.
          const fd = fs.openSync(tempPath, "r");
          try {
            fs.fsyncSync(fd);
          } finally {
            fs.closeSync(fd);
          }
          received.sizeBytes = size;
          received.sha256 = hash.digest("hex");
          received.mimeType = "";
          const first = Buffer.concat(head);
          sniff(first).then((type) => {
            received.mimeType = type ?? (text && looksLikeText(first) ? "text/csv" : "");
            resolveFile();
          }, rejectFile);
        });
        stream.pipe(out);
      });
      // Awaited only when the whole form arrived; a refusal before that must not go unhandled.
      written.catch(() => undefined);
    });
    parser.on("partsLimit", () => fail(new UploadError("O formulário tem campos demais.", 400)));
    parser.on("fieldsLimit", () => fail(new UploadError("O formulário tem campos demais.", 400)));
    parser.on("filesLimit", () => fail(new UploadError("Envie um arquivo por vez.", 400)));
    parser.on("error", () => fail(new UploadError(UPLOAD_MESSAGES.malformed, 400)));
    parser.on("close", () => resolve());
    body.on("error", () => fail(failure ?? new UploadError(UPLOAD_MESSAGES.malformed, 400)));
    body.pipe(parser);
  });

  try {
    await done;
    if (written) await written;
  } catch (error) {
    discardUpload(file);
    if (error instanceof UploadError) throw error;
    throw new UploadError(UPLOAD_MESSAGES.malformed, 400);
  }
  const received = file as ReceivedFile | null;
  if (!received || received.sizeBytes === 0) {
    discardUpload(received);
    return { fields, file: null };
  }
  if (!received.mimeType) {
    discardUpload(received);
    throw new UploadError(UPLOAD_MESSAGES.type, 415);
  }
  return { fields, file: received };
}

/**
 * With `text` (a fee statement CSV): first bytes without a NUL or other binary control byte are
 * taken as text. The caller parses it; it is never served as anything but an attachment.
 */
function looksLikeText(head: Uint8Array): boolean {
  // eslint-disable-next-line no-control-regex
  return head.length > 0 && !/[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/.test(Buffer.from(head).toString("latin1"));
}

/** file-type, imported by the first upload (./on-first-use.ts). */
const fileType = onFirstImport(() => import("file-type"));

/** The file's type from its first bytes, when it is one we keep. */
export async function sniff(head: Uint8Array): Promise<string | null> {
  const type = await (await fileType()).fileTypeFromBuffer(head);
  if (type && Object.hasOwn(ALLOWED_TYPES, type.mime)) return type.mime;
  return null;
}

/** A fresh opaque name for a stored file (no extension, nothing of the patient or the upload). */
export function newStorageName(): string {
  return randomBytes(16).toString("hex");
}

export function storedPath(storageName: string): string {
  if (!/^[0-9a-f]{32}$/.test(storageName)) throw new Error("Invalid storage name");
  return path.join(documentsDir, storageName);
}

/** Moves a received file to its stored name: a rename in one directory, so it is there whole or not at all. */
export function keepUpload(file: ReceivedFile, storageName: string) {
  const target = storedPath(storageName);
  fs.renameSync(file.tempPath, target);
  fs.chmodSync(target, 0o600);
  try {
    const dir = fs.openSync(documentsDir, "r");
    try {
      fs.fsyncSync(dir);
    } finally {
      fs.closeSync(dir);
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename itself is still atomic.
  }
}

export function removeStored(storageName: string) {
  fs.rmSync(storedPath(storageName), { force: true });
}

export type StoredCheck = { ok: true; path: string } | { ok: false; reason: "missing" | "corrupt" };

/** Whether the stored bytes are still the ones that were uploaded (size and SHA-256), read as a stream. */
export async function verifyStored(storageName: string, expected: { sizeBytes: number; sha256: string }): Promise<StoredCheck> {
  const file = storedPath(storageName);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return { ok: false, reason: "missing" };
  }
  if (!stat.isFile()) return { ok: false, reason: "missing" };
  if (stat.size !== expected.sizeBytes) return { ok: false, reason: "corrupt" };
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex") === expected.sha256 ? { ok: true, path: file } : { ok: false, reason: "corrupt" };
}

/** The stored file as a web stream, for a download Response. */
export function storedStream(filePath: string): ReadableStream<Uint8Array> {
  return Readable.toWeb(fs.createReadStream(filePath)) as ReadableStream<Uint8Array>;
}

/** `filename*` per RFC 6266/5987, with a plain ASCII fallback for old clients. */
function contentDisposition(name: string) {
  const ascii = name.normalize("NFD").replace(/[^\x20-\x7e]/g, "").replace(/["\\;]/g, "_") || "documento";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A stored file's download headers: always an attachment with its sniffed type and `nosniff`, so
 * no browser renders it as a page.
 */
export function attachmentHeaders(file: { originalName: string; mimeType: string; sizeBytes: number }): HeadersInit {
  return {
    "Content-Type": file.mimeType,
    "Content-Length": String(file.sizeBytes),
    "Content-Disposition": contentDisposition(file.originalName),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cache-Control": "private, no-store",
  };
}
