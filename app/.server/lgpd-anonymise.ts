/**
 * Anonymisation of a patient who asked for erasure (LGPD art. 18, IV and VI; docs/decisions/0022-lgpd-rights.md).
 * Identifiers are replaced; the clinical record (Lei 13.787/2018: 20 years) and the financial and
 * tax records are kept. One transaction; audited with the names of the fields replaced.
 */
import { and, eq, inArray } from "drizzle-orm";
import { documents, messages, patients, tasks } from "~db/schema";
import { documentSearchText } from "~/models/document.server";
import { setConsent } from "~/models/message.server";
import { patientSearchText } from "~/models/patient.server";
import { recordAudit } from "./audit";
import { db } from "./db";
import { DomainError } from "./domain-error";

export const ANONYMISED_BODY = "[conteúdo removido na anonimização]";

export function pseudonymFor(patientId: number): string {
  return `Paciente anonimizado nº ${patientId}`;
}

/** Replaces every occurrence of `name` (any case) in `text` by `by`. */
function replaceName(text: string | null, name: string, by: string): string | null {
  if (!text || name.trim().length < 3) return text;
  const pattern = new RegExp(name.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+"), "giu");
  return text.replace(pattern, by);
}

/** The extension of an uploaded name, kept so the file still opens ('.pdf'). */
function extensionOf(name: string): string {
  const match = /\.[a-z0-9]{1,5}$/i.exec(name);
  return match ? match[0].toLowerCase() : "";
}

/** When the patient was anonymised, or null. */
export function anonymisePatient(userId: number, patientId: number) {
  db.transaction((tx) => {
    const patient = tx.select().from(patients).where(eq(patients.id, patientId)).get();
    if (!patient) throw new DomainError("Paciente não encontrado.");
    if (patient.anonymizedAt) throw new DomainError("Este paciente já foi anonimizado.");
    const pseudonym = pseudonymFor(patientId);
    const name = patient.name;

    // WhatsApp consent off through the messaging's own path (logged, source 'cadastro').
    if (patient.whatsappOptIn) setConsent(tx, patientId, false, "cadastro", userId);
    tx.update(patients)
      .set({
        name: pseudonym,
        cpf: null,
        phone: null,
        email: null,
        address: null,
        insuranceCardNumber: null,
        // The year is kept (age bands for statistics); the exact date identifies.
        dateOfBirth: patient.dateOfBirth ? `${patient.dateOfBirth.slice(0, 4)}-01-01` : null,
        searchText: patientSearchText({ name: pseudonym, cpf: null, email: null, phone: null }),
        anonymizedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(patients.id, patientId))
      .run();

    // Messages: the copies of the name and number, and the text (it addressed the patient by name).
    tx.update(messages)
      .set({ status: "failed", error: "Cancelada: paciente anonimizado.", updatedAt: new Date() })
      .where(and(eq(messages.patientId, patientId), eq(messages.status, "queued")))
      .run();
    tx.update(messages)
      .set({ patientName: pseudonym, toPhone: null, body: ANONYMISED_BODY, params: null, updatedAt: new Date() })
      .where(eq(messages.patientId, patientId))
      .run();

    // Tasks and documents: the name inside their free text, and the uploaded file names.
    for (const task of tx.select({ id: tasks.id, title: tasks.title, description: tasks.description }).from(tasks).where(eq(tasks.patientId, patientId)).all()) {
      tx.update(tasks)
        .set({ title: replaceName(task.title, name, pseudonym) ?? task.title, description: replaceName(task.description, name, pseudonym) })
        .where(eq(tasks.id, task.id))
        .run();
    }
    const docs = tx.select({ id: documents.id, originalName: documents.originalName, note: documents.note }).from(documents).where(eq(documents.patientId, patientId)).all();
    for (const doc of docs) {
      const originalName = `documento-${doc.id}${extensionOf(doc.originalName)}`;
      const note = replaceName(doc.note, name, pseudonym);
      tx.update(documents).set({ originalName, note, searchText: documentSearchText(originalName, note) }).where(inArray(documents.id, [doc.id])).run();
    }

    recordAudit(tx, {
      userId,
      action: "update",
      entity: "patient",
      entityId: patientId,
      changes: { anonymizedAt: 1, name: 1, cpf: 1, phone: 1, email: 1, address: 1, insuranceCardNumber: 1, dateOfBirth: 1 },
    });
  });
}
