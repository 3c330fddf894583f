import { asc, count, inArray } from "drizzle-orm";
import { doctors, surgeries } from "~db/schema";
import { cachedUntilWrite } from "~/.server/data-cache";
import { db } from "~/.server/db";
import { pageUntilWrite } from "~/.server/pagination";
import { sentAsJson } from "~/.server/sent-as-json";
import { PAGE_SIZE, offsetOf } from "~/lib/list-params";

/**
 * /surgical-groups: the doctors grouped by specialty, in specialty order (SPEC §7: doctors ordered
 * by specialty), each with the number of surgeries. A page of doctors in (specialty, name) order
 * walks `doctors_specialty_name_idx`; the groups on the page get their totals (doctors, surgeries)
 * from all their doctors, so a group split across two pages still shows its whole total. Every
 * doctor's count comes from one grouped read of `surgeries_doctor_date_idx` (100 000 entries,
 * about 2.5 ms), kept until the next write: counting the page's doctors and their groups' again on
 * each view took 10 ms.
 */
export function listSurgicalGroups(page: number) {
  return pageUntilWrite("surgical-groups", page, () => readSurgicalGroups(page));
}

function readSurgicalGroups(page: number) {
  const total = db.select({ n: count() }).from(doctors).get()!.n;
  const counts = surgeryCountsByDoctor();
  const surgeriesOf = (doctorId: number) => counts.get(doctorId) ?? 0;
  const rows = db
    .select({ id: doctors.id, name: doctors.name, specialty: doctors.specialty, crm: doctors.crm, crmUf: doctors.crmUf, active: doctors.active })
    .from(doctors)
    .orderBy(asc(doctors.specialty), asc(doctors.name), asc(doctors.id))
    .limit(PAGE_SIZE)
    .offset(offsetOf(page))
    .all()
    .map((row) => ({ ...row, surgeries: surgeriesOf(row.id) }));
  const specialties = [...new Set(rows.map((row) => row.specialty))];
  // Every doctor of the page's groups (a practice has tens, not thousands).
  const members = specialties.length
    ? db.select({ id: doctors.id, specialty: doctors.specialty }).from(doctors).where(inArray(doctors.specialty, specialties)).all()
    : [];
  const groups = specialties.map((specialty) => {
    const ids = members.filter((member) => member.specialty === specialty).map((member) => member.id);
    return {
      specialty,
      doctorCount: ids.length,
      surgeryCount: ids.reduce((sum, id) => sum + surgeriesOf(id), 0),
      doctors: rows.filter((row) => row.specialty === specialty),
    };
  });
  return { groups: sentAsJson(groups), total, pageSize: PAGE_SIZE, page };
}

/** Every doctor's number of surgeries (doctors without any are absent), kept until the next write. */
function surgeryCountsByDoctor(): Map<number, number> {
  return cachedUntilWrite("surgical-groups:surgeries-by-doctor", countSurgeriesByDoctor);
}

/** `surgeryCountsByDoctor` computed now (the bench's first view after a write). */
export function countSurgeriesByDoctor(): Map<number, number> {
  const rows = db.select({ doctorId: surgeries.doctorId, n: count() }).from(surgeries).groupBy(surgeries.doctorId).all();
  return new Map(rows.map((row) => [row.doctorId, row.n]));
}
