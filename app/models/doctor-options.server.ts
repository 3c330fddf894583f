import { and, asc, desc, eq } from "drizzle-orm";
import { doctors } from "~db/schema";
import { cachedUntilTablesChange, tablesWriteCache } from "~/.server/data-cache";
import { db } from "~/.server/db";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import { REGISTRY_OPTIONS_LIMIT } from "~/lib/list-params";

/**
 * Doctors matching a query, for pickers (appointment and surgery dialogs); active ones only. Kept
 * until the doctors are written, as a patient picker's matches are until the patients are. Callers
 * must not modify what it returns.
 */
export function searchDoctorOptions(q: string, limit = 20) {
  return doctorOptionsUntilTablesChange(["doctors"], `${limit}:${q}`, () => readDoctorOptions(q, limit));
}
/** A store of its own: its keys come from what users type. */
const doctorOptionsUntilTablesChange = tablesWriteCache(64);

function readDoctorOptions(q: string, limit: number) {
  return db
    .select({ id: doctors.id, name: doctors.name, specialty: doctors.specialty })
    .from(doctors)
    .where(and(eq(doctors.active, true), matchAllWords(q, (word) => likeWord(doctors.searchText, word))))
    .orderBy(asc(doctors.searchText), asc(doctors.id))
    .limit(limit)
    .all();
}

export function getDoctorOption(id: number) {
  return db.select({ id: doctors.id, name: doctors.name, specialty: doctors.specialty }).from(doctors).where(eq(doctors.id, id)).get() ?? null;
}

// The lists' doctor filters are the same few rows on every view of /appointments, /surgeries, the
// pipeline and the honorários, so they are kept until the doctors are written
// (app/.server/data-cache.ts) instead of being queried for each page. Callers share the arrays: map
// them, never change them.

/** Every doctor (active first, then by name) for a list's doctor filter. */
export function listDoctorFilterOptions() {
  return cachedUntilTablesChange(["doctors"], "doctor-filter:all", () =>
    db
      .select({ id: doctors.id, name: doctors.name, active: doctors.active })
      .from(doctors)
      .orderBy(desc(doctors.active), asc(doctors.searchText), asc(doctors.id))
      .limit(REGISTRY_OPTIONS_LIMIT)
      .all(),
  );
}

/** The first `limit` active doctors by name, as `searchDoctorOptions("")` gives them. */
export function listActiveDoctorOptions(limit: number) {
  return searchDoctorOptions("", limit);
}
