/**
 * Appointments and surgeries pushed to Google Calendar (docs/decisions/0020-google-integration.md,
 * "Calendar push"). The writes of the appointment and surgery models enqueue a row in
 * `google_calendar_outbox` in their own transaction; this worker, inside the server process, leases
 * the due rows and makes Google match the record as it is when the row is processed: an event
 * inserted, patched, moved to another calendar or deleted.
 *
 * Never twice: the event id is ours (base32hex, with a generation counter bumped on each deletion),
 * and written down before the insert is sent. A retry after a lost answer — the process died, the
 * lease expired and another pass took the row over — sends the same id, which Google refuses with
 * 409: the event is already there, so it is patched instead and counted as done.
 */
import { and, asc, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { calendar_v3 } from "googleapis/build/src/apis/calendar/v3";
import {
  appointments,
  doctors,
  googleCalendarEvents,
  googleCalendarOutbox,
  googleCalendarSettings,
  googleDoctorCalendars,
  patients,
  surgeries,
} from "~db/schema";
import type { GoogleNamePrivacy } from "~/lib/enums";
import { startWorker } from "./background-worker";
import { db } from "./db";
import { type GoogleConfig, authorizedClient, googleConfig, statusOfGoogleError } from "./google";
import { calendarApi } from "./google-calendar";

import type { CalendarSource } from "./google-calendar-outbox";

export const MAX_PUSH_ATTEMPTS = 8;
/** A claim older than this belongs to a pass that died (or hangs): another pass takes the row over. */
export const PUSH_LEASE_MS = 2 * 60_000;
/** Backoff after the n-th failed attempt: 30 s, 1 min, 2 min … capped at 1 h. */
export function pushBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}
const BATCH = 25;
const TICK_MS = 10_000;
/** A surgery without an estimated duration is shown this long. */
const DEFAULT_SURGERY_MINUTES = 120;
const TIME_ZONE = "America/Sao_Paulo";

// ------------------------------------------------------------------------------------- event shape

/** Our event id: base32hex (0-9, a-v), unique per record and generation. */
export function calendarEventId(source: CalendarSource, sourceId: number, generation: number): string {
  return `sinapse${source === "appointment" ? "a" : "c"}${sourceId}g${generation}`;
}

const NAME_PARTICLES = new Set(["da", "das", "de", "do", "dos", "e"]);

/** The patient as the privacy setting allows: the full name, its initials ("M. S."), or nothing. */
export function patientLabel(name: string, privacy: GoogleNamePrivacy): string | null {
  if (privacy === "none") return null;
  const clean = name.trim().replace(/\s+/g, " ");
  if (privacy === "full") return clean;
  const initials = clean
    .split(" ")
    .filter((word) => word && !NAME_PARTICLES.has(word.toLowerCase()))
    .map((word) => `${word[0]!.toUpperCase()}.`);
  return initials.join(" ") || null;
}

interface PushRecord {
  doctorId: number;
  /** False when cancelled: its event is removed. */
  active: boolean;
  event: calendar_v3.Schema$Event;
}

function loadRecord(source: CalendarSource, sourceId: number, privacy: GoogleNamePrivacy): PushRecord | null {
  if (source === "appointment") {
    const row = db
      .select({
        doctorId: appointments.doctorId,
        status: appointments.status,
        startTime: appointments.startTime,
        endTime: appointments.endTime,
        type: appointments.type,
        location: appointments.location,
        patientName: patients.name,
        doctorName: doctors.name,
      })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .innerJoin(doctors, eq(doctors.id, appointments.doctorId))
      .where(eq(appointments.id, sourceId))
      .get();
    if (!row) return null;
    const who = patientLabel(row.patientName, privacy);
    return {
      doctorId: row.doctorId,
      active: row.status !== "cancelled",
      event: {
        summary: who ? `Consulta: ${row.type} · ${who}` : `Consulta: ${row.type}`,
        description: `Médico: ${row.doctorName}`,
        location: row.location ?? undefined,
        start: { dateTime: row.startTime.toISOString(), timeZone: TIME_ZONE },
        end: { dateTime: row.endTime.toISOString(), timeZone: TIME_ZONE },
      },
    };
  }
  const row = db
    .select({
      doctorId: surgeries.doctorId,
      status: surgeries.status,
      scheduledDate: surgeries.scheduledDate,
      minutes: surgeries.estimatedDurationMin,
      surgeryType: surgeries.surgeryType,
      hospital: surgeries.hospital,
      patientName: patients.name,
      doctorName: doctors.name,
    })
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .innerJoin(doctors, eq(doctors.id, surgeries.doctorId))
    .where(eq(surgeries.id, sourceId))
    .get();
  if (!row) return null;
  const who = patientLabel(row.patientName, privacy);
  const end = new Date(row.scheduledDate.getTime() + (row.minutes ?? DEFAULT_SURGERY_MINUTES) * 60_000);
  return {
    doctorId: row.doctorId,
    active: row.status !== "cancelled",
    event: {
      summary: who ? `Cirurgia: ${row.surgeryType} · ${who}` : `Cirurgia: ${row.surgeryType}`,
      description: `Médico: ${row.doctorName}`,
      location: row.hospital ?? undefined,
      start: { dateTime: row.scheduledDate.toISOString(), timeZone: TIME_ZONE },
      end: { dateTime: end.toISOString(), timeZone: TIME_ZONE },
    },
  };
}

/** Where the settings send a record's event now, or null (push off, or the doctor has no calendar). */
function targetCalendar(settings: typeof googleCalendarSettings.$inferSelect | undefined, doctorId: number): string | null {
  if (!settings || settings.syncMode === "off") return null;
  if (settings.syncMode === "clinic") return settings.clinicCalendarId || null;
  return (
    db.select({ calendarId: googleDoctorCalendars.calendarId }).from(googleDoctorCalendars).where(eq(googleDoctorCalendars.doctorId, doctorId)).get()
      ?.calendarId ?? null
  );
}

// ------------------------------------------------------------------------------------------ the pass

type Claimed = typeof googleCalendarOutbox.$inferSelect;
type EventRow = typeof googleCalendarEvents.$inferSelect;
type Api = ReturnType<typeof calendarApi>;

/** Gone at Google already (deleted there, or never made): for a deletion, the same as done. */
const isGone = (status: number | null) => status === 404 || status === 410;

function eventRow(source: CalendarSource, sourceId: number): EventRow | undefined {
  return db
    .select()
    .from(googleCalendarEvents)
    .where(and(eq(googleCalendarEvents.source, source), eq(googleCalendarEvents.sourceId, sourceId)))
    .get();
}

function saveEventRow(row: Claimed, values: Pick<EventRow, "calendarId" | "eventId" | "generation" | "live"> & { syncedAt?: Date | null }) {
  db.insert(googleCalendarEvents)
    .values({ source: row.source, sourceId: row.sourceId, ...values })
    .onConflictDoUpdate({ target: [googleCalendarEvents.source, googleCalendarEvents.sourceId], set: values })
    .run();
}

/** Removes the event (gone already counts as removed) and bumps the generation: a new event gets a new id. */
async function removeEvent(api: Api, row: Claimed, event: EventRow, now: Date) {
  try {
    await api.events.delete({ calendarId: event.calendarId, eventId: event.eventId, sendUpdates: "none" });
  } catch (error) {
    if (!isGone(statusOfGoogleError(error))) throw error;
  }
  saveEventRow(row, { calendarId: event.calendarId, eventId: event.eventId, generation: event.generation + 1, live: false, syncedAt: now });
}

export interface PushHooks {
  /** Runs after Google answered and before the answer is written (tests simulate a crash here). */
  afterGoogleAnswer?: (row: Claimed) => void;
}

/** Makes Google match the record of `row`. Throws on a failure worth retrying. */
async function pushOne(api: Api, row: Claimed, settings: typeof googleCalendarSettings.$inferSelect | undefined, hooks: PushHooks, now: Date) {
  const record = loadRecord(row.source, row.sourceId, settings?.namePrivacy ?? "initials");
  let event = eventRow(row.source, row.sourceId);
  const target = record?.active ? targetCalendar(settings, record.doctorId) : null;

  if (!record || !record.active) {
    if (event?.live) await removeEvent(api, row, event, now);
    hooks.afterGoogleAnswer?.(row);
    return;
  }
  // Push off, or no calendar for this doctor: an event already made is kept right where it is.
  const calendarId = target ?? (event?.live ? event.calendarId : null);
  if (!calendarId) return;

  if (event?.live && event.calendarId !== calendarId) {
    await removeEvent(api, row, event, now); // the settings moved it: out of the old calendar first
    event = eventRow(row.source, row.sourceId);
  }
  if (event?.live) {
    try {
      await api.events.patch({ calendarId, eventId: event.eventId, sendUpdates: "none", requestBody: record.event });
      hooks.afterGoogleAnswer?.(row);
      saveEventRow(row, { calendarId, eventId: event.eventId, generation: event.generation, live: true, syncedAt: now });
      return;
    } catch (error) {
      if (!isGone(statusOfGoogleError(error))) throw error;
      // Deleted at Google by someone: made anew under the next generation.
      saveEventRow(row, { calendarId, eventId: event.eventId, generation: event.generation + 1, live: false });
      event = eventRow(row.source, row.sourceId);
    }
  }
  // An insert of this generation may have been sent to another calendar before (its answer lost): remove it there.
  const generation = event?.generation ?? 0;
  const eventId = calendarEventId(row.source, row.sourceId, generation);
  if (event && event.eventId === eventId && event.calendarId !== calendarId) {
    await removeEvent(api, row, event, now);
    return pushOne(api, row, settings, hooks, now);
  }
  // Written down before the call: a retry sends the same id.
  saveEventRow(row, { calendarId, eventId, generation, live: false });
  try {
    await api.events.insert({ calendarId, sendUpdates: "none", requestBody: { ...record.event, id: eventId } });
  } catch (error) {
    if (statusOfGoogleError(error) !== 409) throw error;
    // Already there (an earlier attempt's answer was lost): bring it up to date instead.
    try {
      await api.events.patch({ calendarId, eventId, sendUpdates: "none", requestBody: record.event });
    } catch (patchError) {
      if (!isGone(statusOfGoogleError(patchError))) throw patchError;
      // That id belongs to an event deleted at Google: the next attempt uses the next generation.
      saveEventRow(row, { calendarId, eventId, generation: generation + 1, live: false });
      throw patchError;
    }
  }
  hooks.afterGoogleAnswer?.(row);
  saveEventRow(row, { calendarId, eventId, generation, live: true, syncedAt: now });
}

/** Takes the row: unclaimed, or claimed longer ago than the lease (its pass died). */
function claim(id: number, now: Date): Claimed | null {
  const expired = new Date(now.getTime() - PUSH_LEASE_MS);
  return (
    db
      .update(googleCalendarOutbox)
      .set({ claimedAt: now, attempts: sql`${googleCalendarOutbox.attempts} + 1` })
      .where(and(eq(googleCalendarOutbox.id, id), isNull(googleCalendarOutbox.failedAt), or(isNull(googleCalendarOutbox.claimedAt), lt(googleCalendarOutbox.claimedAt, expired))))
      .returning()
      .get() ?? null
  );
}

/** The row as this pass claimed it: untouched since (no other pass took it over, no change folded in). */
function mine(row: Claimed) {
  return and(eq(googleCalendarOutbox.id, row.id), eq(googleCalendarOutbox.claimedAt, row.claimedAt!), eq(googleCalendarOutbox.attempts, row.attempts));
}

function release(row: Claimed) {
  // A change folded in meanwhile: leave the row due for the next pass.
  db.update(googleCalendarOutbox).set({ claimedAt: null }).where(and(eq(googleCalendarOutbox.id, row.id), eq(googleCalendarOutbox.claimedAt, row.claimedAt!))).run();
}

function settleDone(row: Claimed) {
  if (db.delete(googleCalendarOutbox).where(mine(row)).run().changes === 0) release(row);
}

function settleFailed(row: Claimed, error: unknown, now: Date) {
  const status = statusOfGoogleError(error);
  const message = `${status ? `Google respondeu ${status}` : "Sem resposta do Google"}: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`;
  const exhausted = row.attempts >= MAX_PUSH_ATTEMPTS;
  const changed = db
    .update(googleCalendarOutbox)
    .set(
      exhausted
        ? { claimedAt: null, error: message, failedAt: now }
        : { claimedAt: null, error: message, nextAttemptAt: new Date(now.getTime() + pushBackoffMs(row.attempts)) },
    )
    .where(mine(row))
    .run().changes;
  if (changed === 0) release(row);
}

/**
 * One pass: pushes the due rows, one at a time. Not configured or not connected, nothing is taken:
 * the rows wait. Returns how many rows were attempted.
 */
export async function pushDueEvents(now = new Date(), config: GoogleConfig | null = googleConfig(), hooks: PushHooks = {}): Promise<number> {
  if (!config) return 0;
  const auth = authorizedClient(config);
  if (!auth) return 0;
  const api = calendarApi(config, auth);
  const expired = new Date(now.getTime() - PUSH_LEASE_MS);
  const due = db
    .select({ id: googleCalendarOutbox.id })
    .from(googleCalendarOutbox)
    .where(
      and(
        lte(googleCalendarOutbox.nextAttemptAt, now),
        isNull(googleCalendarOutbox.failedAt),
        or(isNull(googleCalendarOutbox.claimedAt), lt(googleCalendarOutbox.claimedAt, expired)),
      ),
    )
    .orderBy(asc(googleCalendarOutbox.nextAttemptAt))
    .limit(BATCH)
    .all();
  const settings = db.select().from(googleCalendarSettings).where(eq(googleCalendarSettings.id, 1)).get();
  let attempted = 0;
  for (const { id } of due) {
    const row = claim(id, now);
    if (!row) continue;
    attempted += 1;
    try {
      await pushOne(api, row, settings, hooks, now);
      settleDone(row);
    } catch (error) {
      if (error instanceof SimulatedCrash) throw error;
      settleFailed(row, error, new Date());
    }
  }
  return attempted;
}

/** Thrown by a test's hook to stop a pass as a crash would: nothing more is written. */
export class SimulatedCrash extends Error {}

/** What waits and what failed, for the settings page. */
export function pushBacklog() {
  const row = db
    .select({
      waiting: sql<number>`count(*) filter (where ${googleCalendarOutbox.failedAt} is null)`,
      failed: sql<number>`count(*) filter (where ${googleCalendarOutbox.failedAt} is not null)`,
    })
    .from(googleCalendarOutbox)
    .get();
  return { waiting: row?.waiting ?? 0, failed: row?.failed ?? 0 };
}

// ----------------------------------------------------------------------------------------- worker

export const CALENDAR_WORKER = "Google Calendar";

/**
 * Starts the worker once per process. Not under Vitest (tests drive the passes themselves) nor
 * with GOOGLE_WORKER=off (a second process on the same database, such as a maintenance script).
 */
export function startCalendarWorker() {
  startWorker({ name: CALENDAR_WORKER, tickMs: TICK_MS, offEnv: "GOOGLE_WORKER", pass: () => pushDueEvents(new Date()) });
}

// The server bundle evaluates this module when it starts (the /google-calendar route imports it),
// so the worker runs from the start.
startCalendarWorker();
