import { and, asc, between, desc, eq, gt, inArray, lt, sum } from "drizzle-orm";
import { patientReferrals, patients, referrerCounts, referrerPaidDays, referrers } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { keysetList, pageUntilWrite } from "~/.server/pagination";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import type { ListParams } from "~/lib/list-params";
import { buildSearchText } from "~/lib/search";
import { patientSearch } from "./patient.server";
import type { ReferrerInput } from "~/validation/referrer";

/**
 * Encaminhadores: who refers patients to the practice. A patient is linked to at most one referrer
 * (`patient_referrals`); a referrer's figures are counted through those links.
 */
export class ReferrerError extends DomainError<keyof ReferrerInput & string> {}

export function referrerSearchText(r: Pick<ReferrerInput, "name" | "specialty" | "crm" | "email" | "phone">) {
  return buildSearchText(r.name, r.specialty, r.crm, r.email, r.phone);
}

/** The days of a commission period, São Paulo calendar days, both included ('YYYY-MM-DD'). */
export interface PaidPeriod {
  fromIso: string;
  toIso: string;
}

/**
 * For each referrer of the page: patients sent, their surgeries, and the surgeries paid in the
 * period with the commission owed. Read from `referrer_counts` and `referrer_paid_days`, which
 * triggers keep (migration 0049): at most one row per referrer and day with payments, however many
 * patients a referrer sent (the join they replace cost 110 ms a view on 70 000 referred patients).
 */
export function referrerFigures(ids: number[], period: PaidPeriod, rates: Map<number, number>) {
  const figures = new Map<number, { patients: number; surgeries: number; paidSurgeries: number; paidCents: number; commissionCents: number }>();
  if (!ids.length) return figures;
  for (const id of ids) figures.set(id, { patients: 0, surgeries: 0, paidSurgeries: 0, paidCents: 0, commissionCents: 0 });
  for (const row of db.select().from(referrerCounts).where(inArray(referrerCounts.referrerId, ids)).all()) {
    Object.assign(figures.get(row.referrerId)!, { patients: row.patients, surgeries: row.surgeries });
  }
  const paidRows = db
    .select({ referrerId: referrerPaidDays.referrerId, n: sum(referrerPaidDays.n).mapWith(Number), cents: sum(referrerPaidDays.cents).mapWith(Number) })
    .from(referrerPaidDays)
    .where(and(inArray(referrerPaidDays.referrerId, ids), between(referrerPaidDays.day, period.fromIso, period.toIso)))
    .groupBy(referrerPaidDays.referrerId)
    .all();
  for (const row of paidRows) {
    const figure = figures.get(row.referrerId)!;
    figure.paidSurgeries = row.n;
    figure.paidCents = row.cents;
    figure.commissionCents = Math.round(row.cents * (rates.get(row.referrerId) ?? 0));
  }
  return figures;
}

/**
 * The list with each referrer's figures, a page kept until the next write (`pageUntilWrite`): its
 * figures change with any write to the referrers, the referrals or a surgery's payment, tables not
 * versioned one by one.
 */
export function listReferrers(state: ListParams<"name">, period: PaidPeriod) {
  return pageUntilWrite("referrers", [state, period], () => readReferrers(state, period));
}

function readReferrers(state: ListParams<"name">, period: PaidPeriod) {
  const where = matchAllWords(state.q, (word) => likeWord(referrers.searchText, word));
  const order = { key: referrers.searchText, id: referrers.id, dir: state.dir };
  const page = keysetList(
    referrers,
    where,
    state,
    order,
    (at, orderBy, limit, offset) =>
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
        .where(at)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  );
  const figures = referrerFigures(
    page.rows.map((row) => row.id),
    period,
    new Map(page.rows.map((row) => [row.id, row.commissionRate])),
  );
  return { ...page, rows: page.rows.map((row) => ({ ...row, ...figures.get(row.id)! })) };
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

/** Referred patients shown per page of the `?view=` dialog. */
export const REFERRED_PAGE_SIZE = 20;

/** A page of the patients a referrer sent: a search among them and the cursor of the page. */
export interface ReferredPage {
  q?: string;
  before?: number | null;
  after?: number | null;
}

/**
 * A referrer's dialog (`?view=`): the referrer's name and a page of the patients they sent
 * (`referredPatients`), kept until the next write like a list's page, its rows sent as JSON made
 * once. `referrer` is null when there is no such referrer.
 */
export function referrerView(referrerId: number, page: ReferredPage) {
  return pageUntilWrite("referrer-view", [referrerId, page.q ?? "", page.before ?? null, page.after ?? null], () => {
    const referrer = db.select({ id: referrers.id, name: referrers.name }).from(referrers).where(eq(referrers.id, referrerId)).get() ?? null;
    return { referrer, ...(referrer ? referredPatients(referrerId, page) : { rows: [], total: 0, olderBefore: null, newerAfter: null }) };
  });
}

/**
 * The patients a referrer sent, the latest registered first, a page at a time: read through
 * `patient_referrals_referrer_idx` from the cursor (`before` the oldest of the page shown, or
 * `after` its newest), so a page of a referrer who sent 13 000 patients costs what one of ten
 * does. `q` keeps those the patients' search finds; `total` is how many the referrer sent.
 */
export function referredPatients(referrerId: number, { q = "", before = null, after = null }: ReferredPage = {}) {
  const backwards = after !== null;
  const found = db
    .select({ id: patients.id, name: patients.name })
    .from(patientReferrals)
    .innerJoin(patients, eq(patients.id, patientReferrals.patientId))
    .where(
      and(
        eq(patientReferrals.referrerId, referrerId),
        before !== null ? lt(patientReferrals.patientId, before) : undefined,
        after !== null ? gt(patientReferrals.patientId, after) : undefined,
        q ? patientSearch(q) : undefined,
      ),
    )
    .orderBy(backwards ? asc(patientReferrals.patientId) : desc(patientReferrals.patientId))
    .limit(REFERRED_PAGE_SIZE + 1)
    .all();
  const more = found.length > REFERRED_PAGE_SIZE;
  const rows = found.slice(0, REFERRED_PAGE_SIZE);
  if (backwards) rows.reverse();
  const total = db.select({ n: referrerCounts.patients }).from(referrerCounts).where(eq(referrerCounts.referrerId, referrerId)).get()?.n ?? 0;
  return {
    rows,
    total,
    /** The cursors of the pages around this one: older patients (`before`), newer ones (`after`). */
    olderBefore: rows.length && (backwards || more) ? rows[rows.length - 1].id : null,
    newerAfter: rows.length && (backwards ? more : before !== null) ? rows[0].id : null,
  };
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
