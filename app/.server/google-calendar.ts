/**
 * Google Calendar: the calendars of the clinic's account, and where appointments and surgeries go
 * (docs/decisions/0020-google-integration.md).
 */
import type { OAuth2Client } from "google-auth-library";
import { asc, eq } from "drizzle-orm";
import { doctors, googleCalendarSettings, googleDoctorCalendars } from "~db/schema";
import type { GoogleCalendarSettingsInput, GoogleDoctorCalendarInput } from "~/validation/google";
import { recordAudit } from "./audit";
import { db } from "./db";
import { DomainError } from "./domain-error";
import { type GoogleConfig, GoogleError, GOOGLE_MESSAGES, apiRoot, authorizedClient, googleConfig, googleLibrary, statusOfGoogleError } from "./google";

export interface GoogleCalendar {
  id: string;
  summary: string;
  description: string;
  timeZone: string;
  /** The account may add events to it. */
  writable: boolean;
}

/** At most this many pages of 250 calendars are read (an account has a handful). */
const MAX_PAGES = 4;

export function calendarApi(config: GoogleConfig, auth: OAuth2Client) {
  const { calendar_v3 } = googleLibrary.calendar();
  return new calendar_v3.Calendar({ auth, rootUrl: apiRoot(config) });
}

/** The account's calendars (id, summary, description, time zone); null when not configured or not connected. */
export async function listCalendars(config: GoogleConfig | null = googleConfig()): Promise<GoogleCalendar[] | null> {
  const auth = authorizedClient(config);
  if (!config || !auth) return null;
  const api = calendarApi(config, auth);
  const calendars: GoogleCalendar[] = [];
  let pageToken: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data } = await api.calendarList.list({ maxResults: 250, pageToken });
      for (const item of data.items ?? []) {
        if (!item.id) continue;
        calendars.push({
          id: item.id,
          summary: item.summaryOverride ?? item.summary ?? item.id,
          description: item.description ?? "",
          timeZone: item.timeZone ?? "",
          writable: item.accessRole === "owner" || item.accessRole === "writer",
        });
      }
      pageToken = data.nextPageToken ?? undefined;
      if (!pageToken) break;
    }
  } catch (error) {
    throw new GoogleError(GOOGLE_MESSAGES.calendarsFailed, statusOfGoogleError(error));
  }
  return calendars;
}

export type CalendarSettings = typeof googleCalendarSettings.$inferSelect;

export function calendarSettings(): CalendarSettings {
  const row = db.select().from(googleCalendarSettings).where(eq(googleCalendarSettings.id, 1)).get();
  if (row) return row;
  db.insert(googleCalendarSettings).values({ id: 1 }).onConflictDoNothing().run();
  return db.select().from(googleCalendarSettings).where(eq(googleCalendarSettings.id, 1)).get()!;
}

export const CALENDAR_MESSAGES = {
  saved: "Envio para o Google Calendar salvo",
  doctorSaved: "Calendário do médico salvo",
  notConnected: "Conecte a conta Google antes de escolher um calendário.",
  unknownCalendar: "Escolha um calendário da conta conectada em que o Sinapse possa criar eventos.",
  unknownDoctor: "Médico não encontrado.",
} as const;

/** The chosen calendar must be one the connected account lists and may write to (read from Google). */
async function assertWritableCalendar(calendarId: string, field: string) {
  let calendars: GoogleCalendar[] | null;
  try {
    calendars = await listCalendars();
  } catch (error) {
    if (error instanceof GoogleError) throw new DomainError(GOOGLE_MESSAGES.calendarsFailed, field);
    throw error;
  }
  if (!calendars) throw new DomainError(CALENDAR_MESSAGES.notConnected, field);
  if (!calendars.some((calendar) => calendar.id === calendarId && calendar.writable)) throw new DomainError(CALENDAR_MESSAGES.unknownCalendar, field);
}

/**
 * Saves where events go and how patients are named. Events already made are not touched now: each
 * follows the new settings when its record next changes (docs/decisions/0020-google-integration.md).
 */
export async function updateCalendarSettings(userId: number, input: GoogleCalendarSettingsInput) {
  const clinicCalendarId = input.clinicCalendarId || null;
  if (input.syncMode === "clinic" && clinicCalendarId) await assertWritableCalendar(clinicCalendarId, "clinicCalendarId");
  const values = { syncMode: input.syncMode, clinicCalendarId, namePrivacy: input.namePrivacy };
  calendarSettings();
  db.transaction((tx) => {
    tx.update(googleCalendarSettings).set(values).where(eq(googleCalendarSettings.id, 1)).run();
    recordAudit(tx, { userId, action: "update", entity: "google_calendar_settings", entityId: 1, changes: values });
  });
}

/** Sets (or, empty, removes) the calendar a doctor's events go to when events go one calendar per doctor. */
export async function setDoctorCalendar(userId: number, input: GoogleDoctorCalendarInput) {
  const doctor = db.select({ id: doctors.id }).from(doctors).where(eq(doctors.id, input.doctorId)).get();
  if (!doctor) throw new DomainError(CALENDAR_MESSAGES.unknownDoctor, "doctorId");
  const calendarId = input.calendarId || null;
  if (calendarId) await assertWritableCalendar(calendarId, "calendarId");
  db.transaction((tx) => {
    if (calendarId) {
      tx.insert(googleDoctorCalendars)
        .values({ doctorId: input.doctorId, calendarId })
        .onConflictDoUpdate({ target: googleDoctorCalendars.doctorId, set: { calendarId } })
        .run();
    } else {
      tx.delete(googleDoctorCalendars).where(eq(googleDoctorCalendars.doctorId, input.doctorId)).run();
    }
    recordAudit(tx, { userId, action: "update", entity: "google_doctor_calendar", entityId: input.doctorId, changes: { calendarId } });
  });
}

/** Most doctors the per-doctor table shows (a clinic has a handful; active ones, by name). */
export const DOCTOR_CALENDAR_LIMIT = 200;

/** The active doctors with the calendar each one's events go to. */
export function listDoctorCalendars() {
  return db
    .select({ doctorId: doctors.id, name: doctors.name, calendarId: googleDoctorCalendars.calendarId })
    .from(doctors)
    .leftJoin(googleDoctorCalendars, eq(googleDoctorCalendars.doctorId, doctors.id))
    .where(eq(doctors.active, true))
    .orderBy(asc(doctors.name), asc(doctors.id))
    .limit(DOCTOR_CALENDAR_LIMIT)
    .all();
}
