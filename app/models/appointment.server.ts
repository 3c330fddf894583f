import { and, asc, desc, eq, gt, lt, ne } from "drizzle-orm";
import { appointmentSearchKeys, appointments, doctors, patients } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { type Tx, db } from "~/.server/db";
import { appointmentSearchKey, ownTextKey } from "~/.server/search-keys";
import { DomainError } from "~/.server/domain-error";
import { enqueueCalendarPush } from "~/.server/google-calendar-outbox";
import { isForeignKeyViolation } from "~/.server/sql-errors";
import { formatDate, formatDateTime, formatTime, isSameDayInClinic } from "~/lib/dates";
import { type KeysetOrder, keysetPage, pageUntilWrite } from "~/.server/pagination";
import { PAGE_SIZE, type ListParams } from "~/lib/list-params";
import type { AppointmentFilters, AppointmentSort } from "~/lib/lists";
import { likeWord } from "~/.server/search-sql";
import { type AppointmentInput, MAX_APPOINTMENT_HOURS } from "~/validation/appointment";
import { type WordSearchTable, fewOwnKeys, planWordSearch, rowSearch, searchedTables, wordSearchLocate, wordSearchPage } from "./word-search.server";

export { APPOINTMENT_LIST, APPOINTMENT_SORTS } from "~/lib/lists";

/** A rule of the domain the user can fix (double booking, unknown patient …), tied to a field when it has one. */
export class AppointmentError extends DomainError<keyof AppointmentInput & string> {}

const HOUR_MS = 3_600_000;
/**
 * How far before a new appointment's start the clash check looks for ones that began earlier.
 * Twice the longest appointment the form accepts, so the `(doctor_id, start_time)` index range stays
 * one or two days wide while still catching any appointment that runs into the new one.
 */
const CLASH_LOOKBACK_MS = 2 * MAX_APPOINTMENT_HOURS * HOUR_MS;

/** The appointments' own-text keys (appointment_search_keys), sought in `appointments_search_text_idx`. */
const OWN_KEYS = fewOwnKeys(appointmentSearchKeys, appointments.searchText, "appointments_search_text_idx");

/**
 * Search over patient name (and CPF, e-mail, phone), doctor name, type and location, accent- and
 * case-insensitive, driven by its words' own matches (./word-search.server.ts). The own text's
 * distinct keys are few (types and locations repeat): a word tests each key once in
 * appointment_search_keys and seeks the matching ones in `appointments_search_text_idx`.
 */
export const APPOINTMENT_SEARCH: WordSearchTable = {
  table: appointments,
  versioned: "appointments",
  id: appointments.id,
  patientId: appointments.patientId,
  patientIndex: "patients_search",
  doctorId: appointments.doctorId,
  storedKey: appointments.searchText,
  ownHolds: (word) => likeWord(ownTextKey.appointments, word),
  ownIndexed: (word) => {
    const rows = OWN_KEYS.rows(word);
    return rows ? [rows] : [];
  },
  indexes: { patient: "appointments_patient_start_idx", doctor: "appointments_kpi_doctor_start_idx", own: "appointments_search_text_idx", unkeyed: "appointments_search_text_idx" },
  rareShortWordDrives: true,
  ownPairs: true,
  order: appointments.startTime,
  // Keys grouped by the words they hold, each group sought in `appointments_search_text_idx`
  // (with its doctors); the keys that hold none, by exclusion.
  ownClasses: (words) => OWN_KEYS.classes(words),
};

function appointmentFilters(filters: AppointmentFilters) {
  return and(
    filters.status ? eq(appointments.status, filters.status) : undefined,
    filters.doctorId ? eq(appointments.doctorId, filters.doctorId) : undefined,
  );
}

/** The index that holds a filter's appointments in time order, named for its pages' walk, as the surgeries' is (`surgeryFilterIndex`). */
function appointmentFilterIndex(filters: AppointmentFilters): string | undefined {
  if (filters.doctorId) return "appointments_doctor_start_idx";
  if (filters.status) return "appointments_status_start_idx";
  return undefined;
}

const APPOINTMENT_EXPORT_FIELDS = {
  startTime: appointments.startTime,
  endTime: appointments.endTime,
  patientName: patients.name,
  doctorName: doctors.name,
  type: appointments.type,
  location: appointments.location,
  status: appointments.status,
  notes: appointments.notes,
};

/** Every appointment the list's search and filters match, in the list's order (not paged: streamed). */
export function appointmentExport({ q, dir }: Omit<ListParams<AppointmentSort>, "page">, filters: AppointmentFilters) {
  const direction = dir === "asc" ? asc : desc;
  const query = db
    .select(APPOINTMENT_EXPORT_FIELDS)
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(doctors, eq(doctors.id, appointments.doctorId))
    .where(and(rowSearch(APPOINTMENT_SEARCH, q), appointmentFilters(filters)))
    .orderBy(direction(appointments.startTime), direction(appointments.id));
  return { fields: APPOINTMENT_EXPORT_FIELDS, query };
}

/** The appointments list, a page kept until the appointments, patients or doctors are written (`pageUntilWrite`). */
export function listAppointments(state: ListParams<AppointmentSort>, filters: AppointmentFilters = {}) {
  return pageUntilWrite("appointments", [state, filters], () => readAppointments(state, filters), searchedTables(APPOINTMENT_SEARCH));
}

function readAppointments(state: ListParams<AppointmentSort>, filters: AppointmentFilters) {
  // The count needs no join: the search reaches patients and doctors through subqueries.
  const search = planWordSearch(APPOINTMENT_SEARCH, state.q, appointmentFilters(filters), { filterIndex: appointmentFilterIndex(filters) });
  const order: KeysetOrder = { key: APPOINTMENT_SEARCH.order, id: appointments.id, dir: state.dir };
  const page = keysetPage(state, order, (position, orderBy, limit, offset, ahead, cursor) => {
    const source = wordSearchPage(APPOINTMENT_SEARCH, search, order, { position, cursor, ahead, limit, offset });
    return db
      .select({
        id: appointments.id,
        cursorKey: appointments.startTime,
        startTime: appointments.startTime,
        endTime: appointments.endTime,
        status: appointments.status,
        type: appointments.type,
        location: appointments.location,
        patientId: appointments.patientId,
        patientName: patients.name,
        doctorId: appointments.doctorId,
        doctorName: doctors.name,
      })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .innerJoin(doctors, eq(doctors.id, appointments.doctorId))
      .where(source.where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(source.offset)
      .all();
  }, search.totalCapped ? null : search.total, wordSearchLocate(APPOINTMENT_SEARCH, search, order));
  return { ...page, total: search.total, totalCapped: search.totalCapped, pageSize: PAGE_SIZE };
}

export function getAppointment(id: number) {
  return db.select().from(appointments).where(eq(appointments.id, id)).get() ?? null;
}

/** What the delete confirmation names: who, with whom, when. */
export function getAppointmentSummary(id: number) {
  return (
    db
      .select({
        id: appointments.id,
        startTime: appointments.startTime,
        endTime: appointments.endTime,
        patientName: patients.name,
        doctorName: doctors.name,
      })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .innerJoin(doctors, eq(doctors.id, appointments.doctorId))
      .where(eq(appointments.id, id))
      .get() ?? null
  );
}

/** "das 14:00 às 14:30 de 22/11/2026", or both full dates when it runs past midnight. */
export function describeSlot(start: Date, end: Date): string {
  return isSameDayInClinic(start, end)
    ? `das ${formatTime(start)} às ${formatTime(end)} de ${formatDate(start)}`
    : `de ${formatDateTime(start)} a ${formatDateTime(end)}`;
}

/**
 * The first other live (not cancelled) appointment of the same doctor or patient overlapping
 * [start, end). Touching intervals (one ends at 14:30, the next starts at 14:30) do not overlap.
 */
function findClash(tx: Tx, who: "doctor" | "patient", input: AppointmentInput, exceptId?: number) {
  const column = who === "doctor" ? appointments.doctorId : appointments.patientId;
  return tx
    .select({
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      patientName: patients.name,
      doctorName: doctors.name,
    })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(doctors, eq(doctors.id, appointments.doctorId))
    .where(
      and(
        eq(column, who === "doctor" ? input.doctorId : input.patientId),
        // Lower bound only narrows the index range; durations are capped well below it.
        gt(appointments.startTime, new Date(input.startTime.getTime() - CLASH_LOOKBACK_MS)),
        lt(appointments.startTime, input.endTime),
        gt(appointments.endTime, input.startTime),
        ne(appointments.status, "cancelled"),
        exceptId ? ne(appointments.id, exceptId) : undefined,
      ),
    )
    .orderBy(asc(appointments.startTime))
    .limit(1)
    .get();
}

/**
 * The checks that need the database, run inside the write's transaction: the patient and doctor
 * exist, and neither is already booked at that time (a cancelled appointment never clashes).
 */
function assertBookable(tx: Tx, input: AppointmentInput, before?: { id: number; doctorId: number }) {
  const patient = tx.select({ id: patients.id }).from(patients).where(eq(patients.id, input.patientId)).get();
  if (!patient) throw new AppointmentError("Paciente não encontrado. Busque e selecione o paciente novamente.", "patientId");
  const doctor = tx.select({ id: doctors.id, active: doctors.active }).from(doctors).where(eq(doctors.id, input.doctorId)).get();
  if (!doctor) throw new AppointmentError("Médico não encontrado. Busque e selecione o médico novamente.", "doctorId");
  // A doctor made inactive keeps the appointments they had, but gets no new ones.
  if (!doctor.active && before?.doctorId !== doctor.id) {
    throw new AppointmentError("Este médico está inativo e não recebe novas consultas.", "doctorId");
  }

  if (input.status === "cancelled") return;
  const doctorClash = findClash(tx, "doctor", input, before?.id);
  if (doctorClash) {
    throw new AppointmentError(
      `${doctorClash.doctorName} já tem consulta ${describeSlot(doctorClash.startTime, doctorClash.endTime)} com ${doctorClash.patientName}.`,
      "startTime",
    );
  }
  const patientClash = findClash(tx, "patient", input, before?.id);
  if (patientClash) {
    throw new AppointmentError(
      `O paciente já tem consulta ${describeSlot(patientClash.startTime, patientClash.endTime)} com ${patientClash.doctorName}.`,
      "startTime",
    );
  }
}

function rethrowMissingReference(error: unknown): never {
  // Only if a patient or doctor vanished between the check and the insert by a path that skips it.
  if (isForeignKeyViolation(error)) throw new AppointmentError("Paciente ou médico não encontrado. Selecione-os novamente.");
  throw error;
}

/*
 * Check and write run in one IMMEDIATE transaction: it takes SQLite's write lock at BEGIN, so a
 * second save of the same slot (another request, another process) waits for this one to commit and
 * then sees its row, instead of both passing the check before either inserts.
 */

export function createAppointment(userId: number, input: AppointmentInput): number {
  try {
    return db.transaction(
      (tx) => {
        assertBookable(tx, input);
        const row = tx
          .insert(appointments)
          .values({ ...input, createdBy: userId, searchText: appointmentSearchKey(input) })
          .returning({ id: appointments.id })
          .get();
        recordAudit(tx, { userId, action: "create", entity: "appointment", entityId: row.id, changes: input });
        enqueueCalendarPush(tx, "appointment", row.id);
        return row.id;
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    rethrowMissingReference(error);
  }
}

export function updateAppointment(userId: number, id: number, input: AppointmentInput) {
  try {
    db.transaction(
      (tx) => {
        const before = tx.select().from(appointments).where(eq(appointments.id, id)).get();
        if (!before) throw new AppointmentError("Consulta não encontrada. Ela pode ter sido excluída.");
        assertBookable(tx, input, before);
        tx.update(appointments).set({ ...input, searchText: appointmentSearchKey(input) }).where(eq(appointments.id, id)).run();
        recordAudit(tx, { userId, action: "update", entity: "appointment", entityId: id, changes: diffChanges(before, input) });
        enqueueCalendarPush(tx, "appointment", id);
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    rethrowMissingReference(error);
  }
}

export function deleteAppointment(userId: number, id: number) {
  db.transaction((tx) => {
    const before = tx.select().from(appointments).where(eq(appointments.id, id)).get();
    if (!before) throw new AppointmentError("Consulta não encontrada. Ela pode já ter sido excluída.");
    tx.delete(appointments).where(eq(appointments.id, id)).run();
    recordAudit(tx, { userId, action: "delete", entity: "appointment", entityId: id, changes: before });
    enqueueCalendarPush(tx, "appointment", id);
  });
}
