/**
 * KPIs Cirúrgicos against rows this file inserts. The period is November 2026 in São Paulo (UTC−3);
 * 2 Nov (Finados), 15 Nov (Sunday) and 20 Nov (Consciência Negra) are national holidays, so a request
 * sent on 2 Nov is due on 16 Nov and one sent on 3 Nov on 17 Nov.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { pipelineStages, surgeries } from "~db/schema";
import { db } from "~/.server/db";
import type { PipelineStage } from "~/lib/pipeline";
import { SURGICAL_ANS_SQL, SURGICAL_FACT_COUNTS_SQL, SURGICAL_STAY_COUNTS_SQL, computeSurgicalKpis } from "~/models/kpi-surgical.server";
import { kpiPercent } from "~/lib/kpi";
import { loader as exportLoader } from "~/routes/kpis/cirurgicos-export";
import { loader } from "~/routes/kpis/cirurgicos";
import { type SignedIn, getRequest, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "./helpers";
import { FILTER_VARIANTS, NOVEMBER, NOW, at, insertKpiCast, planOf } from "./kpi-fixtures";

let payerA: number;
let payerB: number;
let doctor1: number;
let doctor2: number;

/** A surgery with its stage history: each move [stage, UTC instant]; the last move is its current stage. */
function insertSurgery(options: {
  doctorId: number;
  payerId: number;
  type: string;
  scheduled: string;
  moves: Array<[PipelineStage, string]>;
  requested?: string;
}) {
  const patientId = insertPatient(`Paciente ${options.type} ${options.scheduled}`);
  const stage = options.moves.at(-1)![0];
  const id = db
    .insert(surgeries)
    .values({
      patientId,
      doctorId: options.doctorId,
      payerId: options.payerId,
      surgeryType: options.type,
      scheduledDate: at(options.scheduled),
      currentStage: stage,
      status: stage === "concluido" ? "completed" : stage === "cancelado" ? "cancelled" : "scheduled",
      ansRequestedAt: options.requested ? at(options.requested) : null,
    })
    .returning({ id: surgeries.id })
    .get().id;
  let from: PipelineStage | null = null;
  for (const [to, when] of options.moves) {
    db.insert(pipelineStages).values({ surgeryId: id, stage: to, fromStage: from, createdAt: at(when), updatedAt: at(when) }).run();
    from = to;
  }
  return id;
}

let admin: SignedIn;
let staff: SignedIn;

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  ({ payerA, payerB, doctor1, doctor2 } = insertKpiCast());
  // Concluded; answered (approved) on 5 Nov, within the clock.
  insertSurgery({
    doctorId: doctor1,
    payerId: payerA,
    type: "Artrodese",
    scheduled: "2026-11-10T13:00:00",
    requested: "2026-11-02T12:00:00",
    moves: [
      ["aguarda_docs", "2026-11-01T12:00:00"],
      ["enviado_pre_aut", "2026-11-02T12:00:00"],
      ["aprovado", "2026-11-05T12:00:00"],
      ["agendado", "2026-11-06T12:00:00"],
      ["concluido", "2026-11-10T18:00:00"],
    ],
  });
  // Denied on 20 Nov: after its last day (16 Nov).
  insertSurgery({
    doctorId: doctor1,
    payerId: payerA,
    type: "Artrodese",
    scheduled: "2026-11-25T13:00:00",
    requested: "2026-11-02T12:00:00",
    moves: [
      ["aguarda_docs", "2026-10-20T12:00:00"],
      ["enviado_pre_aut", "2026-11-02T12:00:00"],
      ["negado", "2026-11-20T12:00:00"],
    ],
  });
  // Cancelled before any request.
  insertSurgery({
    doctorId: doctor2,
    payerId: payerB,
    type: "Laminectomia",
    scheduled: "2026-11-12T13:00:00",
    moves: [
      ["aguarda_docs", "2026-11-03T12:00:00"],
      ["cancelado", "2026-11-04T12:00:00"],
    ],
  });
  // Still waiting for the answer, past its last day (17 Nov).
  insertSurgery({
    doctorId: doctor2,
    payerId: payerB,
    type: "Laminectomia",
    scheduled: "2026-11-30T13:00:00",
    requested: "2026-11-03T12:00:00",
    moves: [
      ["aguarda_docs", "2026-11-01T12:00:00"],
      ["enviado_pre_aut", "2026-11-03T12:00:00"],
      ["aguardando_parecer", "2026-11-04T12:00:00"],
    ],
  });
  // October: outside the period (and its 1 November 02:00 UTC is still 31 October in São Paulo).
  insertSurgery({
    doctorId: doctor1,
    payerId: payerA,
    type: "Artrodese",
    scheduled: "2026-11-01T02:00:00",
    moves: [["concluido", "2026-10-31T12:00:00"]],
  });
});

describe("KPIs Cirúrgicos", () => {
  it("counts the period's surgeries by stage and by procedure, and the success rate rounded to one decimal", () => {
    const kpis = computeSurgicalKpis(NOVEMBER, {}, NOW);
    expect(kpis.total).toBe(4);
    expect(Object.fromEntries(kpis.byStage.filter((s) => s.count > 0).map((s) => [s.stage, s.count]))).toEqual({
      aguardando_parecer: 1,
      negado: 1,
      concluido: 1,
      cancelado: 1,
    });
    expect(kpis.byStage).toHaveLength(10);
    expect(kpis.byProcedure).toEqual([
      { procedure: "Artrodese", count: 2 },
      { procedure: "Laminectomia", count: 2 },
    ]);
    expect(kpis.successRate).toEqual({ concluded: 1, total: 4, percent: 25 });
  });

  it("rounds every percent half up exactly, checked against integer arithmetic for every ratio of small counts", () => {
    // r is part / whole × 100 rounded half up to `decimals` when r − ½ ≤ part / whole × 100 × 10^decimals < r + ½,
    // checked here by cross-multiplying in integers.
    const rounded = (part: number, whole: number, decimals: 0 | 1) => {
      const r = Math.round(kpiPercent(part, whole, decimals)! * 10 ** decimals);
      const scaled = 2 * 100 * 10 ** decimals * part;
      return (2 * r - 1) * whole <= scaled && scaled < (2 * r + 1) * whole;
    };
    const wrong: string[] = [];
    for (let whole = 1; whole <= 1000; whole++) {
      for (let part = -whole; part <= 2 * whole; part++) {
        if (!rounded(part, whole, 1) || !rounded(part, whole, 0)) wrong.push(`${part}/${whole}`);
      }
    }
    expect(wrong).toEqual([]);
    expect([kpiPercent(23, 80), kpiPercent(201, 400), kpiPercent(1, 3), kpiPercent(2, 3), kpiPercent(0, 5)]).toEqual([28.8, 50.3, 33.3, 66.7, 0]);
    expect([kpiPercent(29, 200, 0), kpiPercent(1, 3, 0), kpiPercent(-1, 200, 0), kpiPercent(-3, 200, 0)]).toEqual([15, 33, 0, -1]);
    expect(kpiPercent(4_500_000_000_001, 9_000_000_000_000)).toBe(50);
    expect(kpiPercent(5, 0)).toBeNull();
  });

  it("gives each stage's median and 90th percentile stay in days, leaving open stays out", () => {
    const times = Object.fromEntries(computeSurgicalKpis(NOVEMBER, {}, NOW).stageTimes.map((t) => [t.stage, t]));
    // Aguarda Docs: 1, 1, 2 and 13 days → median rank 2 = 1, p90 rank 4 = 13.
    expect(times.aguarda_docs).toMatchObject({ stays: 4, medianDays: 1, p90Days: 13 });
    // Enviado Pré-aut: 1, 3 and 18 days.
    expect(times.enviado_pre_aut).toMatchObject({ stays: 3, medianDays: 3, p90Days: 18 });
    expect(times.agendado).toMatchObject({ stays: 1, medianDays: 4.3, p90Days: 4.3 });
    expect(times.aguardando_parecer).toMatchObject({ stays: 0, medianDays: null, p90Days: null });
  });

  it("measures ANS compliance (10 business days, holidays excluded) and the denial rate, by payer", () => {
    const kpis = computeSurgicalKpis(NOVEMBER, {}, NOW);
    expect(kpis.ansCompliance).toMatchObject({ part: 1, whole: 3, percent: 33.3 });
    expect(kpis.ansCompliance.byPayer).toEqual([
      { payerId: payerB, payer: "Bradesco Saúde", part: 0, whole: 1, percent: 0 },
      { payerId: payerA, payer: "Unimed", part: 1, whole: 2, percent: 50 },
    ]);
    expect(kpis.denialRate).toMatchObject({ part: 1, whole: 2, percent: 50 });
    expect(kpis.denialRate.byPayer).toEqual([{ payerId: payerA, payer: "Unimed", part: 1, whole: 2, percent: 50 }]);
  });

  it("leaves a request still within its clock out of the compliance", () => {
    // On 10 Nov the first request is answered in time; the others are within their clocks.
    const kpis = computeSurgicalKpis(NOVEMBER, {}, new Date("2026-11-10T15:00:00Z"));
    expect(kpis.ansCompliance).toMatchObject({ part: 1, whole: 2, percent: 50 });
  });

  it("filters by doctor and by payer", () => {
    expect(computeSurgicalKpis(NOVEMBER, { doctorId: doctor2 }, NOW)).toMatchObject({
      total: 2,
      successRate: { concluded: 0, total: 2, percent: 0 },
      ansCompliance: { part: 0, whole: 1, percent: 0 },
      denialRate: { whole: 0, percent: null },
    });
    expect(computeSurgicalKpis(NOVEMBER, { payerId: payerA }, NOW)).toMatchObject({ total: 2, successRate: { percent: 50 } });
    expect(computeSurgicalKpis(NOVEMBER, { doctorId: doctor1, payerId: payerB }, NOW).total).toBe(0);
  });

  it("has no rate without data ('—'), and the previous period is computed the same way", () => {
    const empty = computeSurgicalKpis({ from: "2026-09-01", to: "2026-09-30" }, {}, NOW);
    expect(empty.total).toBe(0);
    expect(empty.successRate.percent).toBeNull();
    expect(empty.ansCompliance.percent).toBeNull();
    expect(empty.denialRate.percent).toBeNull();
    expect(empty.stageTimes.every((t) => t.medianDays === null)).toBe(true);
    const october = computeSurgicalKpis({ from: "2026-10-01", to: "2026-10-31" }, {}, NOW);
    expect(october.successRate).toEqual({ concluded: 1, total: 1, percent: 100 });
  });
});

describe("KPIs Cirúrgicos query plans", () => {

  it("reads the loose days of the fact tables from their indexes alone, never the surgeries or their history", () => {
    for (const filters of FILTER_VARIANTS) {
      const both = Boolean(filters.doctorId && filters.payerId);
      for (const statement of [SURGICAL_FACT_COUNTS_SQL(filters, "stage"), SURGICAL_FACT_COUNTS_SQL(filters, "procedure"), SURGICAL_STAY_COUNTS_SQL(filters), SURGICAL_ANS_SQL(filters)]) {
        const plan = planOf(statement);
        expect(plan, `${statement}\n${plan}`).toMatch(/SEARCH kpi_(surgery_facts|stage_stays) USING COVERING INDEX kpi_/);
        expect(plan, `${statement}\n${plan}`).not.toMatch(/SCAN|surgeries\b|pipeline_stages/);
      }
      if (both) expect(planOf(SURGICAL_STAY_COUNTS_SQL(filters))).toMatch(/kpi_stage_stays_doctor_payer_day_idx/);
      expect(planOf(SURGICAL_ANS_SQL(filters))).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe("/kpis/cirurgicos", () => {
  const query = "periodo=personalizado&de=2026-11-01&ate=2026-11-30";

  it("compares each figure with the previous period of the same length, for any role", async () => {
    const data = await loader(routeArgs(getRequest(`/kpis/cirurgicos?${query}`, { cookie: staff.cookie })));
    // Previous period: 2 to 31 October, holding the surgery of 31 October (São Paulo), concluded.
    expect(data.report.figures.find((f) => f.id === "sucesso")).toMatchObject({ current: 25, previous: 100, deltaPercent: -75 });
    expect(data.report.figures.find((f) => f.id === "prazo-ans")).toMatchObject({ current: 33.3, previous: null, deltaPercent: null });
    expect(data.report.figures.find((f) => f.id === "negativa")!.formula).toMatch(/negadas/);
    expect(data.exportQuery).toBeNull();
  });

  it("exports a table's CSV with the numbers on screen (admins); staff is refused", async () => {
    const csv = await (await exportLoader(routeArgs(getRequest(`/kpis/cirurgicos/export.csv?${query}&tabela=por-etapa`, { cookie: admin.cookie })))).text();
    expect(csv).toContain("Concluído;1;1");
    expect(csv).toContain("Aguardando Parecer;1;0");
    expect(statusOf(await thrownResponse(exportLoader(routeArgs(getRequest(`/kpis/cirurgicos/export.csv?${query}`, { cookie: staff.cookie })))))).toBe(403);
  });
});
