import { and, asc, eq } from "drizzle-orm";
import { doctors } from "~db/schema";
import { db } from "~/.server/db";
import { likeWord, matchAllWords } from "~/.server/search-sql";

/** Doctors matching a query, for pickers (appointment and surgery dialogs); active ones only. */
export function searchDoctorOptions(q: string, limit = 20) {
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
