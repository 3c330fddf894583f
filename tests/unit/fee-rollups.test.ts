/**
 * The honorários per doctor read from maintained monthly sums (`fee_doctor_months`, migration
 * 0042) equal a recomputation from every line, in JavaScript: many random writes to the fee lines
 * and their surgeries through raw SQL (lines added with and without a date, moved to another
 * doctor, surgery, role or date, their amount changed or set to no date, deleted one by one or with
 * their surgery, surgeries rescheduled across old summer times and São Paulo midnights), then every
 * report of many ranges and of each doctor must be equal. Also: the triggers leave exactly what the
 * migration's backfill builds from the same lines.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { sqlite } from "~/.server/db";
import { isoDateInClinic } from "~/lib/dates";
import { addDaysIso } from "~/lib/kpi-period";
import { type DoctorFees, computeFeesByDoctor } from "~/models/honorarios.server";
import { Random } from "~db/seed/random";
import { randomInstantOf } from "../support/random-instants";
import { insertDoctor, insertPatient, loginAs } from "./helpers";

const ROLES = ["principal", "auxiliar", "anestesista"] as const;
/** Deterministic pseudo-random numbers, so a failure can be replayed. */
const rng = new Random(20261130);

let doctors: number[];
let patients: number[];

/** A random São Paulo day from 2017 (the last summer times) to 2027. */
const randomDay = () => addDaysIso("2017-01-01", rng.int(0, 10 * 365));

/** A random instant of a random day (`randomInstantOf`). */
const randomInstant = () => randomInstantOf(rng, randomDay());

const idsOf = (sql: string) => (sqlite.prepare(sql).all() as { id: number }[]).map((row) => row.id);

function newSurgery(): number {
  return Number(
    sqlite
      .prepare("insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date) values (?, ?, 'Artrodese', ?)")
      .run(rng.pick(patients), rng.pick(doctors), randomInstant()).lastInsertRowid,
  );
}

/** A line of `surgeryId`: most without a date (given the surgery's), some with another. */
function newLine(surgeryId: number) {
  const date = rng.chance(0.7) ? null : randomInstant();
  sqlite
    .prepare("insert into surgery_fee_lines (surgery_id, doctor_id, role, amount_cents, service_date) values (?, ?, ?, ?, ?)")
    .run(surgeryId, rng.pick(doctors), rng.pick(ROLES), rng.int(0, 500_000), date);
}

/** Kinds of write made, so the test can show each was exercised. */
const writes = new Map<string, number>();

/** One random write to the lines or their surgeries. */
function randomWrite() {
  const surgeries = idsOf("select id from surgeries");
  const lines = idsOf("select id from surgery_fee_lines");
  const kind = rng.pick(["surgery", "line", "line", "doctor", "surgery of a line", "role", "amount", "date", "no date", "reschedule", "delete line", "delete surgery"] as const);
  const line = lines.length ? rng.pick(lines) : null;
  switch (kind) {
    case "surgery": {
      const id = newSurgery();
      for (let i = rng.int(1, 5); i > 0; i--) newLine(id);
      break;
    }
    case "line":
      if (surgeries.length) newLine(rng.pick(surgeries));
      break;
    case "doctor":
      sqlite.prepare("update surgery_fee_lines set doctor_id = ? where id = ?").run(rng.pick(doctors), line);
      break;
    case "surgery of a line":
      sqlite.prepare("update surgery_fee_lines set surgery_id = ? where id = ?").run(rng.pick(surgeries), line);
      break;
    case "role":
      sqlite.prepare("update surgery_fee_lines set role = ? where id = ?").run(rng.pick(ROLES), line);
      break;
    case "amount":
      sqlite.prepare("update surgery_fee_lines set amount_cents = ? where id = ?").run(rng.int(0, 500_000), line);
      break;
    case "date":
      sqlite.prepare("update surgery_fee_lines set service_date = ? where id = ?").run(randomInstant(), line);
      break;
    case "no date":
      sqlite.prepare("update surgery_fee_lines set service_date = null where id = ?").run(line);
      break;
    case "reschedule":
      // Every line of the surgery follows its new date (migration 0020).
      sqlite.prepare("update surgeries set scheduled_date = ? where id = ?").run(randomInstant(), rng.pick(surgeries));
      break;
    case "delete line":
      sqlite.prepare("delete from surgery_fee_lines where id = ?").run(line);
      break;
    case "delete surgery":
      if (rng.chance(0.3)) sqlite.prepare("delete from surgeries where id = ?").run(rng.pick(surgeries));
      break;
  }
  writes.set(kind, (writes.get(kind) ?? 0) + 1);
}

/** The report recomputed from every line, each line's São Paulo day found in JavaScript. */
function reference(range: { from: string | null; to: string | null }, doctorId: number | null): DoctorFees[] {
  const lines = sqlite.prepare("select surgery_id as surgeryId, doctor_id as doctorId, role, amount_cents as amount, service_date as at from surgery_fee_lines").all() as {
    surgeryId: number;
    doctorId: number;
    role: (typeof ROLES)[number];
    amount: number;
    at: number | null;
  }[];
  const inRange = (at: number | null) => {
    if (!range.from && !range.to) return true;
    const day = at === null ? null : isoDateInClinic(at);
    return day !== null && (!range.from || day >= range.from) && (!range.to || day <= range.to);
  };
  const byDoctor = new Map<number, { surgeries: Set<number>; principal: number; auxiliar: number; anestesista: number }>();
  for (const line of lines) {
    if (!inRange(line.at) || (doctorId !== null && line.doctorId !== doctorId)) continue;
    const sums = byDoctor.get(line.doctorId) ?? { surgeries: new Set<number>(), principal: 0, auxiliar: 0, anestesista: 0 };
    sums.surgeries.add(line.surgeryId);
    sums[line.role] += line.amount;
    byDoctor.set(line.doctorId, sums);
  }
  const names = new Map((sqlite.prepare("select id, name, specialty from doctors").all() as { id: number; name: string; specialty: string }[]).map((d) => [d.id, d]));
  return [...byDoctor]
    .map(([id, sums]) => ({
      id,
      name: names.get(id)!.name,
      specialty: names.get(id)!.specialty,
      qty: sums.surgeries.size,
      total_principal: sums.principal,
      total_auxiliar: sums.auxiliar,
      total_anestesista: sums.anestesista,
      total: sums.principal + sums.auxiliar + sums.anestesista,
    }))
    .sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : 1));
}

/** Ranges of every shape: none, open at either end, whole months and years, loose days, one day, a summer-time change. */
function ranges(): { from: string | null; to: string | null }[] {
  const fixed = [
    { from: null, to: null },
    { from: "2019-01-01", to: null },
    { from: null, to: "2021-06-15" },
    { from: "2018-11-01", to: "2018-11-30" },
    { from: "2018-11-04", to: "2019-02-17" },
    { from: "2019-02-16", to: "2019-02-16" },
    { from: "2020-01-01", to: "2022-12-31" },
    { from: "2019-12-31", to: "2023-01-01" },
    { from: "2020-03-15", to: "2020-04-14" },
    { from: "2024-02-01", to: "2024-02-29" },
  ];
  const random = Array.from({ length: 12 }, () => {
    const [a, b] = [randomDay(), randomDay()].sort();
    return { from: rng.chance(0.1) ? null : a, to: rng.chance(0.1) ? null : b };
  });
  return [...fixed, ...random];
}

const everyone = { ownDoctorOnly: false, doctorId: null };

beforeAll(async () => {
  await loginAs("admin");
  doctors = ["Dra. Ana Rollup", "Dr. Bruno Rollup", "Dra. Carla Rollup", "Dr. Davi Rollup"].map((name, i) => insertDoctor(name, { crm: String(880_000 + i) }));
  patients = Array.from({ length: 12 }, (_, i) => insertPatient(`Paciente Rollup ${i}`));
  for (let i = 0; i < 40; i++) {
    const id = newSurgery();
    for (let j = rng.int(1, 4); j > 0; j--) newLine(id);
  }
});

describe("the honorários per doctor from their monthly sums", () => {
  it("equal the report recomputed from every line, through random writes of every kind, for ranges of every shape and each doctor", () => {
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 40; i++) randomWrite();
      for (const range of ranges()) {
        const label = `round ${round} ${range.from}..${range.to}`;
        expect(computeFeesByDoctor({ ...range, doctorId: null }, everyone), label).toEqual(reference(range, null));
        const doctorId = rng.pick(doctors);
        expect(computeFeesByDoctor({ ...range, doctorId }, everyone), `${label} doctor ${doctorId}`).toEqual(reference(range, doctorId));
        expect(computeFeesByDoctor({ ...range, doctorId: null }, { ownDoctorOnly: true, doctorId }), `${label} as doctor ${doctorId}`).toEqual(reference(range, doctorId));
      }
    }
    for (const kind of ["surgery", "line", "doctor", "surgery of a line", "role", "amount", "date", "no date", "reschedule", "delete line", "delete surgery"]) {
      expect(writes.get(kind) ?? 0, kind).toBeGreaterThan(3);
    }
    // The lines moved to other dates made surgeries whose lines fall in several months, and some are
    // without a date: the report took both into account.
    expect((sqlite.prepare("select count(*) as n from fee_doctor_split_surgeries").get() as { n: number }).n).toBeGreaterThan(5);
    expect((sqlite.prepare("select count(*) as n from surgery_fee_lines where service_date is null").get() as { n: number }).n).toBeGreaterThan(0);
  }, 120_000);

  it("a line written without a date is counted under its surgery's, once", () => {
    const surgeryId = newSurgery();
    const doctorId = doctors[0];
    sqlite.prepare("insert into surgery_fee_lines (surgery_id, doctor_id, role, amount_cents) values (?, ?, 'principal', 1000)").run(surgeryId, doctorId);
    const day = isoDateInClinic(sqlite.prepare("select scheduled_date from surgeries where id = ?").pluck().get(surgeryId) as number)!;
    const month = (sqlite.prepare("select month from fee_doctor_months where doctor_id = ? and month = ?").pluck().get(doctorId, day.slice(0, 7)) as string | undefined) ?? null;
    expect(month).toBe(day.slice(0, 7));
    const range = { from: day, to: day };
    expect(computeFeesByDoctor({ ...range, doctorId }, everyone)).toEqual(reference(range, doctorId));
  });

  it("the triggers leave exactly what the migration's backfill builds from the same lines", () => {
    for (let i = 0; i < 100; i++) randomWrite();
    const snapshot = () => ({
      months: sqlite.prepare("select * from fee_doctor_months order by doctor_id, month").all(),
      split: sqlite.prepare("select * from fee_doctor_split_surgeries order by doctor_id, surgery_id").all(),
    });
    const maintained = snapshot();
    expect(maintained.months.length).toBeGreaterThan(50);
    const statements = readFileSync("drizzle/0042_fee_doctor_months.sql", "utf8").split("--> statement-breakpoint");
    const backfill = statements.filter((s) => /^\s*INSERT INTO fee_doctor_/.test(s.replace(/^\s*--.*$/gm, "")));
    expect(backfill).toHaveLength(2);
    sqlite.exec("begin");
    try {
      sqlite.exec("delete from fee_doctor_months; delete from fee_doctor_split_surgeries;");
      for (const statement of backfill) sqlite.exec(statement);
      expect(snapshot()).toEqual(maintained);
    } finally {
      sqlite.exec("rollback");
    }
  });
});
