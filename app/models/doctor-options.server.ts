import { asc, eq, sql } from "drizzle-orm";
import { doctors } from "~db/schema";
import { db } from "~/.server/db";
import { likeContains } from "~/lib/search";

/** Doctors matching a query, for pickers (appointment and surgery dialogs); active ones only. */
export function searchDoctorOptions(q: string, limit = 20) {
  return db
    .select({ id: doctors.id, name: doctors.name, specialty: doctors.specialty })
    .from(doctors)
    .where(q ? sql`${doctors.active} = 1 and ${doctors.searchText} like ${likeContains(q)} escape '\\'` : eq(doctors.active, true))
    .orderBy(asc(doctors.searchText), asc(doctors.id))
    .limit(limit)
    .all();
}

export function getDoctorOption(id: number) {
  return db.select({ id: doctors.id, name: doctors.name, specialty: doctors.specialty }).from(doctors).where(eq(doctors.id, id)).get() ?? null;
}
