/** KPIs OPME against quotations this file inserts (surgeries scheduled in November 2026, São Paulo). */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { opmeItems, opmeQuotePrices, opmeQuotes, opmeRequests, suppliers, surgeries } from "~db/schema";
import { db } from "~/.server/db";
import { supplierSearchText } from "~/models/supplier.server";
import { sqlite } from "~/.server/db";
import { LEAD_TIME_UNAVAILABLE, OPME_DAY_SUMS_SQL, computeOpmeKpis, opmeKpis } from "~/models/kpi-opme.server";
import { ROLLUP_SUMS_SQL } from "~/models/kpi-rollups.server";
import { insertPatient } from "./helpers";
import { FILTER_VARIANTS, NOVEMBER, at, insertKpiCast, planOf } from "./kpi-fixtures";

let doctor1: number;
let doctor2: number;
let payerA: number;
const supplier: Record<string, number> = {};

function addSupplier(name: string) {
  supplier[name] = db
    .insert(suppliers)
    .values({ name, type: "opme", searchText: supplierSearchText({ name, cnpj: null, contactEmail: null, type: "opme" }) })
    .returning({ id: suppliers.id })
    .get().id;
}

/** A surgery with an OPME request: items' quantities, quotes as [supplier, unit prices by item (null: not priced)], and the chosen quote's index. */
function request(options: { doctorId: number; type: string; scheduled: string; quantities: number[]; quotes: Array<[string, Array<number | null>]>; chosen?: number }) {
  const surgeryId = db
    .insert(surgeries)
    .values({
      patientId: insertPatient(`Paciente ${options.scheduled}`),
      doctorId: options.doctorId,
      payerId: payerA,
      surgeryType: options.type,
      scheduledDate: at(options.scheduled),
      currentStage: "opme_cotacao",
    })
    .returning({ id: surgeries.id })
    .get().id;
  const requestId = db.insert(opmeRequests).values({ surgeryId }).returning({ id: opmeRequests.id }).get().id;
  const itemIds = options.quantities.map(
    (quantity, position) => db.insert(opmeItems).values({ requestId, description: `Item ${position + 1}`, quantity, position }).returning({ id: opmeItems.id }).get().id,
  );
  const quoteIds = options.quotes.map(([name, prices]) => {
    const quoteId = db.insert(opmeQuotes).values({ requestId, supplierId: supplier[name]!, validUntil: "2026-12-31" }).returning({ id: opmeQuotes.id }).get().id;
    prices.forEach((unitPriceCents, i) => {
      if (unitPriceCents !== null) db.insert(opmeQuotePrices).values({ quoteId, itemId: itemIds[i]!, unitPriceCents }).run();
    });
    return quoteId;
  });
  if (options.chosen !== undefined) {
    db.update(opmeRequests).set({ chosenQuoteId: quoteIds[options.chosen]!, choiceReason: "Menor preço" }).where(eq(opmeRequests.id, requestId)).run();
  }
}

beforeAll(() => {
  ({ doctor1, doctor2, payerA } = insertKpiCast());
  for (const name of ["Alfa Médica", "Beta OPME", "Gama Implantes"]) addSupplier(name);
});

beforeAll(() => {
  // Totals 2 500 (chosen), 3 000 and an incomplete 1 800.
  request({ doctorId: doctor1, type: "Artrodese", scheduled: "2026-11-10T13:00:00", quantities: [2, 1], quotes: [["Alfa Médica", [1_000, 500]], ["Beta OPME", [1_200, 600]], ["Gama Implantes", [900, null]]], chosen: 0 });
  request({ doctorId: doctor2, type: "Derivação ventricular", scheduled: "2026-11-20T13:00:00", quantities: [1], quotes: [["Beta OPME", [4_000]], ["Alfa Médica", [5_000]]], chosen: 0 });
  request({ doctorId: doctor1, type: "Artrodese", scheduled: "2026-11-25T13:00:00", quantities: [1], quotes: [["Gama Implantes", [500]]], chosen: 0 });
  request({ doctorId: doctor1, type: "Artrodese", scheduled: "2026-11-26T13:00:00", quantities: [1], quotes: [] });
  request({ doctorId: doctor1, type: "Artrodese", scheduled: "2026-10-26T13:00:00", quantities: [1], quotes: [["Alfa Médica", [7_000]]], chosen: 0 });
});

describe("KPIs OPME", () => {
  it("sums the chosen quotes by supplier and by procedure, and counts quotes per request", () => {
    const kpis = computeOpmeKpis(NOVEMBER);
    expect(kpis).toMatchObject({ requests: 4, quotes: 6, quotesPerRequest: 1.5, chosen: 3, spendCents: 7_000 });
    expect(kpis.bySupplier).toEqual([
      { supplierId: supplier["Beta OPME"], supplier: "Beta OPME", requests: 1, cents: 4_000 },
      { supplierId: supplier["Alfa Médica"], supplier: "Alfa Médica", requests: 1, cents: 2_500 },
      { supplierId: supplier["Gama Implantes"], supplier: "Gama Implantes", requests: 1, cents: 500 },
    ]);
    expect(kpis.byProcedure).toEqual([
      { procedure: "Derivação ventricular", requests: 1, cents: 4_000 },
      { procedure: "Artrodese", requests: 2, cents: 3_000 },
    ]);
  });

  it("measures the savings of the chosen quote against the highest complete one, and has no lead time", () => {
    const kpis = computeOpmeKpis(NOVEMBER);
    // (3 000 − 2 500) + (5 000 − 4 000) over 3 000 + 5 000; the single-quote request is not compared.
    expect(kpis).toMatchObject({ compared: 2, savingsCents: 1_500, savingsPercent: 18.8, leadTimeDays: null });
    const report = opmeKpis({ period: NOVEMBER, previous: { from: "2026-10-02", to: "2026-10-31" } }, {});
    expect(report.figures.find((f) => f.id === "prazo-entrega")).toMatchObject({ current: null, reason: LEAD_TIME_UNAVAILABLE });
    expect(report.figures.find((f) => f.id === "gasto")).toMatchObject({ current: 7_000, previous: 7_000, deltaPercent: 0 });
    expect(report.figures.find((f) => f.id === "economia")).toMatchObject({ current: 1_500, previous: null });
  });

  it("filters by doctor, and shows '—' (null) without requests", () => {
    expect(computeOpmeKpis(NOVEMBER, { doctorId: doctor2 })).toMatchObject({ requests: 1, spendCents: 4_000, savingsPercent: 20 });
    const empty = computeOpmeKpis({ from: "2026-09-01", to: "2026-09-30" });
    expect(empty).toMatchObject({ requests: 0, quotesPerRequest: null, spendCents: 0, savingsPercent: null, bySupplier: [] });
    expect(computeOpmeKpis({ from: "2026-10-01", to: "2026-10-31" })).toMatchObject({ requests: 1, spendCents: 7_000, compared: 0 });
  });

  it("reads the rollups by their primary key and the loose days from a covering index of the facts: no scan, no quote, price or item", () => {
    const index = (f: { doctorId?: number; payerId?: number }) =>
      f.doctorId && f.payerId ? "doctor_payer_day" : f.doctorId ? "doctor_day" : f.payerId ? "payer_day" : "day";
    for (const filters of FILTER_VARIANTS) {
      const statement = OPME_DAY_SUMS_SQL(filters);
      const plan = planOf(statement);
      expect(plan, `${statement}\n${plan}`).not.toMatch(/SCAN|\bopme_|surgeries/);
      expect(plan).toMatch(new RegExp(`^SEARCH kpi_opme_requests USING COVERING INDEX kpi_opme_requests_${index(filters)}_idx \\(`, "m"));
    }
    // Ten years: whole years and two runs of months from kpi_rollups, each a seek of its primary key.
    const rollups = ROLLUP_SUMS_SQL(["y", "m", "m"]);
    const plan = (sqlite.prepare(`explain query plan ${rollups}`).all({ metric: "opme", doctor: 0, payer: 0, lo0: "2017", hi0: "2025", lo1: "2016-12", hi1: "2016-12", lo2: "2026-01", hi2: "2026-10" }) as Array<{ detail: string }>)
      .map((row) => row.detail)
      .join("\n");
    expect(plan).not.toMatch(/SCAN kpi_rollups/);
    expect(plan.match(/SEARCH kpi_rollups USING PRIMARY KEY \(metric=\? AND doctor_id=\? AND payer_id=\? AND level=\? AND unit>\? AND unit<\?\)/g)).toHaveLength(3);
  });
});
