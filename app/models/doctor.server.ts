import { type SQL, and, asc, count, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { appointments, doctors, surgeries, surgeryFeeLines } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { type DB, type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { isForeignKeyViolation } from "~/.server/sql-errors";
import { PAGE_SIZE, type ListParams, offsetOf } from "~/lib/list-params";
import type { DoctorSort } from "~/lib/lists";
import { buildSearchText } from "~/lib/search";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import { type DoctorInput, formatCrm } from "~/validation/doctor";

export { DOCTOR_LIST, DOCTOR_SORTS } from "~/lib/lists";

/** A rule of the domain the user can fix (CRM already registered, doctor still referenced …). */
export class DoctorError extends DomainError<keyof DoctorInput & string> {}

/** Name first, so ordering by the key sorts "Álvaro" with the A's. */
export function doctorSearchText(d: Pick<DoctorInput, "name" | "specialty" | "crm" | "crmUf" | "email" | "phone">) {
  return buildSearchText(d.name, d.specialty, d.crm, d.email, d.phone, d.crmUf ? formatCrm(d.crm, d.crmUf) : null);
}

/** Search over name, specialty, CRM, e-mail and phone, accent- and case-insensitive. */
export function doctorSearch(q: string): SQL | undefined {
  if (!q) return undefined;
  return matchAllWords(q, (word) => likeWord(doctors.searchText, word));
}

function doctorOrder({ sort, dir }: Pick<ListParams<DoctorSort>, "sort" | "dir">) {
  const direction = dir === "asc" ? asc : desc;
  return sort === "specialty"
    ? [direction(sql`${doctors.specialty} collate nocase`), asc(doctors.searchText), asc(doctors.id)]
    : [direction(doctors.searchText), direction(doctors.id)];
}

/** The columns of the list, and of its export. */
const DOCTOR_EXPORT_FIELDS = {
  name: doctors.name,
  specialty: doctors.specialty,
  crm: doctors.crm,
  crmUf: doctors.crmUf,
  phone: doctors.phone,
  email: doctors.email,
  commissionRate: doctors.commissionRate,
  active: doctors.active,
};

/** Every doctor the list's search matches, in the list's order (not paged: streamed). */
export function doctorExport({ q, sort, dir }: Omit<ListParams<DoctorSort>, "page">) {
  const query = db.select(DOCTOR_EXPORT_FIELDS).from(doctors).where(doctorSearch(q)).orderBy(...doctorOrder({ sort, dir }));
  return { fields: DOCTOR_EXPORT_FIELDS, query };
}

export function listDoctors({ q, page, sort, dir }: ListParams<DoctorSort>) {
  const where = doctorSearch(q);
  const order = doctorOrder({ sort, dir });
  const total = db.select({ n: count() }).from(doctors).where(where).get()!.n;
  const rows = db
    .select({ id: doctors.id, ...DOCTOR_EXPORT_FIELDS })
    .from(doctors)
    .where(where)
    .orderBy(...order)
    .limit(PAGE_SIZE)
    .offset(offsetOf(page))
    .all();
  return { rows, total, pageSize: PAGE_SIZE };
}

export function getDoctor(id: number) {
  return db.select().from(doctors).where(eq(doctors.id, id)).get() ?? null;
}

/** Two doctors with the same CRM number in the same UF (or both without one) are the same person. */
function assertCrmFree(input: Pick<DoctorInput, "crm" | "crmUf">, exceptId?: number) {
  const clash = db
    .select({ id: doctors.id, name: doctors.name })
    .from(doctors)
    .where(
      and(
        eq(doctors.crm, input.crm),
        input.crmUf ? eq(doctors.crmUf, input.crmUf) : isNull(doctors.crmUf),
        exceptId ? ne(doctors.id, exceptId) : undefined,
      ),
    )
    .get();
  if (clash) throw new DoctorError(`Este CRM já está cadastrado para ${clash.name}.`, "crm");
}

function values(input: DoctorInput) {
  return { ...input, searchText: doctorSearchText(input) };
}

export function createDoctor(userId: number, input: DoctorInput) {
  assertCrmFree(input);
  return db.transaction((tx) => {
    const row = tx.insert(doctors).values(values(input)).returning({ id: doctors.id }).get();
    recordAudit(tx, { userId, action: "create", entity: "doctor", entityId: row.id, changes: input });
    return row.id;
  });
}

export function updateDoctor(userId: number, id: number, input: DoctorInput) {
  const before = getDoctor(id);
  if (!before) throw new DoctorError("Médico não encontrado.");
  assertCrmFree(input, id);
  db.transaction((tx) => {
    tx.update(doctors).set(values(input)).where(eq(doctors.id, id)).run();
    recordAudit(tx, { userId, action: "update", entity: "doctor", entityId: id, changes: diffChanges(before, input) });
  });
}

export interface DoctorReferences {
  appointments: number;
  surgeries: number;
  feeLines: number;
}

/** What points at a doctor and so keeps them from being deleted (the foreign keys are `restrict`). */
export function doctorReferences(conn: DB | Tx, id: number): DoctorReferences {
  return {
    appointments: conn.select({ n: count() }).from(appointments).where(eq(appointments.doctorId, id)).get()!.n,
    surgeries: conn.select({ n: count() }).from(surgeries).where(eq(surgeries.doctorId, id)).get()!.n,
    feeLines: conn.select({ n: count() }).from(surgeryFeeLines).where(eq(surgeryFeeLines.doctorId, id)).get()!.n,
  };
}

function countOf(n: number, one: string, many: string) {
  return `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;
}

function joinPt(parts: string[]) {
  return parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} e ${parts[parts.length - 1]}`;
}

/** 'Não é possível excluir Dr. X: há 3 consultas e 1 cirurgia ligadas a este médico. Marque-o como inativo.' */
export function deleteRefusal(name: string, refs: DoctorReferences) {
  const parts = [
    refs.appointments ? countOf(refs.appointments, "consulta", "consultas") : null,
    refs.surgeries ? countOf(refs.surgeries, "cirurgia", "cirurgias") : null,
    refs.feeLines ? countOf(refs.feeLines, "linha de honorários", "linhas de honorários") : null,
  ].filter((part): part is string => part !== null);
  const linked = parts.length === 1 && parts[0].startsWith("1 ") ? "ligada" : "ligadas";
  return `Não é possível excluir ${name}: há ${joinPt(parts)} ${linked} a este médico. Marque-o como inativo.`;
}

/** Why this doctor cannot be deleted (shown before the user even tries), or null when they can. */
export function doctorDeleteBlock(doctor: { id: number; name: string }): string | null {
  const refs = doctorReferences(db, doctor.id);
  return refs.appointments + refs.surgeries + refs.feeLines > 0 ? deleteRefusal(doctor.name, refs) : null;
}

/**
 * Deletes a doctor nothing points at. A doctor with appointments, surgeries or fee lines is kept
 * (clinical and financial history needs its author): the user is told to mark them inactive.
 */
export function deleteDoctor(userId: number, id: number) {
  try {
    db.transaction((tx) => {
      const doctor = tx.select().from(doctors).where(eq(doctors.id, id)).get();
      if (!doctor) throw new DoctorError("Médico não encontrado.");
      const refs = doctorReferences(tx, id);
      if (refs.appointments + refs.surgeries + refs.feeLines > 0) throw new DoctorError(deleteRefusal(doctor.name, refs));
      tx.delete(doctors).where(eq(doctors.id, id)).run();
      const { searchText: _omit, ...snapshot } = doctor;
      recordAudit(tx, { userId, action: "delete", entity: "doctor", entityId: id, changes: snapshot });
    });
  } catch (error) {
    // A row added between the count and the delete: the restrict foreign key still refuses it.
    if (isForeignKeyViolation(error)) {
      const name = getDoctor(id)?.name ?? "este médico";
      throw new DoctorError(`Não é possível excluir ${name}: há registros ligados a este médico. Marque-o como inativo.`);
    }
    throw error;
  }
}
