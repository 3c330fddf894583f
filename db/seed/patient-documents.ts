import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { documentsDir, newStorageName } from "../../app/.server/uploads";
import type { DocumentCategory } from "../../app/lib/enums";
import { buildSearchText } from "../../app/lib/search";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import { insertRows, type SeedContext } from "./context";
import type { PatientPool } from "./patients";
import type { SurgeryBook } from "./surgeries";
import { DAY } from "./time";

/** A one-page PDF whose page shows `lines` (Helvetica), with a correct cross-reference table. */
export function simplePdf(lines: string[]): Buffer {
  // Latin-1 text in a PDF string: escape the delimiters.
  const text = lines
    .map((line, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 56 ${780 - i * 22} Td (${line.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`)
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${Buffer.byteLength(text, "latin1")} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

const EXAMS = ["Ressonância magnética da coluna lombar", "Tomografia de crânio", "Eletroneuromiografia", "Raio-X da coluna cervical", "Ressonância do encéfalo"];

interface DocumentDraft {
  patientIndex: number;
  surgeryId: number | null;
  category: DocumentCategory;
  title: string;
  note: string | null;
  at: number;
}

/**
 * Documents of the demo: exam reports for some patients, and for surgeries in the pipeline their
 * guide (guia) and signed consent (termo). Real PDFs, written to the documents directory under
 * random names with their checksums, as an upload would.
 */
export function seedPatientDocuments(
  { tx, random, nowMs }: SeedContext,
  { officeUsers }: Accounts,
  { patients, patientIds }: PatientPool,
  { surgeryDrafts, surgeryId }: SurgeryBook,
) {
  const drafts: DocumentDraft[] = [];
  for (let i = 0; i < patients.length; i += 1) {
    if (!random.chance(0.25)) continue;
    drafts.push({
      patientIndex: i,
      surgeryId: null,
      category: random.chance(0.6) ? "exame" : "laudo",
      title: random.pick(EXAMS),
      note: random.chance(0.5) ? "Trazido pelo paciente na consulta" : null,
      at: nowMs - random.int(1, 700) * DAY,
    });
  }
  for (const surgery of surgeryDrafts) {
    const id = surgeryId.get(surgery) ?? null;
    if (surgery.stage === "aguarda_docs" || !id) continue;
    const at = Math.min(nowMs - DAY, surgery.moves[0] ?? surgery.start);
    drafts.push({ patientIndex: surgery.patientIndex, surgeryId: id, category: "guia", title: `Guia de solicitação – ${surgery.type.name}`, note: surgery.payer, at });
    if (random.chance(0.7)) {
      drafts.push({ patientIndex: surgery.patientIndex, surgeryId: id, category: "termo_consentimento", title: `Termo de consentimento – ${surgery.type.name}`, note: null, at: at + DAY });
    }
  }

  fs.mkdirSync(documentsDir, { recursive: true, mode: 0o700 });
  const rows = drafts.map((draft) => {
    const patient = patients[draft.patientIndex];
    const content = simplePdf([draft.title, `Paciente: ${patient.name}`, `Data: ${new Date(draft.at).toISOString().slice(0, 10)}`]);
    const storageName = newStorageName();
    fs.writeFileSync(path.join(documentsDir, storageName), content, { mode: 0o600 });
    const originalName = `${draft.title.replace(/[–\s]+/g, " ").trim()}.pdf`;
    return {
      patientId: patientIds[draft.patientIndex],
      surgeryId: draft.surgeryId,
      category: draft.category,
      note: draft.note,
      originalName,
      mimeType: "application/pdf",
      sizeBytes: content.length,
      sha256: createHash("sha256").update(content).digest("hex"),
      storageName,
      uploadedBy: random.pick(officeUsers),
      searchText: buildSearchText(originalName, draft.note),
      createdAt: new Date(draft.at),
      updatedAt: new Date(draft.at),
    };
  });
  insertRows(tx, schema.documents, rows);
}
