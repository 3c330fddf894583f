/**
 * KPIs Financeiros against rows this file inserts: November 2026 in São Paulo (UTC−3), seen on
 * 15 December, so the receivables are aged at the end of 30 November.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { financialTransactions, receivableGlosas, surgeries } from "~db/schema";
import { db } from "~/.server/db";
import type { ReceivableStatus } from "~/lib/receivables";
import {
  FINANCIAL_AGEING_SQL,
  FINANCIAL_GLOSA_DAYS_SQL,
  FINANCIAL_PAID_DAYS_SQL,
  FINANCIAL_TOTAL_SQL,
  computeFinancialKpis,
} from "~/models/kpi-financial.server";
import { readToast } from "~/.server/toast";
import { FINANCE_DENIED } from "~/.server/finance-access";
import { loader as exportLoader } from "~/routes/kpis/financeiros-export";
import { loader } from "~/routes/kpis/financeiros";
import { type SignedIn, getRequest, insertPatient, loginAs, routeArgs, thrownResponse } from "./helpers";
import { FILTER_VARIANTS, NOVEMBER, NOW, at, insertKpiCast, planOf } from "./kpi-fixtures";

let payerA: number;
let payerB: number;
let doctor1: number;
let doctor2: number;

function surgery(options: {
  doctorId?: number;
  payerId?: number | null;
  scheduled: string;
  status: ReceivableStatus;
  billedCents?: number;
  billedAt?: string;
  paidAt?: string;
}) {
  return db
    .insert(surgeries)
    .values({
      patientId: insertPatient(`Paciente ${options.scheduled}`),
      doctorId: options.doctorId ?? doctor1,
      payerId: options.payerId ?? null,
      surgeryType: "Artrodese",
      scheduledDate: at(options.scheduled),
      currentStage: "concluido",
      status: "completed",
      receivableStatus: options.status,
      billedAmountCents: options.billedCents ?? null,
      billedAt: options.billedAt ? at(options.billedAt) : null,
      paidAt: options.paidAt ? at(options.paidAt) : null,
    })
    .returning({ id: surgeries.id })
    .get().id;
}

function glosa(surgeryId: number, deniedCents: number, recoveredCents: number) {
  db.insert(receivableGlosas).values({ surgeryId, tissCode: "1801", reason: "Procedimento não autorizado", deniedCents, recoveredCents }).run();
}

let admin: SignedIn;
let staff: SignedIn;
let doctorUser: SignedIn;

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorUser = await loginAs("doctor");
  ({ payerA, payerB, doctor1, doctor2 } = insertKpiCast());

  const tx = (type: "receita" | "despesa", amountCents: number, transactionDate: string) =>
    db.insert(financialTransactions).values({ type, amountCents, transactionDate, category: "Honorários" }).run();
  tx("receita", 100_000, "2026-11-01");
  tx("receita", 50_000, "2026-11-30");
  tx("despesa", 120_000, "2026-11-15");
  tx("despesa", 500, "2026-11-20");
  tx("receita", 99_999, "2026-10-31");
  tx("despesa", 1, "2026-12-01");

  // Ageing (no payer, so they stay out of the per-payer figures), aged at the end of 30 Nov.
  surgery({ scheduled: "2026-11-20T13:00:00", status: "faturado", billedCents: 10_000, billedAt: "2026-11-30T15:00:00" }); // 0 days
  surgery({ scheduled: "2026-10-31T13:00:00", status: "realizado", billedCents: 2_000 }); // 30 days, not billed
  surgery({ scheduled: "2026-09-20T13:00:00", status: "pendente", billedCents: 3_000, billedAt: "2026-09-30T13:00:00" }); // 61 days
  surgery({ scheduled: "2026-07-20T13:00:00", status: "glosa", billedCents: 4_000, billedAt: "2026-08-01T13:00:00" }); // 122 days
  surgery({ scheduled: "2026-12-05T13:00:00", status: "faturado", billedCents: 9_999, billedAt: "2026-12-06T13:00:00" }); // after the day

  // Payment days: paid in November, performed in September (outside the glosa cohort).
  surgery({ payerId: payerA, scheduled: "2026-09-10T13:00:00", status: "pago", billedCents: 1, billedAt: "2026-10-01T12:00:00", paidAt: "2026-11-10T12:00:00" }); // 40 days
  surgery({ payerId: payerA, scheduled: "2026-09-11T13:00:00", status: "pago", billedCents: 1, billedAt: "2026-11-01T12:00:00", paidAt: "2026-11-06T00:00:00" }); // 4.5 days
  surgery({ payerId: payerB, scheduled: "2026-09-12T13:00:00", status: "pago", billedCents: 1, billedAt: "2026-11-01T12:00:00", paidAt: "2026-11-11T12:00:00", doctorId: doctor2 }); // 10 days
  surgery({ payerId: payerB, scheduled: "2026-09-13T13:00:00", status: "pago", billedCents: 1, billedAt: "2026-11-01T12:00:00", paidAt: "2026-12-02T12:00:00" }); // paid in December

  // Glosas of November's surgeries (paid in December, so out of the payment days).
  const g1 = surgery({ payerId: payerA, scheduled: "2026-11-05T13:00:00", status: "pago", billedCents: 100_000, paidAt: "2026-12-10T12:00:00" });
  glosa(g1, 20_000, 5_000);
  surgery({ payerId: payerA, scheduled: "2026-11-06T13:00:00", status: "pago", billedCents: 50_000, paidAt: "2026-12-10T12:00:00" });
  const g3 = surgery({ payerId: payerB, scheduled: "2026-11-07T13:00:00", status: "pago", billedCents: 40_000, paidAt: "2026-12-10T12:00:00", doctorId: doctor2 });
  glosa(g3, 4_000, 0);
  glosa(g3, 1_000, 1_000);
});

describe("KPIs Financeiros", () => {
  it("sums revenue and expenses of the period's days and rounds the margin to a whole percent", () => {
    const kpis = computeFinancialKpis(NOVEMBER, {}, NOW);
    expect(kpis.revenueCents).toBe(150_000);
    expect(kpis.expensesCents).toBe(120_500);
    // (150 000 − 120 500) / 150 000 = 19,67 % → 20 %.
    expect(kpis.marginPercent).toBe(20);
  });

  it("ages the open receivables at the period's last day in 0–30, 31–60, 61–90 and 90+ days", () => {
    const kpis = computeFinancialKpis(NOVEMBER, {}, NOW);
    expect(kpis.ageingOn).toBe("2026-11-30");
    expect(kpis.ageing.map(({ id, count, cents }) => ({ id, count, cents }))).toEqual([
      { id: "0-30", count: 2, cents: 12_000 },
      { id: "31-60", count: 0, cents: 0 },
      { id: "61-90", count: 1, cents: 3_000 },
      { id: "90+", count: 1, cents: 4_000 },
    ]);
  });

  it("averages payment days (seconds / 86400) by payer over the surgeries paid in the period", () => {
    const { paymentDays } = computeFinancialKpis(NOVEMBER, {}, NOW);
    expect(paymentDays.paid).toBe(3);
    expect(paymentDays.days).toBe(18.2); // (40 + 4,5 + 10) / 3
    expect(paymentDays.byPayer).toEqual([
      { payerId: payerB, payer: "Bradesco Saúde", paid: 1, days: 10 },
      { payerId: payerA, payer: "Unimed", paid: 2, days: 22.3 },
    ]);
  });

  it("gives the glosa rate and the recovered share by payer", () => {
    const { glosa } = computeFinancialKpis(NOVEMBER, {}, NOW);
    expect(glosa).toMatchObject({ billedCents: 190_000, deniedCents: 25_000, recoveredCents: 6_000, glosaRate: 13.2, recoveredShare: 24 });
    expect(glosa.byPayer).toEqual([
      { payerId: payerB, payer: "Bradesco Saúde", billedCents: 40_000, deniedCents: 5_000, recoveredCents: 1_000, glosaRate: 12.5, recoveredShare: 20 },
      { payerId: payerA, payer: "Unimed", billedCents: 150_000, deniedCents: 20_000, recoveredCents: 5_000, glosaRate: 13.3, recoveredShare: 25 },
    ]);
  });

  it("filters the receivables' figures by payer and by doctor (the ledger has neither)", () => {
    const byPayer = computeFinancialKpis(NOVEMBER, { payerId: payerB }, NOW);
    expect(byPayer.revenueCents).toBe(150_000);
    expect(byPayer.paymentDays).toMatchObject({ paid: 1, days: 10 });
    expect(byPayer.glosa).toMatchObject({ billedCents: 40_000, glosaRate: 12.5 });
    expect(byPayer.ageing.every((b) => b.count === 0)).toBe(true);
    const byDoctor = computeFinancialKpis(NOVEMBER, { doctorId: doctor2 }, NOW);
    expect(byDoctor.paymentDays.byPayer.map((r) => r.payer)).toEqual(["Bradesco Saúde"]);
    expect(byDoctor.glosa.deniedCents).toBe(5_000);
  });

  it("shows '—' (null) without revenue, payments or billing", () => {
    const empty = computeFinancialKpis({ from: "2025-01-01", to: "2025-01-31" }, {}, NOW);
    expect(empty).toMatchObject({ revenueCents: 0, expensesCents: 0, marginPercent: null });
    expect(empty.paymentDays).toEqual({ paid: 0, days: null, byPayer: [] });
    expect(empty.glosa).toMatchObject({ glosaRate: null, recoveredShare: null, byPayer: [] });
    expect(empty.ageing.every((b) => b.count === 0 && b.cents === 0)).toBe(true);
    // A period still running is aged today.
    expect(computeFinancialKpis({ from: "2026-12-01", to: "2026-12-31" }, {}, NOW).ageingOn).toBe("2026-12-15");
  });
});

describe("KPIs Financeiros query plans", () => {

  it("seeks indexes only, never scanning a big table nor sorting a big result", () => {
    const statements = [FINANCIAL_TOTAL_SQL, ...FILTER_VARIANTS.flatMap((f) => [FINANCIAL_AGEING_SQL(f), FINANCIAL_PAID_DAYS_SQL(f), FINANCIAL_GLOSA_DAYS_SQL(f)])];
    for (const statement of statements) {
      const plan = planOf(statement);
      expect(plan, `${statement}\n${plan}`).not.toMatch(/SCAN|receivable_glosas/);
      expect(plan, `${statement}\n${plan}`).toMatch(/USING COVERING INDEX/);
    }
    expect(planOf(FINANCIAL_TOTAL_SQL)).toMatch(/SEARCH financial_transactions USING COVERING INDEX financial_transactions_type_date_amount_idx/);
    for (const f of FILTER_VARIANTS) expect(planOf(FINANCIAL_AGEING_SQL(f))).toMatch(/SEARCH s USING COVERING INDEX surgeries_open_receivables_idx/);
  });
});

describe("/kpis/financeiros (admin only, by the server)", () => {
  const query = "periodo=personalizado&de=2026-11-01&ate=2026-11-30";

  it("sends staff and doctors to /dashboard with SPEC §8's message, from the page and from the CSV", async () => {
    for (const who of [staff, doctorUser]) {
      for (const call of [
        () => loader(routeArgs(getRequest(`/kpis/financeiros?${query}`, { cookie: who.cookie }))),
        () => exportLoader(routeArgs(getRequest(`/kpis/financeiros/export.csv?${query}&tabela=indicadores`, { cookie: who.cookie }))),
      ]) {
        const response = await thrownResponse(call());
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/dashboard");
        const { toast } = await readToast(getRequest("/dashboard", { cookie: response.headers.get("Set-Cookie")!.split(";")[0] }));
        expect(toast?.message).toBe(FINANCE_DENIED);
      }
    }
  });

  it("gives an admin the figures compared with the previous period, and a CSV with the same numbers", async () => {
    const data = await loader(routeArgs(getRequest(`/kpis/financeiros?${query}`, { cookie: admin.cookie })));
    const revenue = data.report.figures.find((f) => f.id === "receita")!;
    // Previous period: 2 to 31 October (30 days), whose revenue is the 31 October R$ 999,99.
    expect(revenue).toMatchObject({ current: 150_000, previous: 99_999 });
    expect(revenue.deltaPercent).toBeCloseTo(50.0, 1);
    expect(data.report.figures.find((f) => f.id === "margem")).toMatchObject({ current: 20, previous: 100 });
    const csv = await (await exportLoader(routeArgs(getRequest(`/kpis/financeiros/export.csv?${query}&tabela=glosas-por-convenio`, { cookie: admin.cookie })))).text();
    expect(csv).toContain("Unimed;1500;200;13,3;25");
    expect(csv).toContain("Bradesco Saúde;400;50;12,5;20");
  });
});
