import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { GOOGLE_NAME_PRIVACY, GOOGLE_SYNC_MODES } from "../../app/lib/enums";
import { users } from "./auth";
import { doctors, patients } from "./clinical";
import { id, instant, timestamps } from "./columns";
import { documents } from "./documents";
import { enumCheck } from "./helpers";

/** The clinic's single Google OAuth connection (calendar, drive, forms): at most one row, id 1. */
export const googleConnections = sqliteTable(
  "google_connections",
  {
    id: integer("id").primaryKey(),
    email: text("email"),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    tokenExpiresAt: instant("token_expires_at"),
    scope: text("scope"),
    connectedBy: integer("connected_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [check("google_connections_single_row", sql`${t.id} = 1`)],
);

/** Files the clinic uploaded to Google Drive through the app. */
export const googleDriveFiles = sqliteTable(
  "google_drive_files",
  {
    id: id(),
    name: text("name").notNull(),
    driveFileId: text("drive_file_id").notNull().unique(),
    mimeType: text("mime_type"),
    sizeBytes: integer("size_bytes"),
    webViewLink: text("web_view_link"),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    /** A patient's Drive folder (mime type folder) or a file sent into it from the patient's documents. */
    patientId: integer("patient_id").references(() => patients.id, { onDelete: "set null" }),
    /** The patient document this file is a copy of. */
    documentId: integer("document_id").references(() => documents.id, { onDelete: "set null" }),
    uploadedAt: instant("uploaded_at")
      .notNull()
      .$defaultFn(() => new Date()),
    ...timestamps(),
  },
  (t) => [
    check("google_drive_files_size_check", sql`${t.sizeBytes} is null or ${t.sizeBytes} >= 0`),
    index("google_drive_files_uploaded_at_idx").on(t.uploadedAt),
    index("google_drive_files_patient_idx").on(t.patientId, t.mimeType),
  ],
);

/** Google Forms created or linked by the clinic. */
export const googleForms = sqliteTable(
  "google_forms",
  {
    id: id(),
    title: text("title").notNull(),
    formId: text("form_id").notNull().unique(),
    responderUri: text("responder_uri"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [index("google_forms_created_at_idx").on(t.createdAt)],
);

/**
 * An authorisation in progress: the `state` sent to Google (stored as its SHA-256), bound to the
 * session that started it, with the PKCE verifier (sealed). Used once: the callback deletes it.
 */
export const googleOauthStates = sqliteTable(
  "google_oauth_states",
  {
    stateHash: text("state_hash").primaryKey(),
    sessionKey: text("session_key").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeVerifier: text("code_verifier").notNull(),
    returnTo: text("return_to").notNull().default("/google-calendar"),
    expiresAt: instant("expires_at").notNull(),
    ...timestamps(),
  },
  (t) => [index("google_oauth_states_expires_idx").on(t.expiresAt)],
);


/** How appointments and surgeries go to Google Calendar (one row, id 1; kept across reconnections). */
export const googleCalendarSettings = sqliteTable(
  "google_calendar_settings",
  {
    id: integer("id").primaryKey(),
    syncMode: text("sync_mode", { enum: GOOGLE_SYNC_MODES }).notNull().default("off"),
    clinicCalendarId: text("clinic_calendar_id"),
    namePrivacy: text("name_privacy", { enum: GOOGLE_NAME_PRIVACY }).notNull().default("initials"),
    ...timestamps(),
  },
  (t) => [
    check("google_calendar_settings_single_row", sql`${t.id} = 1`),
    enumCheck("google_calendar_settings_mode_check", t.syncMode, GOOGLE_SYNC_MODES),
    enumCheck("google_calendar_settings_privacy_check", t.namePrivacy, GOOGLE_NAME_PRIVACY),
  ],
);

/** The calendar each doctor's appointments and surgeries go to when the sync is per doctor. */
export const googleDoctorCalendars = sqliteTable("google_doctor_calendars", {
  doctorId: integer("doctor_id")
    .primaryKey()
    .references(() => doctors.id, { onDelete: "cascade" }),
  calendarId: text("calendar_id").notNull(),
  ...timestamps(),
});

export const GOOGLE_EVENT_SOURCES = ["appointment", "surgery"] as const;

/**
 * A change to push to Google Calendar: at most one pending row per record (a later change of the
 * same record folds into it); the worker reads the record as it is when the row is processed.
 */
export const googleCalendarOutbox = sqliteTable(
  "google_calendar_outbox",
  {
    id: id(),
    source: text("source", { enum: GOOGLE_EVENT_SOURCES }).notNull(),
    sourceId: integer("source_id").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: instant("next_attempt_at")
      .notNull()
      .$defaultFn(() => new Date()),
    /** Set while a worker holds it; a claim older than the lease is taken over (the push is idempotent). */
    claimedAt: instant("claimed_at"),
    error: text("error"),
    /** Given up after too many failures (kept for a person to see). */
    failedAt: instant("failed_at"),
    ...timestamps(),
  },
  (t) => [
    enumCheck("google_calendar_outbox_source_check", t.source, GOOGLE_EVENT_SOURCES),
    uniqueIndex("google_calendar_outbox_pending_idx").on(t.source, t.sourceId).where(sql`${t.failedAt} is null`),
    index("google_calendar_outbox_due_idx").on(t.nextAttemptAt),
  ],
);

/**
 * The Google Calendar event of an appointment or surgery: its id (chosen by us, so a repeated
 * insert after a crash is refused by Google as a duplicate instead of making a second event) and
 * the calendar it is in. Outlives the record, so a deleted record's event can still be removed.
 */
export const googleCalendarEvents = sqliteTable(
  "google_calendar_events",
  {
    source: text("source", { enum: GOOGLE_EVENT_SOURCES }).notNull(),
    sourceId: integer("source_id").notNull(),
    calendarId: text("calendar_id").notNull(),
    eventId: text("event_id").notNull(),
    /** Bumped each time the event is made anew after a deletion (the id includes it). */
    generation: integer("generation").notNull().default(0),
    /** The event exists at Google (false once deleted there). */
    live: integer("live", { mode: "boolean" }).notNull().default(false),
    syncedAt: instant("synced_at"),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.source, t.sourceId] }), enumCheck("google_calendar_events_source_check", t.source, GOOGLE_EVENT_SOURCES)],
);
