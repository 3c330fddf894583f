import { and, count, eq, inArray, sql } from "drizzle-orm";
import { patientReferrals, patients, referrers, surgeries } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { countMatches, keysetPage } from "~/.server/pagination";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import { PAGE_SIZE, type ListParams } from "~/lib/list-params";
import { buildSearchText } from "~/lib/search";
import type { ReferrerInput } from "~/validation/referrer";

/**
 * Encaminhadores: who refers patients to the practice. A patient is linked to at most one referrer
 * (`patient_referrals`); a referrer's figures are counted through those links.
 */
export class ReferrerError extends DomainError<keyof ReferrerInput & string> {}

export function referrerSearchText(r: Pick<ReferrerInput, "name" | "specialty" | "crm" | "email" | "phone">) {
  return buildSearchText(r.name, r.specialty, r.crm, r.email, r.phone);
}

/** A period of paid surgeries: [from, to) as instants. */
export interface Period {
  from: Date;
  to: Date;
}

/** For each referrer of the page: patients sent, their surgeries, and the surgeries paid in the period with the commission owed. */
export function referrerFigures(ids: number[], period: Period, rates: Map<number, number>) {
  const figures = new Map<number, { patients: number; surgeries: number; paidSurgeries: number; paidCents: number; commissionCents: number }>();
  if (!ids.length) return figures;
  for (const id of ids) figures.set(id, { patients: 0, surgeries: 0, paidSurgeries: 0, paidCents: 0, commissionCents: 0 });
  const patientCounts = db
    .select({ referrerId: patientReferrals.referrerId, n: count() })
    .from(patientReferrals)
    .where(inArray(patientReferrals.referrerId, ids))
    .groupBy(patientReferrals.referrerId)
    .all();
  for (const row of patientCounts) figures.get(row.referrerId)!.patients = row.n;
  const surgeryRows = db
    .select({
      referrerId: patientReferrals.referrerId,
      n: count(),
      paid: sql<number>`sum(case when ${surgeries.receivableStatus} = 'pago' and ${surgeries.paidAt} >= ${period.from.getTime()} and ${surgeries.paidAt} < ${period.to.getTime()} then 1 else 0 end)`,
      paidCents: sql<number>`coalesce(sum(case when ${surgeries.receivableStatus} = 'pago' and ${surgeries.paidAt} >= ${period.from.getTime()} and ${surgeries.paidAt} < ${period.to.getTime()} then ${surgeries.billedAmountCents} else 0 end), 0)`,
    })
    .from(patientReferrals)
    .innerJoin(surgeries, eq(surgeries.patientId, patientReferrals.patientId))
    .where(inArray(patientReferrals.referrerId, ids))
    .groupBy(patientReferrals.referrerId)
    .all();
  for (const row of surgeryRows) {
    const figure = figures.get(row.referrerId)!;
    figure.surgeries = row.n;
    figure.paidSurgeries = Number(row.paid) || 0;
    figure.paidCents = Number(row.paidCents) || 0;
    figure.commissionCents = Math.round(figure.paidCents * (rates.get(row.referrerId) ?? 0));
  }
  return figures;
}

export function listReferrers(state: ListParams<"name">, period: Period) {
  const where = matchAllWords(state.q, (word) => likeWord(referrers.searchText, word));
  const order = { key: referrers.searchText, id: referrers.id, dir: state.dir };
  const counted = countMatches(referrers, where);
  const page = keysetPage(
    state,
    order,
    (position, orderBy, limit, offset) =>
      db
        .select({
          id: referrers.id,
          name: referrers.name,
          specialty: referrers.specialty,
          crm: referrers.crm,
          crmUf: referrers.crmUf,
          phone: referrers.phone,
          email: referrers.email,
          commissionRate: referrers.commissionRate,
          active: referrers.active,
          cursorKey: order.key,
        })
        .from(referrers)
        .where(and(where, position))
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
    counted.totalCapped ? null : counted.total,
  );
  const figures = referrerFigures(
    page.rows.map((row) => row.id),
    period,
    new Map(page.rows.map((row) => [row.id, row.commissionRate])),
  );
  return { ...page, ...counted, rows: page.rows.map((row) => ({ ...row, ...figures.get(row.id)! })), pageSize: PAGE_SIZE };
}

export function getReferrer(id: number) {
  return db.select().from(referrers).where(eq(referrers.id, id)).get() ?? null;
}

export function createReferrer(userId: number, input: ReferrerInput) {
  return db.transaction((tx) => {
    const row = tx.insert(referrers).values({ ...input, searchText: referrerSearchText(input) }).returning({ id: referrers.id }).get();
    recordAudit(tx, { userId, action: "create", entity: "referrer", entityId: row.id, changes: input });
    return row.id;
  });
}

export function updateReferrer(userId: number, id: number, input: ReferrerInput) {
  db.transaction((tx) => {
    const before = tx.select().from(referrers).where(eq(referrers.id, id)).get();
    if (!before) throw new ReferrerError("Encaminhador não encontrado.");
    tx.update(referrers).set({ ...input, searchText: referrerSearchText(input), updatedAt: new Date() }).where(eq(referrers.id, id)).run();
    recordAudit(tx, { userId, action: "update", entity: "referrer", entityId: id, changes: diffChanges(before, input) });
  });
}

/** Deleting a referrer removes their 'encaminhado por' links (the patients stay). */
export function deleteReferrer(userId: number, id: number) {
  db.transaction((tx) => {
    const referrer = tx.select().from(referrers).where(eq(referrers.id, id)).get();
    if (!referrer) throw new ReferrerError("Encaminhador não encontrado.");
    tx.delete(referrers).where(eq(referrers.id, id)).run();
    const { searchText: _omit, ...snapshot } = referrer;
    recordAudit(tx, { userId, action: "delete", entity: "referrer", entityId: id, changes: snapshot });
  });
}

/** The patients a referrer sent, by name (at most 100 shown). */
export function referredPatients(referrerId: number) {
  return db
    .select({ id: patients.id, name: patients.name })
    .from(patientReferrals)
    .innerJoin(patients, eq(patients.id, patientReferrals.patientId))
    .where(eq(patientReferrals.referrerId, referrerId))
    .orderBy(patients.searchText)
    .limit(100)
    .all();
}

/** Links a patient to this referrer ('encaminhado por'); a patient linked elsewhere moves here. */
export function linkPatient(userId: number, referrerId: number, patientId: number) {
  db.transaction((tx) => {
    if (!tx.select({ id: referrers.id }).from(referrers).where(eq(referrers.id, referrerId)).get()) throw new ReferrerError("Encaminhador não encontrado.");
    if (!tx.select({ id: patients.id }).from(patients).where(eq(patients.id, patientId)).get()) throw new DomainError("Paciente não encontrado.", "patientId");
    tx.insert(patientReferrals)
      .values({ patientId, referrerId, createdBy: userId })
      .onConflictDoUpdate({ target: patientReferrals.patientId, set: { referrerId, createdBy: userId, updatedAt: new Date() } })
      .run();
    recordAudit(tx, { userId, action: "update", entity: "patient_referral", entityId: patientId, changes: { referrerId } });
  });
}

export function unlinkPatient(userId: number, referrerId: number, patientId: number) {
  db.transaction((tx) => {
    tx.delete(patientReferrals).where(and(eq(patientReferrals.patientId, patientId), eq(patientReferrals.referrerId, referrerId))).run();
    recordAudit(tx, { userId, action: "delete", entity: "patient_referral", entityId: patientId, changes: { referrerId } });
  });
}

/** The referrer who sent a patient, if any (for the patient's screens). */
export function referrerOfPatient(patientId: number) {
  return (
    db
      .select({ id: referrers.id, name: referrers.name })
      .from(patientReferrals)
      .innerJoin(referrers, eq(referrers.id, patientReferrals.referrerId))
      .where(eq(patientReferrals.patientId, patientId))
      .get() ?? null
  );
}
