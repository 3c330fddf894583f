/**
 * KPIs Métricas against rows this file inserts. Period: February 2025 (custom range), compared
 * with the 28 days before (4–31 January). Times are São Paulo (UTC-3).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, doctors, financialTransactions, messages, patientReferrals, patients, referrers, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { parseKpiPeriod } from "~/lib/kpi-period";
import {
  ACTIVE_PATIENTS_SQL,
  MESSAGES_BY_STATUS_SQL,
  NEW_PATIENT_REFERRERS_SQL,
  NEW_PATIENTS_SQL,
  metricsKpis,
} from "~/models/kpi-metricas.server";
import { loader } from "~/routes/kpis/metricas";
import { loader as exportLoader } from "~/routes/kpis/metricas-export";
import { type SignedIn, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, thrownResponse } from "./helpers";

const NOW = new Date("2025-03-10T12:00:00Z");
const FEB = parseKpiPeriod(new URLSearchParams("de=2025-02-01&ate=2025-02-28"), NOW);
const at = (iso: string) => new Date(iso);
let admin: SignedIn;
let doctor: SignedIn;

beforeAll(async () => {
  db.delete(messages).run();
  db.delete(financialTransactions).run();
  db.delete(surgeries).run();
  db.delete(appointments).run();
  db.delete(doctors).run();
  db.delete(patientReferrals).run();
  db.delete(referrers).run();
  db.delete(patients).run();
  admin = await loginAs("admin");
  doctor = await loginAs("doctor");
  const created = (iso: string) => ({ createdAt: at(iso), updatedAt: at(iso) });
  const p1 = insertPatient("Ana", { insurance: "Unimed", ...created("2025-02-01T03:00:00Z") }); // 1 Feb 00:00 SP
  const p2 = insertPatient("Bia", { insurance: " unimed ", ...created("2025-02-10T12:00:00Z") });
  const p3 = insertPatient("Caio", { insurance: "Bradesco Saúde", ...created("2025-03-01T02:59:00Z") }); // 28 Feb 23:59 SP
  insertPatient("Davi", { ...created("2025-02-15T12:00:00Z") }); // no insurer
  const old = insertPatient("Eva", { insurance: "Amil", ...created("2025-01-20T12:00:00Z") }); // previous period
  insertPatient("Fabio", { ...created("2025-03-01T03:00:00Z") }); // 1 Mar SP: neither
  const ref = db.insert(referrers).values({ name: "Dr. Encaminha" }).returning({ id: referrers.id }).get().id;
  db.insert(patientReferrals).values([{ patientId: p1, referrerId: ref }, { patientId: p3, referrerId: ref }, { patientId: old, referrerId: ref }]).run();

  const dr = insertDoctor("Dra. Ana");
  const appt = (patientId: number, start: string, status: "completed" | "cancelled") =>
    db.insert(appointments).values({ patientId, doctorId: dr, startTime: at(start), endTime: new Date(at(start).getTime() + 1_800_000), type: "Consulta", status }).run();
  appt(p1, "2025-02-05T12:00:00Z", "completed");
  appt(p1, "2025-02-06T12:00:00Z", "completed"); // same patient twice: one active patient
  appt(p2, "2025-02-07T12:00:00Z", "cancelled"); // cancelled: not active
  appt(old, "2025-02-28T12:00:00Z", "completed");
  appt(old, "2025-01-28T12:00:00Z", "completed"); // previous period

  const msg = (status: "queued" | "sent" | "delivered" | "read" | "failed", iso: string, direction: "outbound" | "inbound" = "outbound") =>
    db.insert(messages).values({ patientName: "Ana", body: "Olá", status, direction, ...created(iso) }).run();
  msg("sent", "2025-02-02T12:00:00Z");
  msg("delivered", "2025-02-03T12:00:00Z");
  msg("read", "2025-02-04T12:00:00Z");
  msg("read", "2025-02-05T12:00:00Z");
  msg("failed", "2025-02-06T12:00:00Z");
  msg("queued", "2025-02-07T12:00:00Z"); // not sent yet
  msg("read", "2025-02-08T12:00:00Z", "inbound"); // the patient's message: not ours
  msg("sent", "2025-01-15T12:00:00Z"); // previous period
});

const figure = (id: string) => metricsKpis(FEB).figures.find((f) => f.id === id)!;

describe("metrics figures", () => {
  it("counts patients new and active, with the previous period", () => {
    expect(figure("pacientes-novos")).toMatchObject({ current: 4, previous: 1, deltaPercent: 300 });
    expect(figure("pacientes-ativos")).toMatchObject({ current: 2, previous: 1, deltaPercent: 100 });
  });

  it("rates messages sent, delivered, read and failed", () => {
    expect(figure("mensagens-enviadas")).toMatchObject({ current: 4, previous: 1 });
    expect(figure("mensagens-entregues").current).toBe(75); // delivered 1 + read 2 of 4
    expect(figure("mensagens-lidas")).toMatchObject({ current: 50, previous: 0 });
    expect(figure("mensagens-falhas").current).toBe(20); // 1 of 5
  });

  it("groups new patients by insurer (spaces and case ignored) and by referrer", () => {
    const [byInsurer, byReferrer] = metricsKpis(FEB).tables;
    expect(byInsurer.rows).toEqual([
      { convenio: "Unimed", pacientes: 2, participacao: 50 },
      { convenio: "Bradesco Saúde", pacientes: 1, participacao: 25 },
      { convenio: "Não informado", pacientes: 1, participacao: 25 },
    ]);
    expect(byReferrer.rows).toEqual([
      { encaminhador: "Dr. Encaminha", pacientes: 2, participacao: 50 },
      { encaminhador: "Sem encaminhador", pacientes: 2, participacao: 50 },
    ]);
  });

  it("shows '—' for rates without messages and empty tables without patients", () => {
    const empty = metricsKpis(parseKpiPeriod(new URLSearchParams("de=2020-01-01&ate=2020-01-31"), NOW));
    expect(empty.figures.find((f) => f.id === "pacientes-novos")).toMatchObject({ current: 0, deltaPercent: null });
    for (const id of ["mensagens-entregues", "mensagens-lidas", "mensagens-falhas"]) {
      const f = empty.figures.find((x) => x.id === id)!;
      expect(f.current).toBeNull();
      expect(f.reason).toBe("Nenhuma mensagem enviada no período");
    }
    expect(empty.tables.map((t) => t.rows)).toEqual([[], []]);
  });

  it("reads primary-key ranges of the aggregates only, no temporary structure", () => {
    const params = { grain: "d", lo: "a", hi: "b", bucket: "a", fromMonth: "a", fromMonthStart: "a", from: "a" };
    for (const statement of [NEW_PATIENTS_SQL, ACTIVE_PATIENTS_SQL, NEW_PATIENT_REFERRERS_SQL, MESSAGES_BY_STATUS_SQL]) {
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, plan).not.toMatch(/\bSCAN (?!CONSTANT ROW)/);
      expect(plan, plan).not.toMatch(/TEMP B-TREE/);
      expect(plan, plan).toMatch(/SEARCH kpi_\w+ USING PRIMARY KEY/);
    }
  });
});

describe("/kpis/metricas screen and export", () => {
  it("shows every role the figures; exports the same values for admins only", async () => {
    const data = await loader(routeArgs(getRequest("/kpis/metricas?de=2025-02-01&ate=2025-02-28", { cookie: doctor.cookie })));
    expect(data.report.figures.find((f) => f.id === "pacientes-novos")?.current).toBe(4);
    expect(data.exportQuery).toBeNull();
    const url = "/kpis/metricas/export.csv?periodo=personalizado&de=2025-02-01&ate=2025-02-28&tabela=por-convenio";
    expect((await thrownResponse(exportLoader(routeArgs(getRequest(url, { cookie: doctor.cookie }))))).status).toBe(403);
    const csv = await (await exportLoader(routeArgs(getRequest(url, { cookie: admin.cookie })))).text();
    expect(csv).toBe("Convênio;Pacientes;Participação (%)\r\nUnimed;2;50\r\nBradesco Saúde;1;25\r\nNão informado;1;25\r\n");
  });
});
