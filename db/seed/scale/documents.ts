import type Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { documentSearchText } from "../../../app/models/document.server";
import type { DocumentCategory } from "../../../app/lib/enums";
import type { Random } from "../random";
import { DAY, HOUR, isoDay, MINUTE } from "../time";
import type { Batch, SeededRows } from "./batch";
import { WeightedTable } from "./names";

/** Share of completed visits after which the office kept an exam the patient brought. */
export const EXAM_SHARE = 0.25;
/** Share of surgeries whose imaging report (laudo) was kept with them. */
export const REPORT_SHARE = 0.5;

interface FileKind {
  /** The uploaded file's name; `at` is when it was uploaded (a phone photo is named by its time). */
  name: (at: number) => string;
  note: string | null;
  mimeType: "application/pdf" | "image/jpeg";
}

const pdf = (name: string, note: string | null = null): FileKind => ({ name: () => name, note, mimeType: "application/pdf" });

/** A photo taken with a phone camera: named by the moment it was taken, as the camera names it. */
const photo = (note: string | null): FileKind => ({
  name: (at) => {
    const t = new Date(at - 3 * HOUR).toISOString();
    return `IMG_${t.slice(0, 10).replaceAll("-", "")}_${t.slice(11, 19).replaceAll(":", "")}.jpg`;
  },
  note,
  mimeType: "image/jpeg",
});

/** What patients bring to a visit, by weight: spine and brain imaging first, then tests, some photographed on a phone. */
const EXAMS = new WeightedTable<FileKind>([
  [pdf("RM coluna lombar.pdf"), 18],
  [pdf("RM coluna cervical.pdf"), 10],
  [pdf("rm_coluna_toracica.pdf"), 3],
  [pdf("RM de crânio.pdf"), 8],
  [pdf("TC de crânio.pdf"), 5],
  [pdf("TC coluna lombar.pdf"), 4],
  [pdf("Raio-X coluna total.pdf", "Panorâmica em pé"), 6],
  [pdf("Eletroneuromiografia MMII.pdf"), 6],
  [pdf("Densitometria óssea.pdf"), 3],
  [pdf("Exames laboratoriais.pdf", "Pré-operatório"), 5],
  [pdf("Laudo RM.pdf", "Laudo do radiologista"), 6],
  [pdf("Relatório do fisioterapeuta.pdf"), 3],
  [photo("Foto do exame trazido pelo paciente"), 8],
  [photo(null), 5],
]);

/** Other papers filed after a visit: a referral letter, a certificate. */
const OTHERS = new WeightedTable<FileKind>([
  [pdf("Carta de encaminhamento.pdf"), 5],
  [pdf("Atestado.pdf"), 3],
  [pdf("Documento de identidade.pdf", "RG e CPF"), 2],
  [photo("Carteirinha do convênio"), 2],
]);

const REPORTS = new WeightedTable<FileKind>([
  [pdf("Laudo RM coluna.pdf", "Laudo do radiologista"), 6],
  [pdf("Laudo TC.pdf", "Laudo do radiologista"), 2],
  [pdf("Relatório médico.pdf", "Justificativa para o convênio"), 3],
]);

const CONSENT: FileKind = pdf("Termo de consentimento assinado.pdf");

interface Visit {
  patientId: number;
  start: number;
}
interface Surgery {
  id: number;
  patientId: number;
  createdAt: number;
  scheduledDate: number;
  status: string;
  guideNumber: string | null;
}

/** A seeded table's rows in id order, read a chunk at a time (no statement stays open while others write). */
function* inChunks<T>(conn: Database.Database, sql: string, { base, count }: { base: number; count: number }, size = 5_000): Generator<T> {
  const chunk = conn.prepare(sql);
  for (let from = base + 1; from <= base + count; from += size) yield* chunk.all(from, Math.min(from + size - 1, base + count)) as T[];
}

/**
 * The patients' documents over the practice's years, as the office files them: for each surgery
 * its authorisation guide, its signed consent form (days before a surgery that went ahead) and, for
 * about half, the imaging report that justified it; after one completed visit in four, an exam the
 * patient brought (some photographed on a phone), and now and then a referral letter or a
 * certificate. Uploaded by the admin, in time order (visits and surgeries merged by date), so ids
 * grow with time as the app's do. No file is written: a download finds none and says so. The
 * documents' indexes and the search index (migration 0050's triggers) see them as any upload. Its
 * own random stream; returns how many it wrote.
 */
export function writeDocuments(env: { conn: Database.Database; batch: Batch; random: Random; nowMs: number; adminId: number; rows: SeededRows }): number {
  const { conn, batch, random, nowMs, adminId, rows } = env;
  const insert = conn.prepare(
    `INSERT INTO documents (patient_id, surgery_id, category, note, original_name, mime_type, size_bytes, sha256, storage_name, uploaded_by, search_text, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let written = 0;
  const add = (patientId: number, surgeryId: number | null, category: DocumentCategory, kind: FileKind, at: number) => {
    if (at > nowMs) return;
    const name = kind.name(at);
    written++;
    // Random names as the app's (32 hex digits), here from the build's count so they are the same on every run.
    const storageName = createHash("sha256").update(`sinapse-scale-document:${written}`).digest("hex").slice(0, 32);
    const sha256 = createHash("sha256").update(storageName).digest("hex");
    const size = kind.mimeType === "image/jpeg" ? random.int(900_000, 4_500_000) : random.int(60_000, 3_000_000);
    insert.run(patientId, surgeryId, category, kind.note, name, kind.mimeType, size, sha256, storageName, adminId, documentSearchText(name, kind.note), at, at);
    batch.written(1);
  };

  const visits = inChunks<Visit>(
    conn,
    "SELECT patient_id AS patientId, start_time AS start FROM appointments WHERE id BETWEEN ? AND ? AND status = 'completed' ORDER BY id",
    rows.appointments,
  );
  const operations = inChunks<Surgery>(
    conn,
    `SELECT id, patient_id AS patientId, created_at AS createdAt, scheduled_date AS scheduledDate, status, guide_number AS guideNumber
     FROM surgeries WHERE id BETWEEN ? AND ? ORDER BY id`,
    rows.surgeries,
  );
  let visit = visits.next();
  let surgery = operations.next();
  while (!visit.done || !surgery.done) {
    if (surgery.done || (!visit.done && visit.value.start <= surgery.value.createdAt)) {
      const { patientId, start } = visit.value;
      const at = start + random.int(5, 50) * MINUTE;
      if (random.chance(EXAM_SHARE)) add(patientId, null, "exame", EXAMS.at(random.next()), at);
      if (random.chance(0.03)) add(patientId, null, "outros", OTHERS.at(random.next()), at + random.int(1, 30) * MINUTE);
      visit = visits.next();
    } else {
      const { id, patientId, createdAt, scheduledDate, status, guideNumber } = surgery.value;
      if (random.chance(REPORT_SHARE)) add(patientId, id, "laudo", REPORTS.at(random.next()), createdAt + random.int(5, 120) * MINUTE);
      const guideAt = createdAt + random.int(1, 48) * HOUR;
      const guide = guideNumber ? `Guia SP-SADT ${guideNumber}.pdf` : `Guia de solicitação de internação ${isoDay(guideAt)}.pdf`;
      add(patientId, id, "guia", pdf(guide), guideAt);
      if (status !== "cancelled") add(patientId, id, "termo_consentimento", CONSENT, Math.max(guideAt + HOUR, scheduledDate - random.int(1, 10) * DAY));
      surgery = operations.next();
    }
  }
  return written;
}
