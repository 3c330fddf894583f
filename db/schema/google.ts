import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { id, instant, timestamps } from "./columns";

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
    uploadedAt: instant("uploaded_at")
      .notNull()
      .$defaultFn(() => new Date()),
    ...timestamps(),
  },
  (t) => [
    check("google_drive_files_size_check", sql`${t.sizeBytes} is null or ${t.sizeBytes} >= 0`),
    index("google_drive_files_uploaded_at_idx").on(t.uploadedAt),
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
