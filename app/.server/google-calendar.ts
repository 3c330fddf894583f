/**
 * Google Calendar: the calendars of the clinic's account, and where appointments and surgeries go
 * (docs/decisions/0020-google-integration.md).
 */
import { calendar_v3 } from "googleapis/build/src/apis/calendar/v3";
import type { OAuth2Client } from "google-auth-library";
import { eq } from "drizzle-orm";
import { googleCalendarSettings } from "~db/schema";
import { recordAudit } from "./audit";
import { db } from "./db";
import { type GoogleConfig, GoogleError, GOOGLE_MESSAGES, apiRoot, authorizedClient, googleConfig, statusOfGoogleError } from "./google";

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

export function updateCalendarSettings(
  userId: number,
  input: Pick<CalendarSettings, "syncMode" | "clinicCalendarId" | "namePrivacy">,
) {
  calendarSettings();
  db.transaction((tx) => {
    tx.update(googleCalendarSettings).set(input).where(eq(googleCalendarSettings.id, 1)).run();
    recordAudit(tx, { userId, action: "update", entity: "google_calendar_settings", entityId: 1, changes: input });
  });
}
