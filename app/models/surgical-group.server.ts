import { asc, count, eq, inArray, sql } from "drizzle-orm";
import { doctors, surgeries } from "~db/schema";
import { db } from "~/.server/db";
import { PAGE_SIZE, offsetOf } from "~/lib/list-params";

/**
 * /surgical-groups: the doctors grouped by specialty, in specialty order (SPEC §7: doctors ordered
 * by specialty), each with the number of surgeries. A page of doctors in (specialty, name) order
 * walks `doctors_specialty_name_idx`; each doctor's count seeks `surgeries_doctor_date_idx`; the
 * groups on the page get their totals (doctors, surgeries) from one grouped read over the same
 * indexes, so a group split across two pages still shows its whole total.
 */
export function listSurgicalGroups(page: number) {
  const total = db.select({ n: count() }).from(doctors).get()!.n;
  const rows = db
    .select({
      id: doctors.id,
      name: doctors.name,
      specialty: doctors.specialty,
      crm: doctors.crm,
      crmUf: doctors.crmUf,
      active: doctors.active,
      // Qualified by hand: in a one-table select Drizzle writes bare column names, and a bare "id" would be the surgery's.
      surgeries: sql<number>`(select count(*) from "surgeries" as "s" where "s"."doctor_id" = "doctors"."id")`.mapWith(Number),
    })
    .from(doctors)
    .orderBy(asc(doctors.specialty), asc(doctors.name), asc(doctors.id))
    .limit(PAGE_SIZE)
    .offset(offsetOf(page))
    .all();
  const specialties = [...new Set(rows.map((row) => row.specialty))];
  const totals = specialties.length
    ? db
        .select({
          specialty: doctors.specialty,
          doctors: sql<number>`count(distinct ${doctors.id})`.mapWith(Number),
          surgeries: count(surgeries.id),
        })
        .from(doctors)
        .leftJoin(surgeries, eq(surgeries.doctorId, doctors.id))
        .where(inArray(doctors.specialty, specialties))
        .groupBy(doctors.specialty)
        .all()
    : [];
  const totalOf = new Map(totals.map((t) => [t.specialty, t]));
  const groups = specialties.map((specialty) => ({
    specialty,
    doctorCount: totalOf.get(specialty)?.doctors ?? 0,
    surgeryCount: totalOf.get(specialty)?.surgeries ?? 0,
    doctors: rows.filter((row) => row.specialty === specialty),
  }));
  return { groups, total, pageSize: PAGE_SIZE, page };
}

