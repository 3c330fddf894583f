/**
 * Pages past a cursor in a filter that holds most rows, planned with the statistics ANALYZE keeps
 * (sqlite_stat1 and sqlite_stat4): nine surgeries in ten 'Concluído', as at a practice of twenty
 * years. Planned with the screen's joins, such a page skip-scanned another index and sorted every
 * row past the cursor (280 ms at 100 000 surgeries); its ids are read from the table alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sqlite } from "~/.server/db";
import { PIPELINE_STAGE_IDS } from "~/lib/pipeline";
import { loadBoard, loadColumn } from "~/models/pipeline.server";
import { listSurgeries } from "~/models/surgery.server";
import { listAppointments } from "~/models/appointment.server";
import { capturePrepared, insertDoctor, insertHospital, insertPatient, insertPayer } from "../support/fixtures";

const SURGERIES = 2_000;
const HOUR = 3_600_000;
const start = Date.UTC(2010, 0, 1);

beforeAll(() => {
  const patientId = insertPatient("Paciente das Estatísticas");
  const doctors = [insertDoctor("Dr. Estatística Um", { crm: "910001" }), insertDoctor("Dra. Estatística Dois", { crm: "910002" })];
  const others = PIPELINE_STAGE_IDS.filter((stage) => stage !== "concluido");
  const payerId = insertPayer("Convênio das Estatísticas");
  const hospitalId = insertHospital("Hospital das Estatísticas");
  const insert = sqlite.prepare(
    "insert into surgeries (patient_id, doctor_id, payer_id, hospital_id, surgery_type, scheduled_date, current_stage, status) values (?, ?, ?, ?, 'Artrodese', ?, ?, ?)",
  );
  const insertAppointment = sqlite.prepare(
    "insert into appointments (patient_id, doctor_id, start_time, end_time, type, status) values (?, ?, ?, ?, 'Consulta', ?)",
  );
  sqlite.transaction(() => {
    for (let i = 0; i < SURGERIES; i += 1) {
      const concluded = i % 10 !== 0;
      const [payer, hospital] = i % 7 === 0 ? [payerId, hospitalId] : [null, null];
      const at = start + i * HOUR;
      insert.run(patientId, doctors[i % 2], payer, hospital, at, concluded ? "concluido" : others[(i / 10) % others.length], concluded ? "completed" : "scheduled");
      insertAppointment.run(patientId, doctors[i % 2], at, at + HOUR / 2, concluded ? "completed" : "scheduled");
    }
  })();
  sqlite.exec("analyze");
});

const planOf = (statement: string) => {
  const params = (statement.match(/\?/g) ?? []).map((_, i) => (i === 0 ? "concluido" : start + 1000 * HOUR));
  return (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((row) => row.detail).join("\n");
};

describe("a page past a cursor in most of the surgeries", () => {
  it("would sort every row past the cursor if planned with the screen's joins (the statistics reproduce the trap)", () => {
    const joined = planOf(
      `select s.id, p.name, d.name from surgeries s join patients p on p.id = s.patient_id join doctors d on d.id = +s.doctor_id
       where s.current_stage = ? and (s.scheduled_date, s.id) < (?, ?) order by s.scheduled_date desc, s.id desc limit 26`,
    );
    expect(joined, joined).toMatch(/USE TEMP B-TREE FOR ORDER BY/);
  });

  it("reads its ids through the stage's index, then only those rows with their names: the list and the board's column", () => {
    const cursor: [number, number] = [start + 1000 * HOUR, 1001];
    const statements = capturePrepared(() => {
      listSurgeries({ q: "", page: 2, sort: "scheduledDate", dir: "desc", after: cursor }, { status: null, stage: "concluido", doctorId: null });
      listSurgeries({ q: "", page: 2, sort: "scheduledDate", dir: "asc", after: cursor }, { status: null, stage: "concluido", doctorId: null });
      loadColumn("concluido", { q: "", page: 2, sort: "scheduledDate", dir: "asc", after: cursor }, { doctorId: null, payerId: null, hospitalId: null, ans: null });
    });
    const idReads = statements.filter((s) => /^select "surgeries"\."id" as id from "surgeries" indexed by \w+ where .*"current_stage" = \?.* limit \?/.test(s));
    expect(idReads, statements.join("\n")).toHaveLength(3);
    for (const statement of idReads) {
      const plan = planOf(statement);
      expect(plan, plan).toMatch(/SEARCH surgeries USING COVERING INDEX surgeries_stage_date_idx \(current_stage=\? AND scheduled_date[<>]\?\)/);
      expect(plan, plan).not.toMatch(/TEMP B-TREE/);
    }
    // The joined reads take the page's ids: whatever their plan, they sort one page at most.
    const joinedReads = statements.filter((s) => /join "patients"/.test(s));
    expect(joinedReads.length).toBe(3);
    for (const statement of joinedReads) expect(statement).toMatch(/"surgeries"\."id" in \(/);
  });

  it("every filter's named index exists and holds its rows in the list's order: no page sorts its rows", () => {
    const doctorId = sqlite.prepare("select id from doctors order by id desc limit 1").pluck().get() as number;
    const cursor: [number, number] = [start + 1000 * HOUR, 1001];
    const statements = capturePrepared(() => {
      for (const filters of [{ status: "completed" as const }, { doctorId }, { doctorId, stage: "concluido" as const }]) {
        listSurgeries({ q: "", page: 2, sort: "scheduledDate", dir: "desc", after: cursor }, { status: null, stage: null, doctorId: null, ...filters });
      }
      for (const filters of [{ status: "completed" as const }, { doctorId }, { doctorId, status: "completed" as const }]) {
        listAppointments({ q: "", page: 2, sort: "startTime", dir: "desc", after: cursor }, { status: null, doctorId: null, ...filters });
      }
      const [payerId, hospitalId] = ["payers", "hospitals"].map((table) => sqlite.prepare(`select max(id) from ${table}`).pluck().get() as number);
      for (const filters of [{ doctorId }, { payerId }, { hospitalId }]) {
        loadColumn("concluido", { q: "", page: 2, sort: "scheduledDate", dir: "asc", after: cursor }, { doctorId: null, payerId: null, hospitalId: null, ans: null, ...filters });
      }
      // The board's first cards of each column, with each filter.
      for (const filters of [{}, { doctorId }, { payerId }, { hospitalId }]) loadBoard({ doctorId: null, payerId: null, hospitalId: null, ans: null, ...filters });
    });
    const idReads = statements.filter((s) => /^select "(surgeries|appointments)"\."id" as id from "\w+" indexed by \w+ where/.test(s));
    // Nine pages, and the board's columns that hold cards (all ten unfiltered, one doctor's, the payer's and the hospital's).
    expect(idReads.length, statements.join("\n")).toBeGreaterThanOrEqual(9 + 10 + 3);
    for (const statement of idReads) {
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((row) => row.detail).join("\n");
      expect(plan, plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});
