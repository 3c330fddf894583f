/**
 * The referrers' figures kept by the triggers of migration 0049 (`referrer_counts`,
 * `referrer_paid_days`) against a full recomputation: many random writes to the referrals, the
 * referrers and the surgeries, through the models and through raw SQL, then every referrer's
 * figures compared with the join /referrers ran before, for periods across São Paulo's
 * daylight-saving changes. Also: the migration's backfill gives the rows the triggers keep, the
 * list reads no big table, the referred patients' dialog pages through a referrer's patients, and the
 * commission period is a filter of the list.
 */
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { patientReferrals, referrers, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { addDaysInClinic, startOfIsoDateInClinic } from "~/lib/dates";
import { listUrl, parseListState } from "~/lib/list-params";
import { REFERRER_LIST } from "~/lib/lists";
import { REFERRED_PAGE_SIZE, type PaidPeriod, createReferrer, linkPatient, listReferrers, referredPatients, referrerFigures, referrerView, unlinkPatient } from "~/models/referrer.server";
import { referrerSchema } from "~/validation/referrer";
import { seededRandom } from "../support/random";
import { type SignedIn, insertDoctor, insertPatient, loginAs } from "./helpers";

/** Instants where a wrong São Paulo day would show: daylight saving starting (15 Oct 2017, 00:00 → 01:00) and ending (18 Feb 2018), midnights. */
const HOT_INSTANTS = [
  "2017-10-15T03:00:00Z",
  "2017-10-15T02:59:59Z",
  "2018-02-18T01:59:00Z",
  "2018-02-18T02:00:00Z",
  "2018-02-17T03:00:00Z",
  "2026-03-01T02:59:59Z",
  "2026-03-01T03:00:00Z",
  "2026-03-31T23:00:00Z",
  "2026-04-01T02:59:59Z",
  "2026-04-01T03:00:00Z",
].map((iso) => new Date(iso).getTime());

const PERIODS: PaidPeriod[] = [
  { fromIso: "2026-03-01", toIso: "2026-03-31" },
  { fromIso: "2017-10-15", toIso: "2017-10-15" },
  { fromIso: "2018-02-17", toIso: "2018-02-18" },
  { fromIso: "2017-10-01", toIso: "2018-03-01" },
  { fromIso: "2000-01-01", toIso: "2030-12-31" },
  { fromIso: "2026-04-01", toIso: "2026-04-01" },
];

const STATUSES = [null, "realizado", "faturado", "pendente", "glosa", "pago", "pago", "pago"] as const;

let admin: SignedIn;
let doctorId: number;
const patientIds: number[] = [];

beforeAll(async () => {
  admin = await loginAs("admin", { email: "referrer-figures-admin@example.com" });
  doctorId = insertDoctor("Dr. Cirurgião das Figuras");
  for (let i = 0; i < 40; i++) patientIds.push(insertPatient(`Paciente Figura ${i}`));
  for (const name of ["Dra. Alfa", "Dr. Beta", "Dra. Gama"]) createReferrer(admin.id, referrerSchema.parse({ name, commissionRate: "0.1" }));
});

type Random = ReturnType<typeof seededRandom>;

function someId(table: "referrers" | "surgeries", r: Random): number | undefined {
  const ids = sqlite.prepare(`select id from ${table}`).pluck().all() as number[];
  return ids.length ? r.pick(ids) : undefined;
}

function randomInstant(r: Random): number {
  return r.next() < 0.5 ? r.pick(HOT_INSTANTS) : new Date("2016-01-01T00:00:00Z").getTime() + r.int(11 * 365) * 86_400_000 + r.int(86_400_000);
}

/** A surgery's payment fields at random: mostly paid with an amount, sometimes without one, or not paid. */
function randomPayment(r: Random) {
  const receivableStatus = r.pick(STATUSES);
  return {
    receivableStatus,
    paidAt: receivableStatus === "pago" || r.next() < 0.1 ? new Date(randomInstant(r)) : null,
    billedAmountCents: r.next() < 0.85 ? 1_000 * (1 + r.int(500)) : null,
  };
}

/** One random write to the referrals, the referrers or the surgeries. */
function randomWrite(r: Random) {
  const patientId = r.pick(patientIds);
  const referrerId = someId("referrers", r);
  const surgeryId = someId("surgeries", r);
  switch (r.int(12)) {
    case 0:
    case 1:
      if (referrerId) linkPatient(admin.id, referrerId, patientId);
      break;
    case 2:
      if (referrerId) {
        sqlite
          .prepare("insert into patient_referrals (patient_id, referrer_id, created_at, updated_at) values (?, ?, 0, 0) on conflict (patient_id) do update set referrer_id = excluded.referrer_id")
          .run(patientId, referrerId);
      }
      break;
    case 3:
      if (r.next() < 0.5) {
        const link = sqlite.prepare("select referrer_id from patient_referrals where patient_id = ?").pluck().get(patientId) as number | undefined;
        if (link) unlinkPatient(admin.id, link, patientId);
      } else sqlite.prepare("update patient_referrals set patient_id = ? where patient_id = ? and not exists (select 1 from patient_referrals where patient_id = ?)").run(r.pick(patientIds), patientId, patientId);
      break;
    case 4:
      if (r.next() < 0.3) db.insert(referrers).values({ name: `Dr. Novo ${r.int(1e6)}` }).run();
      else if (referrerId && r.next() < 0.2) sqlite.prepare("delete from referrers where id = ?").run(referrerId);
      break;
    case 5:
    case 6:
    case 7:
      db.insert(surgeries)
        .values({ patientId, doctorId, surgeryType: "Artrodese lombar", scheduledDate: new Date(randomInstant(r)), ...randomPayment(r) })
        .run();
      break;
    case 8:
    case 9:
      if (surgeryId) db.update(surgeries).set(randomPayment(r)).where(eq(surgeries.id, surgeryId)).run();
      break;
    case 10:
      if (surgeryId) sqlite.prepare("update surgeries set patient_id = ? where id = ?").run(r.pick(patientIds), surgeryId);
      break;
    default:
      if (surgeryId) sqlite.prepare("delete from surgeries where id = ?").run(surgeryId);
  }
}

/** What /referrers counted before the kept tables: every referred patient joined to their surgeries. */
function referenceFigures(ids: number[], period: PaidPeriod, rates: Map<number, number>) {
  const from = startOfIsoDateInClinic(period.fromIso)!.getTime();
  const to = addDaysInClinic(startOfIsoDateInClinic(period.toIso)!, 1).getTime();
  return new Map(
    ids.map((id) => {
      const row = sqlite
        .prepare(
          `select (select count(*) from patient_referrals where referrer_id = @id) as patients,
                  (select count(*) from patient_referrals pr join surgeries s on s.patient_id = pr.patient_id where pr.referrer_id = @id) as surgeries,
                  (select count(*) from patient_referrals pr join surgeries s on s.patient_id = pr.patient_id
                    where pr.referrer_id = @id and s.receivable_status = 'pago' and s.paid_at >= @from and s.paid_at < @to) as paidSurgeries,
                  (select coalesce(sum(s.billed_amount_cents), 0) from patient_referrals pr join surgeries s on s.patient_id = pr.patient_id
                    where pr.referrer_id = @id and s.receivable_status = 'pago' and s.paid_at >= @from and s.paid_at < @to) as paidCents`,
        )
        .get({ id, from, to }) as { patients: number; surgeries: number; paidSurgeries: number; paidCents: number };
      return [id, { ...row, commissionCents: Math.round(row.paidCents * (rates.get(id) ?? 0)) }];
    }),
  );
}

function expectFiguresMatchReference() {
  const ids = sqlite.prepare("select id from referrers").pluck().all() as number[];
  const rates = new Map(ids.map((id) => [id, 0.1]));
  for (const period of PERIODS) {
    expect(referrerFigures(ids, period, rates), `${period.fromIso}..${period.toIso}`).toEqual(referenceFigures(ids, period, rates));
  }
  // No row falls back to zero and stays; no row names a referrer that is gone.
  expect(sqlite.prepare("select count(*) from referrer_paid_days where n = 0").pluck().get()).toBe(0);
  expect(sqlite.prepare("select count(*) from referrer_counts where patients = 0").pluck().get()).toBe(0);
  expect(sqlite.prepare("select count(*) from referrer_counts where referrer_id not in (select id from referrers)").pluck().get()).toBe(0);
  expect(sqlite.prepare("select count(*) from referrer_paid_days where referrer_id not in (select id from referrers)").pluck().get()).toBe(0);
}

/** The migration's backfill statements (those before its first trigger), run again on the rows there now. */
function rerunBackfill() {
  const text = fs.readFileSync(path.resolve("drizzle/0049_referrer_figures.sql"), "utf8");
  const backfill = text
    .slice(0, text.indexOf("CREATE TRIGGER"))
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter((statement) => /^(--[^\n]*\n)*INSERT INTO/.test(statement));
  expect(backfill).toHaveLength(2);
  const snapshot = () =>
    Object.fromEntries(["referrer_counts", "referrer_paid_days"].map((t) => [t, sqlite.prepare(`select * from ${t} order by 1, 2`).all()]));
  const byTriggers = snapshot();
  sqlite.transaction(() => {
    sqlite.exec("delete from referrer_counts; delete from referrer_paid_days;");
    for (const statement of backfill) sqlite.exec(statement);
  })();
  return { byTriggers, byBackfill: snapshot() };
}

describe("a referrer's figures from kept tables", () => {
  it("equal a full recomputation after many random writes (models and raw SQL), for every period", () => {
    const r = seededRandom(49_2026);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 150; i++) randomWrite(r);
      expectFiguresMatchReference();
    }
    // The writes reached what matters: referred patients with paid surgeries in the hot days.
    const reached = sqlite.prepare("select count(*) as days, coalesce(sum(n), 0) as paid from referrer_paid_days").get() as { days: number; paid: number };
    expect(reached.days).toBeGreaterThan(10);
    expect(sqlite.prepare("select count(*) from referrer_paid_days where day in ('2017-10-15', '2018-02-17', '2026-03-31')").pluck().get()).toBeGreaterThan(0);
  });

  it("are what the migration's backfill computes from the rows", () => {
    const { byTriggers, byBackfill } = rerunBackfill();
    expect(byTriggers.referrer_counts.length).toBeGreaterThan(0);
    expect(byBackfill).toEqual(byTriggers);
  });

  it("are read from the kept tables by key, without touching the referrals or the surgeries", () => {
    const statements: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    const spy = (source: string) => (statements.push(source), prepare(source));
    sqlite.prepare = spy as typeof sqlite.prepare;
    try {
      listReferrers({ q: "", page: 1, sort: "name", dir: "asc" }, PERIODS[4]);
    } finally {
      sqlite.prepare = prepare;
    }
    const figures = statements.filter((s) => /referrer_counts|referrer_paid_days/.test(s));
    expect(figures).toHaveLength(2);
    for (const statement of statements) expect(statement).not.toMatch(/\b(from|join) "(patient_referrals|surgeries)"/);
    for (const statement of figures) {
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...Array(statement.split("?").length - 1).fill(1)) as { detail: string }[]).map((row) => row.detail);
      expect(plan.join("\n")).not.toMatch(/^SCAN/m);
    }
  });
});

describe("the patients a referrer sent (`?view=`)", () => {
  it("pages through them, the latest first, forward and back, and finds them by name", () => {
    const referrerId = createReferrer(admin.id, referrerSchema.parse({ name: "Dra. Muitos Pacientes" }));
    const sent: number[] = [];
    for (let i = 0; i < 2 * REFERRED_PAGE_SIZE + 5; i++) {
      const id = insertPatient(i % 10 === 0 ? `Joaquina Encaminhada ${i}` : `Paciente Encaminhado ${i}`);
      db.insert(patientReferrals).values({ patientId: id, referrerId }).run();
      sent.push(id);
    }
    const newestFirst = [...sent].reverse();
    const first = referredPatients(referrerId);
    expect(first.total).toBe(sent.length);
    expect(first.rows.map((p) => p.id)).toEqual(newestFirst.slice(0, REFERRED_PAGE_SIZE));
    expect(first.newerAfter).toBeNull();
    const second = referredPatients(referrerId, { before: first.olderBefore });
    expect(second.rows.map((p) => p.id)).toEqual(newestFirst.slice(REFERRED_PAGE_SIZE, 2 * REFERRED_PAGE_SIZE));
    const third = referredPatients(referrerId, { before: second.olderBefore });
    expect(third.rows.map((p) => p.id)).toEqual(newestFirst.slice(2 * REFERRED_PAGE_SIZE));
    expect(third.olderBefore).toBeNull();
    // Back from the last page: the second again, then the first (which has nothing newer).
    const back = referredPatients(referrerId, { after: third.newerAfter });
    expect(back.rows.map((p) => p.id)).toEqual(second.rows.map((p) => p.id));
    expect(back.olderBefore).toBe(second.olderBefore);
    const backToFirst = referredPatients(referrerId, { after: back.newerAfter });
    expect(backToFirst.rows.map((p) => p.id)).toEqual(first.rows.map((p) => p.id));
    expect(backToFirst.newerAfter).toBeNull();

    const found = referredPatients(referrerId, { q: "joaquina" });
    expect(found.rows.map((p) => p.name)).toEqual(newestFirst.filter((_, i) => (sent.length - 1 - i) % 10 === 0).map((id) => `Joaquina Encaminhada ${sent.indexOf(id)}`));
    expect(found.olderBefore).toBeNull();
    expect(referredPatients(referrerId, { q: "ninguém assim" }).rows).toEqual([]);
  });

  it("are kept with the referrer's name until the next write, and a missing referrer is null", () => {
    const referrerId = createReferrer(admin.id, referrerSchema.parse({ name: "Dr. Guardado" }));
    const first = insertPatient("Primeira Guardada");
    linkPatient(admin.id, referrerId, first);
    const view = referrerView(referrerId, {});
    expect(view.referrer).toEqual({ id: referrerId, name: "Dr. Guardado" });
    expect(view.rows.map((p) => p.id)).toEqual([first]);
    expect(referrerView(referrerId, {})).toBe(view);
    const second = insertPatient("Segunda Guardada");
    linkPatient(admin.id, referrerId, second);
    const after = referrerView(referrerId, {});
    expect(after).not.toBe(view);
    expect(after.rows.map((p) => p.id)).toEqual([second, first]);
    expect(after.total).toBe(2);
    expect(referrerView(referrerId, { q: "segunda" }).rows.map((p) => p.id)).toEqual([second]);
    const missing = referrerView(referrerId + 1_000_000, {});
    expect(missing.referrer).toBeNull();
    expect(missing.rows).toEqual([]);
  });
});

describe("the commission period (`?from=&to=`)", () => {
  it("is a filter of the list: real four-digit dates only, and kept when a dialog closes", () => {
    const url = new URL("http://x/referrers?q=ana&from=2024-02-29&to=2024-02-30&view=3&referredBefore=9&dialog=new");
    expect(parseListState(url, REFERRER_LIST).filters).toEqual({ from: "2024-02-29", to: null });
    expect(listUrl(url, REFERRER_LIST)).toBe("/referrers?q=ana&from=2024-02-29&to=2024-02-30");
    for (const day of ["0005-01-01", "2023-02-29", "2024-13-01", "2024-1-01", "ontem"]) {
      expect(parseListState(new URL(`http://x/referrers?from=${day}`), REFERRER_LIST).filters.from, day).toBeNull();
    }
  });
});
