/**
 * KPIs Operacionais and the KPI kit, against rows this file inserts. Period: February 2025
 * (custom range), compared with the 28 days before (4–31 January). Times are São Paulo (UTC-3).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, doctors, financialTransactions, patients, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { KPI_NO_VALUE, formatDelta, formatKpiValue, kpiFigure, kpiFiguresCsvRows, kpiTableCsvRows } from "~/lib/kpi";
import { parseKpiPeriod } from "~/lib/kpi-period";
import {
  OPERATIONAL_BUCKETS_SQL,
  OPERATIONAL_DAYS_SQL,
  OPERATIONAL_TODAY_DOCTOR_SQL,
  OPERATIONAL_TODAY_SQL,
  operationalKpis,
} from "~/models/kpi-operacionais.server";
import { loader } from "~/routes/kpis/operacionais";
import { loader as exportLoader } from "~/routes/kpis/operacionais-export";
import { type SignedIn, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, thrownResponse } from "./helpers";

const NOW = new Date("2025-03-10T12:00:00Z");
const FEB = parseKpiPeriod(new URLSearchParams("de=2025-02-01&ate=2025-02-28"), NOW);
const at = (iso: string) => new Date(iso);
const DAY = 86_400_000;

let drA: number;
let drB: number;
let admin: SignedIn;
let staff: SignedIn;
let doctor: SignedIn;

function appt(patientId: number, doctorId: number, start: string, bookedDaysBefore: number, status: "scheduled" | "confirmed" | "completed" | "cancelled") {
  const startTime = at(start);
  const createdAt = new Date(startTime.getTime() - bookedDaysBefore * DAY);
  db.insert(appointments)
    .values({ patientId, doctorId, startTime, endTime: new Date(startTime.getTime() + 30 * 60_000), type: "Consulta", status, createdAt, updatedAt: createdAt })
    .run();
}

beforeAll(async () => {
  db.delete(financialTransactions).run();
  db.delete(surgeries).run();
  db.delete(appointments).run();
  db.delete(doctors).run();
  db.delete(patients).run();
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctor = await loginAs("doctor");
  drA = insertDoctor("Dra. Ana");
  drB = insertDoctor("Dr. Bruno");
  const p1 = insertPatient("Paciente 1");
  const p2 = insertPatient("Paciente 2");
  // February (SP): 1 Feb 00:30 SP is 03:30 UTC; 28 Feb 23:30 SP is 1 Mar 02:30 UTC (still February).
  appt(p1, drA, "2025-02-01T03:30:00Z", 10, "completed"); // lead 10 d; p1 has a surgery 20 days later → converts
  appt(p2, drA, "2025-02-03T13:00:00Z", 2, "completed"); // lead 2 d; no surgery → does not convert
  appt(p2, drA, "2025-02-03T13:00:00Z", 4, "cancelled"); // same slot, cancelled (no lead)
  appt(p1, drB, "2025-02-10T13:00:00Z", 0, "scheduled"); // past, no outcome; lead 0 d
  appt(p2, drB, "2025-03-01T02:30:00Z", 3, "confirmed"); // 28 Feb SP; past, no outcome; lead 3 d
  appt(p1, drB, "2025-02-20T13:00:00Z", -1, "completed"); // recorded after it happened: no lead
  // Outside February: 31 Jan 23:59 SP (previous period) and 1 Mar 00:00 SP (neither).
  appt(p1, drA, "2025-02-01T02:59:00Z", 5, "completed");
  appt(p2, drA, "2025-03-01T03:00:00Z", 5, "scheduled");
  // January 10: previous period, cancelled.
  appt(p2, drA, "2025-01-10T13:00:00Z", 1, "cancelled");
  db.insert(surgeries)
    .values({ patientId: p1, doctorId: drA, surgeryType: "Artrodese", scheduledDate: at("2025-04-01T12:00:00Z"), createdAt: at("2025-02-21T12:00:00Z"), updatedAt: at("2025-02-21T12:00:00Z") })
    .run();
});

const figure = (report: ReturnType<typeof operationalKpis>, id: string) => report.figures.find((f) => f.id === id)!;

describe("operational figures", () => {
  it("computes every figure to the unit, with the previous period", () => {
    const report = operationalKpis(FEB, { doctorId: null }, NOW);
    // 6 February appointments, 1 cancelled → 5; previous: 31 Jan completed + 10 Jan cancelled → 1.
    expect(figure(report, "consultas")).toMatchObject({ current: 5, previous: 1, deltaPercent: 400 });
    // 1 cancelled of 6 = 16,7 %; previous 1 of 2 = 50 %.
    expect(figure(report, "cancelamento")).toMatchObject({ current: 16.7, previous: 50 });
    // Past non-cancelled: 5; open (scheduled/confirmed): 2 → 40 %.
    expect(figure(report, "sem-desfecho").current).toBe(40);
    // Leads: 10, 2, 0, 3 days (the retroactive one is left out) → 3,75 → 3,8 days; previous: 5 days.
    expect(figure(report, "antecedencia")).toMatchObject({ current: 3.8, previous: 5 });
    // Completed: 3 (p1 1 Feb converts; p2 3 Feb and p1 20 Feb: the surgery was created 1 day after → converts too).
    expect(figure(report, "conversao").current).toBe(66.7);
  });

  it("shows '—' with a reason where the data does not exist, never a number", () => {
    const report = operationalKpis(FEB, { doctorId: null }, NOW);
    for (const id of ["faltas", "ocupacao"]) {
      expect(figure(report, id).current).toBeNull();
      expect(figure(report, id).reason).toMatch(/\w+/);
    }
    const empty = operationalKpis(parseKpiPeriod(new URLSearchParams("de=2020-01-01&ate=2020-01-31"), NOW), { doctorId: null }, NOW);
    expect(figure(empty, "consultas")).toMatchObject({ current: 0, previous: 0, deltaPercent: null });
    for (const id of ["cancelamento", "sem-desfecho", "antecedencia", "conversao"]) {
      expect(figure(empty, id).current).toBeNull();
      expect(figure(empty, id).reason).toBeTruthy();
    }
    expect(empty.tables[1].rows).toEqual([]);
  });

  it("counts per São Paulo day and per doctor, and filters by doctor", () => {
    const report = operationalKpis(FEB, { doctorId: null }, NOW);
    const perDay = report.tables[0];
    expect(perDay.rows).toHaveLength(28);
    expect(perDay.rows[0]).toEqual({ dia: "01/02/2025", consultas: 1, canceladas: 0 });
    expect(perDay.rows[2]).toEqual({ dia: "03/02/2025", consultas: 1, canceladas: 1 });
    expect(perDay.rows[27]).toEqual({ dia: "28/02/2025", consultas: 1, canceladas: 0 });
    expect(report.tables[1].rows).toEqual([
      { medico: "Dr. Bruno", consultas: 3, concluidas: 1, canceladas: 0, cancelamento: 0, antecedencia: 1.5 },
      { medico: "Dra. Ana", consultas: 2, concluidas: 2, canceladas: 1, cancelamento: 33.3, antecedencia: 6 },
    ]);
    const onlyB = operationalKpis(FEB, { doctorId: drB }, NOW);
    expect(figure(onlyB, "consultas").current).toBe(3);
    expect(onlyB.tables[1].rows.map((r) => r.medico)).toEqual(["Dr. Bruno"]);
    expect(figure(onlyB, "conversao").current).toBe(100);
  });

  it("reads only index ranges: no table scan, no temporary B-tree", () => {
    const params = { start: 0, now: 1, doctor: 1, grain: "d", lo: "a", hi: "b" };
    for (const statement of [OPERATIONAL_BUCKETS_SQL, OPERATIONAL_DAYS_SQL, OPERATIONAL_TODAY_SQL, OPERATIONAL_TODAY_DOCTOR_SQL]) {
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, plan).not.toMatch(/\bSCAN\b/);
      expect(plan, plan).not.toMatch(/TEMP B-TREE/);
      expect(plan, plan).toMatch(/PRIMARY KEY|COVERING INDEX appointments_kpi_(doctor_)?start_idx/);
    }
  });
});

describe("kit formatting and CSV", () => {
  it("formats each unit in pt-BR and '—' for no value", () => {
    expect(formatKpiValue("count", 1234)).toBe("1.234");
    expect(formatKpiValue("cents", 123456)).toBe("R$ 1.234,56");
    expect(formatKpiValue("percent", 12.5)).toBe("12,5%");
    expect(formatKpiValue("days", 3.75)).toBe("3,8 dias");
    expect(formatKpiValue("minutes", 120)).toBe("120,0 min");
    expect(formatKpiValue("percent", null)).toBe(KPI_NO_VALUE);
    expect(formatDelta(12.345)).toBe("↑ 12,3%");
    expect(formatDelta(-3)).toBe("↓ 3,0%");
    expect(formatDelta(null)).toBeNull();
  });

  it("writes numbers as numbers, cents as reais, and the figures with their formula", () => {
    const fig = kpiFigure({ id: "r", label: "Receita", unit: "cents", formula: "Soma", current: 150_050, previous: 100_000 });
    expect(kpiFiguresCsvRows([fig]).rows).toEqual([["Receita", "R$", 1500.5, 1000, 50.1, "Soma", null]]);
    const table = { id: "t", title: "T", columns: [{ key: "a", header: "Pagador" }, { key: "b", header: "Receita", unit: "cents" as const }], rows: [{ a: "X", b: 1234 }] };
    expect(kpiTableCsvRows(table)).toEqual({ headers: ["Pagador", "Receita (R$)"], rows: [["X", 12.34]] });
  });
});

describe("/kpis/operacionais screen and export", () => {
  it("every role sees the screen; the loader reads the period and doctor from the URL", async () => {
    for (const who of [admin, staff, doctor]) {
      const data = await loader(routeArgs(getRequest(`/kpis/operacionais?de=2025-02-01&ate=2025-02-28&medico=${drA}`, { cookie: who.cookie })));
      expect(data.query.period).toEqual({ from: "2025-02-01", to: "2025-02-28" });
      expect(data.query.doctorId).toBe(drA);
      expect(data.doctors.map((d) => d.label)).toEqual(["Dr. Bruno", "Dra. Ana"]);
      expect(data.exportQuery === null).toBe(who !== admin);
      // Kept until a write and sent to the browser as its JSON, made once (app/.server/sent-as-json.ts).
      expect((data.report as unknown as Record<symbol, unknown>)[Symbol.for("sinapse.sentAsJson")]).toBe(JSON.stringify(data.report));
    }
  });

  it("a bad period falls back to this month with a field message, not an error", async () => {
    const data = await loader(routeArgs(getRequest("/kpis/operacionais?periodo=personalizado&de=2025-02-30&ate=x", { cookie: staff.cookie })));
    expect(data.query.preset).toBe("mes");
    expect(data.query.errors).toEqual({ de: "Data inválida", ate: "Data inválida" });
  });

  it("exports each table as the screen shows it (admins), 404 for an unknown table, 403 for others", async () => {
    const url = "/kpis/operacionais/export.csv?periodo=personalizado&de=2025-02-01&ate=2025-02-28";
    // (Response.text() drops the BOM the file starts with.)
    const csv = await (await exportLoader(routeArgs(getRequest(`${url}&tabela=por-medico`, { cookie: admin.cookie })))).text();
    expect(csv).toBe("Médico;Consultas;Concluídas;Canceladas;Taxa de cancelamento (%);Antecedência média (dias)\r\nDr. Bruno;3;1;0;0;1,5\r\nDra. Ana;2;2;1;33,3;6\r\n");
    const figures = await (await exportLoader(routeArgs(getRequest(url, { cookie: admin.cookie })))).text();
    expect(figures).toContain("Taxa de cancelamento;%;16,7;50;-66,6;");
    expect(figures).toContain("Taxa de não comparecimento;%;;;;");
    expect((await thrownResponse(exportLoader(routeArgs(getRequest(`${url}&tabela=nada`, { cookie: admin.cookie }))))).status).toBe(404);
    for (const who of [staff, doctor]) {
      expect((await thrownResponse(exportLoader(routeArgs(getRequest(url, { cookie: who.cookie }))))).status).toBe(403);
    }
  });
});
