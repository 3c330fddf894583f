import { eq, sql } from "drizzle-orm";
import { patientReferrals, patients, referrers } from "~db/schema";
import { writeCache } from "~/.server/data-cache";
import { db, prepared, preparedQuery } from "~/.server/db";
import { patientConsentStates } from "~/.server/lgpd-consents";
import { sentAsJson } from "~/.server/sent-as-json";
import { PAGE_SIZE } from "~/lib/list-params";
import { recentPatientDocuments } from "~/models/document.server";

/**
 * The patient's page (/patients/:id): the record itself and a timeline of everything that
 * happened to the patient, newest first, read a page at a time through each table's
 * (patient_id, time) index, so a patient with thousands of events costs what one with ten does.
 */

export const TIMELINE_KINDS = ["appointment", "surgery", "message", "task", "document"] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export interface TimelineItem {
  kind: TimelineKind;
  id: number;
  /** Epoch milliseconds: the appointment's start, the surgery's date, or when the row was created. */
  at: number;
  title: string;
  detail: string | null;
  /** Status (appointments, messages, tasks), pipeline stage (surgeries) or category (documents). */
  state: string | null;
}

/** A place in the timeline's order (time, kind, id), as it travels in `?ate=`. */
export type TimelineCursor = readonly [at: number, rank: number, id: number];

/**
 * Each kind's rank breaks ties between events at the same instant. Every branch reads its own
 * index from the cursor on and stops after a page; the union of five short lists is then merged.
 */
const BRANCHES: Record<TimelineKind, { rank: number; sql: string }> = {
  appointment: {
    rank: 5,
    sql: `select 'appointment' as kind, 5 as rank, a.id, a.start_time as at, a.type as title, d.name as detail, a.status as state
          from appointments a join doctors d on d.id = a.doctor_id
          where a.patient_id = @patient and a.start_time <= @at and (a.start_time < @at or 5 < @rank or (5 = @rank and a.id < @id))
          order by a.start_time desc, a.id desc limit @limit`,
  },
  surgery: {
    rank: 4,
    sql: `select 'surgery' as kind, 4 as rank, s.id, s.scheduled_date as at, s.surgery_type as title,
                 d.name || coalesce(' · ' || s.hospital, '') as detail, s.current_stage as state
          from surgeries s join doctors d on d.id = s.doctor_id
          where s.patient_id = @patient and s.scheduled_date <= @at and (s.scheduled_date < @at or 4 < @rank or (4 = @rank and s.id < @id))
          order by s.scheduled_date desc, s.id desc limit @limit`,
  },
  message: {
    rank: 3,
    sql: `select 'message' as kind, 3 as rank, m.id, m.created_at as at, coalesce(m.template_title, 'Mensagem') as title,
                 substr(m.body, 1, 200) as detail, m.status as state
          from messages m
          where m.patient_id = @patient and m.created_at <= @at and (m.created_at < @at or 3 < @rank or (3 = @rank and m.id < @id))
          order by m.created_at desc, m.id desc limit @limit`,
  },
  task: {
    rank: 2,
    sql: `select 'task' as kind, 2 as rank, t.id, t.created_at as at, t.title, t.due_date as detail, t.status as state
          from tasks t
          where t.patient_id = @patient and t.created_at <= @at and (t.created_at < @at or 2 < @rank or (2 = @rank and t.id < @id))
          order by t.created_at desc, t.id desc limit @limit`,
  },
  document: {
    rank: 1,
    sql: `select 'document' as kind, 1 as rank, f.id, f.created_at as at, f.original_name as title, f.note as detail, f.category as state
          from documents f
          where f.patient_id = @patient and f.created_at <= @at and (f.created_at < @at or 1 < @rank or (1 = @rank and f.id < @id))
          order by f.created_at desc, f.id desc limit @limit`,
  },
};

/** The timeline of the given kinds: their branches' union, merged. */
const timelineSql = (kinds: readonly TimelineKind[]) => `${kinds.map((kind) => `select * from (${BRANCHES[kind].sql})`).join("\nunion all\n")}
order by at desc, rank desc, id desc limit @limit`;

export const TIMELINE_SQL = timelineSql(TIMELINE_KINDS);

/** From the very top: later than any event (the largest instant SQLite stores as an integer). */
const TOP: TimelineCursor = [Number.MAX_SAFE_INTEGER, 99, 0];

/**
 * One page of the patient's timeline after `cursor` (from the top without one), and the next page's
 * cursor. `kinds`: the kinds the patient has any of (`timelineCounts`), when known; a branch that
 * finds nothing still costs 10–20 µs, and most patients have one or two kinds.
 */
export function patientTimeline(patientId: number, cursor: TimelineCursor | null, pageSize = PAGE_SIZE, kinds: readonly TimelineKind[] = TIMELINE_KINDS) {
  if (kinds.length === 0) return { items: [], next: null };
  const [at, rank, id] = cursor ?? TOP;
  const rows = prepared(kinds.length === TIMELINE_KINDS.length ? TIMELINE_SQL : timelineSql(kinds)).all({ patient: patientId, at, rank, id, limit: pageSize + 1 }) as (TimelineItem & { rank: number })[];
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    items: page.map(({ rank: _rank, ...item }) => item),
    next: rows.length > pageSize && last ? formatTimelineCursor([last.at, last.rank, last.id]) : null,
  };
}

export function formatTimelineCursor(cursor: TimelineCursor): string {
  return cursor.join(".");
}

/** `?ate=` back into a cursor, or null for anything else (never throws). */
export function parseTimelineCursor(raw: string | null | undefined): TimelineCursor | null {
  if (!raw || raw.length > 60) return null;
  const match = /^(-?\d{1,16})\.(\d{1,2})\.(\d{1,15})$/.exec(raw);
  if (!match) return null;
  const [at, rank, id] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return Number.isSafeInteger(at) && Number.isSafeInteger(id) ? [at, rank, id] : null;
}

const TIMELINE_COUNTS_SQL = `select (select count(*) from appointments where patient_id = @p) as appointment,
  (select count(*) from surgeries where patient_id = @p) as surgery,
  (select count(*) from messages where patient_id = @p) as message,
  (select count(*) from tasks where patient_id = @p) as task,
  (select count(*) from documents where patient_id = @p) as document`;

/** How many of each kind the patient has (each an index range count). */
export function timelineCounts(patientId: number): Record<TimelineKind, number> {
  return prepared(TIMELINE_COUNTS_SQL).get({ p: patientId }) as Record<TimelineKind, number>;
}

/**
 * Everything the record's page reads about the patient (the record, the timeline's counts and page
 * after `cursor`, the latest documents and the consents), or null for an unknown patient. Kept
 * until the next write, as a list's page is (`pageUntilWrite`): a record opened again between two
 * changes, or returned to from an appointment, is not read again. The view's own audit entry is
 * written without a new version, so it does not end what is kept. Callers must not modify it.
 */
export function patientRecordView(patientId: number, cursor: TimelineCursor | null) {
  return recordsUntilWrite(`${patientId}|${cursor ? formatTimelineCursor(cursor) : ""}`, () => {
    const patient = getPatientRecord(patientId);
    if (!patient) return null;
    const counts = timelineCounts(patientId);
    const timeline = patientTimeline(patientId, cursor, PAGE_SIZE, TIMELINE_KINDS.filter((kind) => counts[kind] > 0));
    return {
      patient,
      counts,
      // Its events go to the browser as JSON made once, kept with the rest (app/.server/sent-as-json.ts).
      timeline: { items: sentAsJson(timeline.items), next: timeline.next },
      documents: recentPatientDocuments(patientId),
      consents: patientConsentStates(patientId),
    };
  });
}
/** A store of its own: its keys come from the addresses users open. */
const recordsUntilWrite = writeCache(64);

/** The record's header: identification, contact, insurer, referrer, consent, and when it was anonymised (LGPD). */
export function getPatientRecord(id: number) {
  return patientRecordQuery().get({ id }) ?? null;
}

const patientRecordQuery = preparedQuery(() =>
  db
    .select({
      id: patients.id,
      name: patients.name,
      cpf: patients.cpf,
      dateOfBirth: patients.dateOfBirth,
      phone: patients.phone,
      email: patients.email,
      address: patients.address,
      insurance: patients.insurance,
      insuranceCardNumber: patients.insuranceCardNumber,
      medicalHistory: patients.medicalHistory,
      whatsappOptIn: patients.whatsappOptIn,
      whatsappOptInAt: patients.whatsappOptInAt,
      referrerName: referrers.name,
      createdAt: patients.createdAt,
      updatedAt: patients.updatedAt,
      anonymizedAt: patients.anonymizedAt,
    })
    .from(patients)
    .leftJoin(patientReferrals, eq(patientReferrals.patientId, patients.id))
    .leftJoin(referrers, eq(referrers.id, patientReferrals.referrerId))
    .where(eq(patients.id, sql.placeholder("id")))
    .prepare(),
);
