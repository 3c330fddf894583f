/**
 * The maintained KPI aggregates (docs/decisions/0023-kpi-aggregates.md) against a full
 * recomputation: many random writes through the real models and through raw SQL, then the
 * screens' reports compared with the reference implementation (the raw-table queries the screens
 * ran before, kept in tests/support/kpi-reference) for several periods, a daylight-saving-era one
 * included, with and without the doctor filter. Also: the migration's backfill gives the same rows
 * as the triggers, and the new queries read only primary-key ranges.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, doctors, financialTransactions, messages, patientReferrals, patients, referrers, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { parseKpiPeriod } from "~/lib/kpi-period";
import { AppointmentError, createAppointment, deleteAppointment, updateAppointment } from "~/models/appointment.server";
import { bucketRanges } from "~/models/kpi-buckets.server";
import { OPERATIONAL_BUCKETS_SQL, OPERATIONAL_DAYS_SQL, OPERATIONAL_TODAY_DOCTOR_SQL, OPERATIONAL_TODAY_SQL, operationalKpis } from "~/models/kpi-operacionais.server";
import { ACTIVE_PATIENTS_SQL, FIRST_PATIENT_WITH_INSURANCE_SQL, MESSAGES_BY_STATUS_SQL, NEW_PATIENT_REFERRERS_SQL, NEW_PATIENTS_SQL, metricsKpis } from "~/models/kpi-metricas.server";
import { deletePatient } from "~/models/patient.server";
import { linkPatient } from "~/models/referrer.server";
import { deleteSurgery } from "~/models/surgery.server";
import { anonymisePatient } from "~/.server/lgpd-anonymise";
import type { AppointmentInput } from "~/validation/appointment";
import { referenceMetricsKpis } from "../support/kpi-reference/metricas";
import { referenceOperationalKpis } from "../support/kpi-reference/operacionais";
import { seededRandom } from "../support/random";
import { type SignedIn, insertDoctor, insertPatient, loginAs } from "./helpers";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Seen on 23 November 2026, 12:00 in São Paulo. */
const NOW = new Date("2026-11-23T15:00:00Z");

const random = seededRandom;

/**
 * Instants where mistakes would show: São Paulo's daylight saving time starting (15 Oct 2017,
 * 00:00 → 01:00) and ending (18 Feb 2018, 00:00 → 23:00 the day before), month and period edges,
 * and today around NOW.
 */
const HOT_INSTANTS = [
  "2017-10-15T03:00:00Z",
  "2018-02-18T02:00:00Z",
  "2016-02-21T02:00:00Z",
  "2016-11-24T03:00:00Z",
  "2026-01-01T03:00:00Z",
  "2026-11-01T03:00:00Z",
  "2026-10-01T03:00:00Z",
  "2026-11-23T15:00:00Z",
  "2026-11-24T03:00:00Z",
  "2026-12-01T03:00:00Z",
].map((iso) => new Date(iso).getTime());

const PERIODS = [
  "de=2026-11-01&ate=2026-11-23", // this month so far
  "de=2026-01-01&ate=2026-11-23", // this year so far
  "de=2016-11-24&ate=2026-11-23", // ten years
  "de=2017-10-10&ate=2018-02-20", // across both daylight-saving changes
  "de=2017-10-15&ate=2017-10-15", // the day daylight saving started
  "de=2018-02-17&ate=2018-02-18", // the days around its end
  "de=2026-11-15&ate=2026-12-10", // today in the middle
  "de=2026-08-26&ate=2026-11-23", // 90 days
].map((query) => parseKpiPeriod(new URLSearchParams(query), NOW));

const TIMES = [NOW, new Date("2026-11-24T02:59:00Z"), new Date("2017-10-15T04:30:00Z")];

let admin: SignedIn;
let doctorIds: number[] = [];
let patientIds: number[] = [];

beforeAll(async () => {
  db.delete(messages).run();
  db.delete(financialTransactions).run();
  db.delete(surgeries).run();
  db.delete(appointments).run();
  db.delete(patientReferrals).run();
  db.delete(referrers).run();
  db.delete(doctors).run();
  db.delete(patients).run();
  admin = await loginAs("admin");
  doctorIds = ["Dra. Ana", "Dr. Bruno", "Dra. Carla", "Dr. Davi"].map((name) => insertDoctor(name));
  patientIds = Array.from({ length: 12 }, (_, i) => insertPatient(`Paciente ${i + 1}`));
});

const STATUSES = ["scheduled", "confirmed", "completed", "cancelled"] as const;

function randomStart(r: ReturnType<typeof random>): number {
  if (r.next() < 0.25) return Date.UTC(2015, 0, 1) + r.int(12 * 365 * 48) * (DAY / 48);
  return r.pick(HOT_INSTANTS) + (r.int(145) - 72) * (HOUR / 2);
}

function randomAppointment(r: ReturnType<typeof random>) {
  const start = randomStart(r);
  return {
    patientId: r.pick(patientIds),
    doctorId: r.pick(doctorIds),
    startTime: new Date(start),
    endTime: new Date(start + 30 * 60_000),
    status: r.pick(STATUSES),
    type: "Consulta",
    createdAt: new Date(start - (r.int(70) - 5) * DAY - r.int(24) * HOUR),
  };
}

const someId = (table: string, r: ReturnType<typeof random>) =>
  (sqlite.prepare(`select id from ${table} order by id limit 1 offset ?`).get(r.int(Math.max(1, (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n))) as { id: number } | undefined)?.id;

/** One random write to appointments or surgeries, through a model or raw SQL. */
function randomOperationalWrite(r: ReturnType<typeof random>) {
  const kind = r.int(12);
  const apptId = someId("appointments", r);
  const surgeryId = someId("surgeries", r);
  try {
    switch (kind) {
      case 0:
      case 1: {
        const { createdAt: _createdAt, ...input } = randomAppointment(r);
        createAppointment(admin.id, { ...input, location: null, notes: null } as AppointmentInput);
        break;
      }
      case 2:
        if (apptId) {
          const { createdAt: _createdAt, ...input } = randomAppointment(r);
          updateAppointment(admin.id, apptId, { ...input, location: null, notes: null } as AppointmentInput);
        }
        break;
      case 3:
        if (apptId) deleteAppointment(admin.id, apptId);
        break;
      case 4:
      case 5:
        db.insert(appointments).values(randomAppointment(r)).run();
        break;
      case 6:
        if (apptId) {
          const column = r.pick(["status", "start_time", "doctor_id", "patient_id", "created_at"] as const);
          const a = randomAppointment(r);
          const value = { status: a.status, start_time: a.startTime.getTime(), doctor_id: a.doctorId, patient_id: a.patientId, created_at: a.createdAt.getTime() }[column];
          if (column === "start_time") sqlite.prepare("update appointments set start_time = ?, end_time = ? where id = ?").run(value, Number(value) + 1_800_000, apptId);
          else sqlite.prepare(`update appointments set ${column} = ? where id = ?`).run(value, apptId);
        }
        break;
      case 7:
        if (apptId) sqlite.prepare("delete from appointments where id = ?").run(apptId);
        break;
      case 8:
      case 9: {
        // A surgery created shortly before or after a random appointment of the patient (or anywhere).
        const base = apptId ? (sqlite.prepare("select patient_id, start_time from appointments where id = ?").get(apptId) as { patient_id: number; start_time: number }) : null;
        const patientId = base && r.next() < 0.8 ? base.patient_id : r.pick(patientIds);
        const createdAt = (base?.start_time ?? randomStart(r)) + (r.int(110) - 10) * DAY + r.int(48) * (HOUR / 2);
        db.insert(surgeries).values({ patientId, doctorId: r.pick(doctorIds), surgeryType: "Artrodese", scheduledDate: new Date(createdAt + 30 * DAY), createdAt: new Date(createdAt), updatedAt: new Date(createdAt) }).run();
        break;
      }
      case 10:
        if (surgeryId) {
          if (r.next() < 0.5) sqlite.prepare("update surgeries set patient_id = ? where id = ?").run(r.pick(patientIds), surgeryId);
          else sqlite.prepare("update surgeries set created_at = created_at + ? where id = ?").run((r.int(120) - 60) * DAY, surgeryId);
        }
        break;
      case 11:
        if (surgeryId) {
          if (r.next() < 0.5) deleteSurgery(admin.id, surgeryId);
          else sqlite.prepare("delete from surgeries where id = ?").run(surgeryId);
        }
        break;
    }
  } catch (error) {
    // A refused booking (clash, inactive doctor) or a surgery the model keeps is a write that did not happen.
    if (!(error instanceof AppointmentError) && !(error instanceof Error && /não|cannot|FOREIGN KEY/i.test(error.message))) throw error;
  }
}

function expectOperationalMatchesReference() {
  for (const [i, parsed] of PERIODS.entries()) {
    for (const doctorId of [null, doctorIds[0], doctorIds[3]]) {
      // Every period at NOW; the clock's other positions on the periods around them.
      for (const now of i === 0 || i === 4 || i === 6 ? TIMES : [NOW]) {
        const query = { period: parsed.period, previous: parsed.previous };
        expect(operationalKpis(query, { doctorId }, now), `${parsed.period.from}..${parsed.period.to} doctor ${doctorId} at ${now.toISOString()}`).toEqual(
          referenceOperationalKpis(query, { doctorId }, now),
        );
      }
    }
  }
}

/** The migration's backfill statements (everything before its first view), run again on the rows there now. */
function rerunBackfill() {
  const file = fs.readdirSync(path.resolve("drizzle")).find((name) => /^\d{4}_kpi_aggregate_triggers\.sql$/.test(name))!;
  const text = fs.readFileSync(path.resolve("drizzle", file), "utf8");
  const backfill = text.slice(0, text.indexOf("CREATE VIEW")).split("--> statement-breakpoint").slice(1);
  const tables = ["kpi_appointment_buckets", "kpi_patient_days", "kpi_active_points", "kpi_new_patients", "kpi_new_patient_referrers", "kpi_outbound_messages"];
  const nonZero: Record<string, string> = {
    kpi_appointment_buckets: "total <> 0 or converted <> 0",
    kpi_patient_days: "n <> 0",
    kpi_active_points: "n <> 0",
    kpi_new_patients: "n <> 0",
    kpi_new_patient_referrers: "n <> 0",
    kpi_outbound_messages: "n <> 0",
  };
  const snapshot = () =>
    Object.fromEntries(tables.map((t) => [t, sqlite.prepare(`select * from ${t} where ${nonZero[t]}`).all().map((row) => JSON.stringify(row)).sort()]));
  const byTriggers = snapshot();
  // As in the migration, the backfill runs without the triggers (they would count its rows twice).
  const triggers = sqlite.prepare("select name, sql from sqlite_master where type = 'trigger' and tbl_name like 'kpi\\_%' escape '\\'").all() as { name: string; sql: string }[];
  expect(triggers.map((t) => t.name)).toContain("kpi_patient_days_ai");
  sqlite.transaction(() => {
    for (const t of triggers) sqlite.exec(`drop trigger ${t.name}`);
    for (const t of tables) sqlite.prepare(`delete from ${t}`).run();
    for (const statement of backfill) sqlite.exec(statement);
    for (const t of triggers) sqlite.exec(t.sql);
  })();
  return { byTriggers, byBackfill: snapshot() };
}

describe("KPIs Operacionais from maintained aggregates", () => {
  it("equal a full recomputation after many random writes (models and raw SQL), for every period, doctor and clock", () => {
    const r = random(20261123);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 150; i++) randomOperationalWrite(r);
      expectOperationalMatchesReference();
    }
    // The random writes did reach every branch that matters.
    const counts = sqlite.prepare("select count(*) as n, sum(status = 'completed') as done from appointments").get() as { n: number; done: number };
    expect(counts.n).toBeGreaterThan(60);
    expect(counts.done).toBeGreaterThan(10);
    const converted = sqlite.prepare("select coalesce(sum(converted), 0) as n from kpi_appointment_buckets where doctor_id = 0 and grain = 'd'").get() as { n: number };
    expect(converted.n).toBeGreaterThan(5);
  }, 120_000);

  it("the migration's backfill gives the rows the triggers keep, and the triggers go on from it", () => {
    const { byTriggers, byBackfill } = rerunBackfill();
    expect(byBackfill).toEqual(byTriggers);
    const r = random(7);
    for (let i = 0; i < 150; i++) randomOperationalWrite(r);
    expectOperationalMatchesReference();
  }, 60_000);

  it("puts an appointment on its São Paulo day in the daylight-saving era", () => {
    // 14 Oct 2017 23:30 in São Paulo (UTC−3) is 02:30 UTC on the 15th; the next hour was skipped.
    const at = (iso: string) => new Date(iso);
    const before = sqlite.prepare("select count(*) as n from appointments").get() as { n: number };
    db.insert(appointments)
      .values([
        { patientId: patientIds[0], doctorId: doctorIds[1], startTime: at("2017-10-15T02:30:00Z"), endTime: at("2017-10-15T03:00:00Z"), type: "Consulta", status: "completed" },
        // 15 Oct 2017 00:30 is already 01:30 summer time (UTC−2): 03:30 UTC.
        { patientId: patientIds[0], doctorId: doctorIds[1], startTime: at("2017-10-15T03:30:00Z"), endTime: at("2017-10-15T04:00:00Z"), type: "Consulta", status: "completed" },
        // 17 Feb 2018 23:30 summer time (UTC−2) is 01:30 UTC on the 18th; 18 Feb 00:30 (UTC−3 again) is 03:30 UTC.
        { patientId: patientIds[1], doctorId: doctorIds[1], startTime: at("2018-02-18T01:30:00Z"), endTime: at("2018-02-18T02:00:00Z"), type: "Consulta", status: "scheduled" },
        { patientId: patientIds[1], doctorId: doctorIds[1], startTime: at("2018-02-18T03:30:00Z"), endTime: at("2018-02-18T04:00:00Z"), type: "Consulta", status: "scheduled" },
      ])
      .run();
    expect((sqlite.prepare("select count(*) as n from appointments").get() as { n: number }).n).toBe(before.n + 4);
    const days = (from: string, to: string) =>
      Object.fromEntries(
        (sqlite.prepare(OPERATIONAL_DAYS_SQL).all({ doctor: doctorIds[1], lo: from, hi: to }) as { day: string; total: number }[]).filter((d) => d.total > 0).map((d) => [d.day, d.total]),
      );
    const reference = (from: string, to: string) => {
      const parsed = parseKpiPeriod(new URLSearchParams(`de=${from}&ate=${to}`), NOW);
      const rows = referenceOperationalKpis(parsed, { doctorId: doctorIds[1] }, NOW).tables[0].rows;
      return Object.fromEntries(rows.filter((row) => Number(row.consultas) + Number(row.canceladas) > 0).map((row) => [String(row.dia).split("/").reverse().join("-"), Number(row.consultas) + Number(row.canceladas)]));
    };
    expect(days("2017-10-14", "2017-10-15")).toEqual(reference("2017-10-14", "2017-10-15"));
    expect(days("2018-02-17", "2018-02-18")).toEqual(reference("2018-02-17", "2018-02-18"));
    expect(days("2017-10-14", "2017-10-14")["2017-10-14"]).toBeGreaterThanOrEqual(1);
    expect(days("2018-02-17", "2018-02-17")["2018-02-17"]).toBeGreaterThanOrEqual(1);
    expectOperationalMatchesReference();
  }, 60_000);

  it("reads only primary-key ranges of the aggregates, and today's appointments from the covering index", () => {
    const plan = (statement: string, params: Record<string, unknown>) =>
      (sqlite.prepare(`explain query plan ${statement}`).all(params) as { detail: string }[]).map((row) => row.detail).join("\n");
    for (const statement of [OPERATIONAL_BUCKETS_SQL, OPERATIONAL_DAYS_SQL]) {
      const p = plan(statement, { doctor: 1, grain: "d", lo: "a", hi: "b" });
      expect(p, p).toMatch(/SEARCH kpi_appointment_buckets USING PRIMARY KEY \(doctor_id=\? AND grain=\? AND bucket>\? AND bucket<\?\)/);
      expect(p, p).not.toMatch(/\bSCAN\b|TEMP B-TREE/);
    }
    for (const statement of [OPERATIONAL_TODAY_SQL, OPERATIONAL_TODAY_DOCTOR_SQL]) {
      const p = plan(statement, { doctor: 1, start: 0, now: 1 });
      expect(p, p).toMatch(/COVERING INDEX appointments_kpi_(doctor_)?start_idx/);
      expect(p, p).not.toMatch(/\bSCAN\b|TEMP B-TREE/);
    }
  });
});

describe("bucket ranges", () => {
  it("cover a period with whole months and the days of its partial months", () => {
    expect(bucketRanges({ from: "2026-11-01", to: "2026-11-23" })).toEqual([{ grain: "d", lo: "2026-11-01", hi: "2026-11-23" }]);
    expect(bucketRanges({ from: "2026-02-01", to: "2026-02-28" })).toEqual([{ grain: "m", lo: "2026-02", hi: "2026-02" }]);
    expect(bucketRanges({ from: "2016-11-24", to: "2026-11-23" })).toEqual([
      { grain: "d", lo: "2016-11-24", hi: "2016-11-30" },
      { grain: "m", lo: "2016-12", hi: "2026-10" },
      { grain: "d", lo: "2026-11-01", hi: "2026-11-23" },
    ]);
    expect(bucketRanges({ from: "2024-01-15", to: "2024-02-29" })).toEqual([
      { grain: "d", lo: "2024-01-15", hi: "2024-01-31" },
      { grain: "m", lo: "2024-02", hi: "2024-02" },
    ]);
    expect(bucketRanges({ from: "2025-12-31", to: "2026-01-01" })).toEqual([
      { grain: "d", lo: "2025-12-31", hi: "2025-12-31" },
      { grain: "d", lo: "2026-01-01", hi: "2026-01-01" },
    ]);
    expect(bucketRanges({ from: "2026-01-02", to: "2026-01-01" })).toEqual([]);
  });
});

const INSURERS = ["Unimed", " unimed ", "UNIMED", "Bradesco  Saúde", "bradesco saúde", null, "", "  ", "Amil", "não informado", "SulAmérica"];
const REFERRER_NAMES = ["Dr. Xavier", "Dr. Xavier", "Dra. Yara", "Dr. Zeca"];
const MESSAGE_STATUSES = ["queued", "sent", "delivered", "read", "failed"] as const;

/** One random write to patients, referrals, referrers or messages (or, a third of the time, to the agenda). */
function randomMetricsWrite(r: ReturnType<typeof random>) {
  const patientId = someId("patients", r);
  const referrerId = someId("referrers", r);
  const messageId = someId("messages", r);
  try {
    switch (r.int(15)) {
      case 0:
      case 1: {
        const created = new Date(randomStart(r));
        patientIds.push(insertPatient(`Paciente novo ${r.int(1e6)}`, { insurance: r.pick(INSURERS), createdAt: created, updatedAt: created }));
        break;
      }
      case 2:
        if (patientId) sqlite.prepare("update patients set insurance = ? where id = ?").run(r.pick(INSURERS), patientId);
        break;
      case 3:
        if (patientId) sqlite.prepare("update patients set created_at = ? where id = ?").run(randomStart(r), patientId);
        break;
      case 4:
        if (patientId) {
          if (r.next() < 0.5) deletePatient(admin.id, patientId);
          else sqlite.prepare("delete from patients where id = ?").run(patientId);
        }
        break;
      case 5:
        if (patientId) anonymisePatient(admin.id, patientId);
        break;
      case 6:
        db.insert(referrers).values({ name: r.pick(REFERRER_NAMES) }).run();
        break;
      case 7:
        if (referrerId && patientId) linkPatient(admin.id, referrerId, patientId);
        break;
      case 8:
        if (referrerId && patientId) {
          if (r.next() < 0.5) sqlite
              .prepare("insert into patient_referrals (patient_id, referrer_id, created_at, updated_at) values (?, ?, 0, 0) on conflict (patient_id) do update set referrer_id = excluded.referrer_id")
              .run(patientId, referrerId);
          else sqlite.prepare("update patient_referrals set referrer_id = ? where patient_id = ?").run(referrerId, patientId);
        }
        break;
      case 9:
        if (patientId) sqlite.prepare("delete from patient_referrals where patient_id = ?").run(patientId);
        break;
      case 10:
        if (referrerId && r.next() < 0.3) sqlite.prepare("delete from referrers where id = ?").run(referrerId);
        break;
      case 11: {
        const created = new Date(randomStart(r));
        db.insert(messages)
          .values({ patientId: patientId ?? null, patientName: "Paciente", body: "Olá", status: r.pick(MESSAGE_STATUSES), direction: r.next() < 0.8 ? "outbound" : "inbound", createdAt: created, updatedAt: created })
          .run();
        break;
      }
      case 12:
        if (messageId) {
          if (r.next() < 0.7) sqlite.prepare("update messages set status = ? where id = ?").run(r.pick(MESSAGE_STATUSES), messageId);
          else sqlite.prepare("update messages set direction = case direction when 'outbound' then 'inbound' else 'outbound' end, created_at = ? where id = ?").run(randomStart(r), messageId);
        }
        break;
      case 13:
        if (messageId) sqlite.prepare("delete from messages where id = ?").run(messageId);
        break;
      default:
        randomOperationalWrite(r);
    }
  } catch (error) {
    // A refused delete (the patient has appointments) or anonymisation (already done) did not happen.
    if (!(error instanceof Error && /não|já|FOREIGN KEY/i.test(error.message))) throw error;
  }
}

function expectMetricsMatchReference() {
  for (const parsed of PERIODS) {
    const query = { period: parsed.period, previous: parsed.previous };
    expect(metricsKpis(query), `${parsed.period.from}..${parsed.period.to}`).toEqual(referenceMetricsKpis(query));
  }
}

describe("KPIs Métricas from maintained aggregates", () => {
  it("equal a full recomputation after many random writes (models and raw SQL), for every period", () => {
    const r = random(1914);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 200; i++) randomMetricsWrite(r);
      expectMetricsMatchReference();
    }
    // The random writes did reach the cases that matter: spellings, namesakes, messages, active patients.
    const namesakes = sqlite.prepare("select count(*) as n from (select name from referrers join patient_referrals on referrer_id = referrers.id group by name having count(distinct referrers.id) > 1)").get() as { n: number };
    expect(namesakes.n).toBeGreaterThan(0);
    expect((sqlite.prepare("select count(distinct lower(trim(insurance))) as n from patients").get() as { n: number }).n).toBeGreaterThan(3);
    expect((sqlite.prepare("select count(*) as n from messages where direction = 'outbound'").get() as { n: number }).n).toBeGreaterThan(3);
    expect((sqlite.prepare("select count(*) as n from kpi_patient_days").get() as { n: number }).n).toBeGreaterThan(30);
  }, 120_000);

  it("the backfill gives the rows the triggers keep, after writes to every table", () => {
    const { byTriggers, byBackfill } = rerunBackfill();
    expect(byBackfill).toEqual(byTriggers);
    const r = random(2019);
    for (let i = 0; i < 150; i++) randomMetricsWrite(r);
    expectMetricsMatchReference();
  }, 60_000);

  it("reads only primary-key ranges and seeks", () => {
    const plan = (sql: string) =>
      (sqlite.prepare(`explain query plan ${sql}`).all({ grain: "d", lo: "a", hi: "b", bucket: "a", fromMonth: "a", fromMonthStart: "a", from: "a", insurance: "x", start: 0, end: 1, referrer: 1 }) as { detail: string }[])
        .map((row) => row.detail)
        .join("\n");
    for (const [sql, table] of [
      [NEW_PATIENTS_SQL, "kpi_new_patients"],
      [NEW_PATIENT_REFERRERS_SQL, "kpi_new_patient_referrers"],
      [MESSAGES_BY_STATUS_SQL, "kpi_outbound_messages"],
      [ACTIVE_PATIENTS_SQL, "kpi_active_points"],
    ]) {
      const p = plan(sql);
      expect(p, p).toMatch(new RegExp(`SEARCH ${table} USING PRIMARY KEY`));
      expect(p, p).not.toMatch(/\bSCAN (?!CONSTANT ROW)|TEMP B-TREE/);
    }
    const p = plan(FIRST_PATIENT_WITH_INSURANCE_SQL);
    expect(p, p).toMatch(/SEARCH patients USING (COVERING )?INDEX patients_insurance_created_idx/);
    expect(p, p).not.toMatch(/\bSCAN\b|TEMP B-TREE/);
  });
});
