import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DOCUMENT_CATEGORIES } from "../../app/lib/enums";
import { users } from "./auth";
import { patients } from "./clinical";
import { id, timestamps } from "./columns";
import { enumCheck, searchText } from "./helpers";
import { surgeries } from "./surgery";

/**
 * A patient's uploaded file (exam, report, consent form, guide …). The bytes live outside the
 * database, in the documents directory under `storage_name` (random, never the uploaded name);
 * `sha256` lets a download tell a missing or altered file from the one that was stored.
 * A patient with documents cannot be deleted (restrict): they are part of the clinical record.
 */
export const documents = sqliteTable(
  "documents",
  {
    id: id(),
    patientId: integer("patient_id")
      .notNull()
      .references(() => patients.id, { onDelete: "restrict" }),
    surgeryId: integer("surgery_id").references(() => surgeries.id, { onDelete: "set null" }),
    category: text("category", { enum: DOCUMENT_CATEGORIES }).notNull(),
    note: text("note"),
    /** The name the file was uploaded with (shown and offered on download, never used on disk). */
    originalName: text("original_name").notNull(),
    /** The type sniffed from the content (application/pdf, image/png …), not the one the browser sent. */
    mimeType: text("mime_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    storageName: text("storage_name").notNull(),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("documents_category_check", t.category, DOCUMENT_CATEGORIES),
    check("documents_size_check", sql`${t.sizeBytes} >= 0`),
    check("documents_sha256_check", sql`length(${t.sha256}) = 64`),
    uniqueIndex("documents_storage_name_unique").on(t.storageName),
    index("documents_created_idx").on(t.createdAt),
    index("documents_patient_created_idx").on(t.patientId, t.createdAt),
    index("documents_category_created_idx").on(t.category, t.createdAt),
    // A search's matches in one category, each sought by its id here (category, rowid): 7 MB read
    // instead of a few thousand documents' rows in a table of 110 MB (app/models/document.server.ts).
    index("documents_category_idx").on(t.category),
    index("documents_surgery_idx").on(t.surgeryId),
  ],
);
