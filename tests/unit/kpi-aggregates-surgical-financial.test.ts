/**
 * The KPI screens' maintained aggregates (docs/decisions/0024-kpi-aggregates-surgical-financial.md)
 * against a full recomputation from the raw tables (tests/support/kpi-reference/cirurgicos.ts, the former
 * queries): many random writes through the real models and through raw SQL — inserts, updates,
 * deletes, stage moves back and forth, payments, glosas, ledger entries, dates across old summer
 * times and on São Paulo midnights — then every figure of several periods and filters must be
 * equal. Also: the triggers leave exactly what the migration's backfill builds from the same rows.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { sqlite } from "~/.server/db";
import { startOfIsoDateInClinic } from "~/lib/dates";
import { type KpiPeriod, addDaysIso } from "~/lib/kpi-period";
import { PIPELINE_STAGE_IDS } from "~/lib/pipeline";
import { periodUnits } from "~/models/kpi-rollups.server";
import { computeSurgicalKpis } from "~/models/kpi-surgical.server";
import { moveSurgery } from "~/models/pipeline.server";
import { createSurgery, updateSurgery } from "~/models/surgery.server";
import { createTransaction } from "~/models/transaction.server";
import { addOpmeItem, addOpmeQuote, chooseOpmeQuote, removeOpmeItem, removeOpmeQuote } from "~/models/opme.server";
import { surgerySchema } from "~/validation/surgery";
import { transactionSchema } from "~/validation/transaction";
import { moveSchema } from "~/validation/pipeline";
import { computeFinancialKpis } from "~/models/kpi-financial.server";
import { computeOpmeKpis } from "~/models/kpi-opme.server";
import { referenceSurgicalKpis } from "../support/kpi-reference/cirurgicos";
import { referenceFinancialKpis } from "../support/kpi-reference/financeiros";
import { referenceOpmeKpis } from "../support/kpi-reference/opme";
import { Random } from "~db/seed/random";
import { randomInstantOf } from "../support/random-instants";
import { insertDoctor, insertPatient, insertPayer, loginAs } from "./helpers";

const NOW = new Date("2026-12-15T12:00:00Z");
const DAY_MS = 86_400_000;


let userId: number;
let doctors: number[];
let payers: number[];
let suppliers: number[];
let patients: number[];
/** Deterministic pseudo-random numbers (the seeds' mulberry32), so a failure can be replayed. */
const rng = new Random(20261123);

/** A random São Paulo day from 2008 (old summer times) to 2027. */
function randomDay(): string {
  return addDaysIso("2008-01-01", rng.int(0, 20 * 365));
}

/** A random instant of a random day (`randomInstantOf`). */
const randomInstant = () => randomInstantOf(rng, randomDay());

/** A stay's length: sometimes exactly on a tenth of a day or half of one (rounding ties). */
function randomGap(): number {
  const r = rng.next();
  if (r < 0.15) return rng.int(1, 40) * 4_320_000;
  if (r < 0.2) return 0;
  return rng.int(1, 25 * DAY_MS);
}

function surgeryIds(): number[] {
  return (sqlite.prepare("select id from surgeries order by id").all() as Array<{ id: number }>).map((r) => r.id);
}

function stageRowIds(): number[] {
  return (sqlite.prepare("select id from pipeline_stages order by id").all() as Array<{ id: number }>).map((r) => r.id);
}

function glosaIds(): number[] {
  return (sqlite.prepare("select id from receivable_glosas order by id").all() as Array<{ id: number }>).map((r) => r.id);
}

/** 'YYYY-MM-DDTHH:mm' as the surgery form sends it (São Paulo standard time; any valid wall time will do). */
const wallTime = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 16);

/** A surgery with a random stage history, written straight to the tables. */
function rawSurgery() {
  const scheduled = randomInstant();
  const stage = rng.pick(PIPELINE_STAGE_IDS);
  const payer = rng.next() < 0.15 ? null : rng.pick(payers);
  const { id } = sqlite
    .prepare(
      `insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, current_stage, payer_id, ans_requested_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    )
    .get(rng.pick(patients), rng.pick(doctors), rng.pick(["Artrodese", "Microdiscectomia", "DBS", "artrodese"]), scheduled, stage, payer, rng.next() < 0.5 ? scheduled - rng.int(0, 40) * DAY_MS : null, scheduled, scheduled) as { id: number };
  let at = scheduled - rng.int(5, 60) * DAY_MS;
  for (let i = rng.int(0, 6); i > 0; i--) {
    sqlite.prepare("insert into pipeline_stages (surgery_id, stage, created_at, updated_at) values (?, ?, ?, ?)").run(id, rng.pick(PIPELINE_STAGE_IDS), at, at);
    at += randomGap();
  }
}

function idsOf(sql: string, ...params: unknown[]): number[] {
  return (sqlite.prepare(sql).all(...params) as Array<{ id: number }>).map((row) => row.id);
}

/** Counts of each kind of OPME write made, so the test can show every kind was exercised. */
const opmeWrites = new Map<string, number>();
const totalChanges = () => (sqlite.prepare("select total_changes() as n").get() as { n: number }).n;
let changesBefore = 0;
let lastOpmeWrite = "";
/** Counts `kind` when the write changed a row. */
const did = (kind: string) => {
  lastOpmeWrite = kind;
  if (totalChanges() > changesBefore) opmeWrites.set(kind, (opmeWrites.get(kind) ?? 0) + 1);
};

/**
 * One random OPME write, through the OPME models or raw SQL: a request with items, quotes and
 * prices, or a change to one — items added, deleted, their quantity or request changed; quotes
 * added, deleted, moved to another supplier; prices added, changed, deleted; a quote chosen or
 * unchosen; the request moved to another surgery or deleted.
 */
function randomOpmeWrite() {
  changesBefore = totalChanges();
  const free = () => idsOf("select s.id from surgeries s where not exists (select 1 from opme_requests r where r.surgery_id = s.id) order by s.id");
  const requests = idsOf("select id from opme_requests order by id");
  const r = rng.next();
  if (r < 0.25 || requests.length === 0) {
    const surgeries = free();
    if (surgeries.length === 0) return;
    const { id } = sqlite.prepare("insert into opme_requests (surgery_id) values (?) returning id").get(rng.pick(surgeries)) as { id: number };
    const items: number[] = [];
    for (let i = rng.int(0, 3); i > 0; i--) {
      items.push((sqlite.prepare("insert into opme_items (request_id, description, quantity, position) values (?, 'Parafuso', ?, ?) returning id").get(id, rng.int(1, 6), i) as { id: number }).id);
    }
    const quotes: number[] = [];
    for (let q = rng.int(0, 3); q > 0; q--) {
      const quote = (sqlite.prepare("insert into opme_quotes (request_id, supplier_id, valid_until) values (?, ?, '2026-12-31') returning id").get(id, rng.pick(suppliers)) as { id: number }).id;
      quotes.push(quote);
      for (const item of items) if (rng.next() < 0.85) sqlite.prepare("insert into opme_quote_prices (quote_id, item_id, unit_price_cents) values (?, ?, ?)").run(quote, item, rng.int(0, 900_000));
    }
    if (quotes.length && rng.next() < 0.75) sqlite.prepare("update opme_requests set chosen_quote_id = ? where id = ?").run(rng.pick(quotes), id);
    return did("new request");
  }
  const request = rng.pick(requests);
  const surgeryId = (sqlite.prepare("select surgery_id as id from opme_requests where id = ?").get(request) as { id: number }).id;
  const quotes = idsOf("select id from opme_quotes where request_id = ? order by id", request);
  const items = idsOf("select id from opme_items where request_id = ? order by id", request);
  const prices = sqlite.prepare("select p.quote_id as quoteId, p.item_id as itemId from opme_quote_prices p join opme_quotes q on q.id = p.quote_id where q.request_id = ? order by 1, 2").all(request) as Array<{
    quoteId: number;
    itemId: number;
  }>;
  switch (rng.int(0, 15)) {
    case 0:
      sqlite.prepare("delete from opme_requests where id = ?").run(request);
      return did("request deleted");
    case 1: {
      const surgeries = free();
      if (surgeries.length) sqlite.prepare("update opme_requests set surgery_id = ? where id = ?").run(rng.pick(surgeries), request);
      return did("request moved to another surgery");
    }
    case 2:
      if (quotes.length) sqlite.prepare("update opme_requests set chosen_quote_id = ? where id = ?").run(rng.pick(quotes), request);
      return did("quote chosen");
    case 3:
      sqlite.prepare("update opme_requests set chosen_quote_id = null where id = ?").run(request);
      return did("quote unchosen");
    case 4:
      // Through the model: only a quote of this request, with its audit row.
      if (quotes.length) chooseOpmeQuote(userId, surgeryId, { quoteId: rng.pick(quotes), reason: "Menor preço" });
      return did("quote chosen (model)");
    case 5:
      if (quotes.length) sqlite.prepare("delete from opme_quotes where id = ?").run(rng.pick(quotes));
      return did("quote deleted");
    case 6:
      if (quotes.length) removeOpmeQuote(userId, surgeryId, rng.pick(quotes));
      return did("quote deleted (model)");
    case 7:
      if (quotes.length) sqlite.prepare("update opme_quotes set supplier_id = ? where id = ?").run(rng.pick(suppliers), rng.pick(quotes));
      return did("quote's supplier changed");
    case 8:
      if (items.length && quotes.length < 3) {
        // A complete quote through the model (the chosen one if it is chosen later).
        addOpmeQuote(userId, surgeryId, { supplierId: rng.pick(suppliers), validUntil: "2026-12-31", notes: null, prices: items.map((itemId) => ({ itemId, price: rng.int(0, 900_000) })) });
      }
      return did("complete quote added (model)");
    case 9:
      if (quotes.length && items.length) {
        sqlite
          .prepare("insert into opme_quote_prices (quote_id, item_id, unit_price_cents) values (?, ?, ?) on conflict (quote_id, item_id) do update set unit_price_cents = excluded.unit_price_cents")
          .run(rng.pick(quotes), rng.pick(items), rng.int(0, 900_000));
      }
      return did("price upserted");
    case 10:
      if (prices.length) {
        const { quoteId, itemId } = rng.pick(prices);
        sqlite.prepare("update opme_quote_prices set unit_price_cents = ? where quote_id = ? and item_id = ?").run(rng.int(0, 900_000), quoteId, itemId);
      }
      return did("price updated");
    case 11:
      if (prices.length) {
        const { quoteId, itemId } = rng.pick(prices);
        sqlite.prepare("delete from opme_quote_prices where quote_id = ? and item_id = ?").run(quoteId, itemId);
      }
      return did("price deleted");
    case 12:
      if (items.length) sqlite.prepare("update opme_items set quantity = ? where id = ?").run(rng.int(1, 9), rng.pick(items));
      return did("item quantity changed");
    case 13:
      if (items.length) {
        if (rng.next() < 0.5) sqlite.prepare("delete from opme_items where id = ?").run(rng.pick(items));
        else removeOpmeItem(userId, surgeryId, rng.pick(items));
      }
      return did("item deleted");
    case 14:
      if (rng.next() < 0.5) addOpmeItem(userId, surgeryId, { description: "Haste", quantity: rng.int(1, 4), anvisaRegistration: null });
      else sqlite.prepare("insert into opme_items (request_id, description, quantity, position) values (?, 'Cage', ?, 9)").run(request, rng.int(1, 4));
      return did("item added");
    default: {
      // An item (and its prices) moved to another request: both requests' quotes change.
      const other = rng.pick(requests);
      if (items.length && other !== request) sqlite.prepare("update opme_items set request_id = ? where id = ?").run(other, rng.pick(items));
      return did("item moved to another request");
    }
  }
}

/** One random write: through the models or raw SQL. */
function randomWrite() {
  const ids = surgeryIds();
  const id = ids.length ? rng.pick(ids) : null;
  const r = rng.int(0, 19);
  if (r <= 2 || id === null) return rawSurgery();
  switch (r) {
    case 3: {
      const input = surgerySchema.parse({
        patientId: String(rng.pick(patients)),
        doctorId: String(rng.pick(doctors)),
        surgeryType: rng.pick(["Artrodese", "DBS"]),
        scheduledDate: wallTime(randomInstant()),
        currentStage: rng.pick(["aguarda_docs", "agendado", "enviado_pre_aut"]),
        payerId: String(rng.pick(payers)),
        billedAmount: rng.next() < 0.5 ? "1.234,56" : "",
      });
      return void createSurgery(userId, input);
    }
    case 4: {
      const row = sqlite.prepare("select patient_id, doctor_id, surgery_type, current_stage from surgeries where id = ?").get(id) as Record<string, string | number>;
      try {
        updateSurgery(
          userId,
          id,
          surgerySchema.parse({
            patientId: String(row.patient_id),
            doctorId: String(rng.pick(doctors)),
            surgeryType: String(row.surgery_type),
            scheduledDate: wallTime(randomInstant()),
            currentStage: String(row.current_stage),
            payerId: String(rng.pick(payers)),
            billedAmount: "",
          }),
        );
      } catch {
        // A refused edit (e.g. concluded in the future) writes nothing: still a case to compare.
      }
      return;
    }
    case 5:
    case 6: {
      try {
        moveSurgery(userId, id, moveSchema.parse({ to: rng.pick(PIPELINE_STAGE_IDS), denialReason: "Sem cobertura", justification: "Urgência" }), new Date(randomInstant()));
      } catch {
        // Refused moves write nothing.
      }
      return;
    }
    case 7: {
      const at = randomInstant();
      sqlite.prepare("insert into pipeline_stages (surgery_id, stage, created_at, updated_at) values (?, ?, ?, ?)").run(id, rng.pick(PIPELINE_STAGE_IDS), at, at);
      return;
    }
    case 8: {
      const rows = stageRowIds();
      if (rows.length) sqlite.prepare("delete from pipeline_stages where id = ?").run(rng.pick(rows));
      return;
    }
    case 9: {
      const rows = stageRowIds();
      if (rows.length) sqlite.prepare("update pipeline_stages set created_at = created_at + ? where id = ?").run(rng.int(-10, 10) * DAY_MS + rng.int(-3_600_000, 3_600_000), rng.pick(rows));
      return;
    }
    case 10:
      sqlite.prepare("update surgeries set scheduled_date = ?, doctor_id = ? where id = ?").run(randomInstant(), rng.pick(doctors), id);
      return;
    case 11:
      sqlite
        .prepare("update surgeries set payer_id = ?, surgery_type = ?, current_stage = ? where id = ?")
        .run(rng.next() < 0.2 ? null : rng.pick(payers), rng.pick(["Artrodese", "DBS", "Craniotomia"]), rng.pick(PIPELINE_STAGE_IDS), id);
      return;
    case 12: {
      const billed = randomInstant();
      const status = rng.next() < 0.5 ? "pago" : rng.pick(["realizado", "faturado", "pendente", "glosa", null]);
      sqlite
        .prepare("update surgeries set receivable_status = ?, billed_amount_cents = ?, billed_at = ?, paid_at = ? where id = ?")
        .run(status, rng.pick([null, 0, rng.int(1, 5_000_000)]), rng.next() < 0.8 ? billed : null, status === "pago" || rng.next() < 0.1 ? billed + rng.int(-5, 120) * DAY_MS + rng.int(0, DAY_MS) : null, id);
      return;
    }
    case 13: {
      const denied = rng.int(1, 500_000);
      sqlite
        .prepare("insert into receivable_glosas (surgery_id, tiss_code, reason, denied_cents, recovered_cents, created_at, updated_at) values (?, '1801', 'Glosa', ?, ?, 0, 0)")
        .run(id, denied, rng.next() < 0.5 ? rng.int(0, denied) : 0);
      return;
    }
    case 14: {
      const rows = glosaIds();
      if (!rows.length) return;
      if (rng.next() < 0.5) sqlite.prepare("delete from receivable_glosas where id = ?").run(rng.pick(rows));
      else sqlite.prepare("update receivable_glosas set recovered_cents = ?, denied_cents = denied_cents + 1, surgery_id = ? where id = ?").run(rng.int(0, 1000), id, rng.pick(rows));
      return;
    }
    case 15:
      sqlite.prepare("update surgeries set ans_requested_at = ? where id = ?").run(rng.next() < 0.3 ? null : randomInstant(), id);
      return;
    case 16: {
      if (sqlite.prepare("select 1 from receivable_glosas where surgery_id = ?").get(id)) sqlite.prepare("delete from receivable_glosas where surgery_id = ?").run(id);
      sqlite.prepare("delete from surgeries where id = ?").run(id);
      return;
    }
    case 17: {
      const r2 = rng.next();
      const txIds = (sqlite.prepare("select id from financial_transactions order by id").all() as Array<{ id: number }>).map((row) => row.id);
      const tx = txIds.length ? rng.pick(txIds) : undefined;
      if (r2 < 0.3)
        createTransaction(
          userId,
          transactionSchema.parse({ transactionType: rng.pick(["receita", "despesa"]), amount: "1.234,56", transactionCategory: "Honorários", transactionDate: randomDay() }),
        );
      else if (r2 < 0.6 || !tx)
        sqlite
          .prepare("insert into financial_transactions (type, amount_cents, category, transaction_date, created_at, updated_at) values (?, ?, 'Outros', ?, 0, 0)")
          .run(rng.pick(["receita", "despesa"]), rng.int(1, 9_000_000), randomDay());
      else if (r2 < 0.8) sqlite.prepare("update financial_transactions set amount_cents = ?, transaction_date = ?, type = ? where id = ?").run(rng.int(1, 100), randomDay(), rng.pick(["receita", "despesa"]), tx);
      else sqlite.prepare("delete from financial_transactions where id = ?").run(tx);
      return;
    }
    default:
      sqlite.prepare("update surgeries set scheduled_date = ? where id = ?").run(startOfIsoDateInClinic(randomDay())!.getTime() + rng.pick([-1, 0, 1]), id);
  }
}

/** Periods that cut years, months and days every way, old summer times included. */
function periods(): KpiPeriod[] {
  const fixed: KpiPeriod[] = [
    { from: "2026-11-01", to: "2026-11-30" },
    { from: "2026-01-01", to: "2026-12-15" },
    { from: "2016-12-16", to: "2026-12-15" },
    { from: "2008-01-01", to: "2017-12-31" },
    { from: "2012-10-21", to: "2013-02-17" },
    { from: "2018-11-04", to: "2018-11-04" },
    { from: "2009-03-31", to: "2011-03-01" },
  ];
  for (let i = 0; i < 6; i++) {
    const from = randomDay();
    fixed.push({ from, to: addDaysIso(from, rng.int(0, 3652)) });
  }
  return fixed;
}

beforeAll(async () => {
  userId = (await loginAs("admin")).id;
  payers = [insertPayer("Unimed"), insertPayer("Bradesco Saúde"), insertPayer("Amil")];
  doctors = [insertDoctor("Dr. Um"), insertDoctor("Dra. Dois"), insertDoctor("Dr. Três")];
  patients = [insertPatient("Ana Souza"), insertPatient("Bruno Lima"), insertPatient("Carla Dias")];
  suppliers = ["Alfa Médica", "Beta OPME", "Gama Implantes"].map(
    (name) => (sqlite.prepare("insert into suppliers (name, type, search_text) values (?, 'opme', lower(?)) returning id").get(name, name) as { id: number }).id,
  );
});

describe("periodUnits", () => {
  it("cuts a period into whole years, whole months and loose days that cover it exactly once", () => {
    expect(periodUnits({ from: "2016-11-24", to: "2026-11-23" })).toEqual({
      years: ["2017", "2025"],
      months: [
        ["2016-12", "2016-12"],
        ["2026-01", "2026-10"],
      ],
      days: [
        ["2016-11-24", "2016-11-30"],
        ["2026-11-01", "2026-11-23"],
      ],
    });
    expect(periodUnits({ from: "2026-11-01", to: "2026-11-30" })).toEqual({ years: null, months: [["2026-11", "2026-11"]], days: [] });
    expect(periodUnits({ from: "2026-11-02", to: "2026-11-30" })).toEqual({ years: null, months: [], days: [["2026-11-02", "2026-11-30"]] });
    expect(periodUnits({ from: "2024-01-01", to: "2024-12-31" })).toEqual({ years: ["2024", "2024"], months: [], days: [] });
    expect(periodUnits({ from: "2023-12-31", to: "2025-01-01" })).toEqual({
      years: ["2024", "2024"],
      months: [],
      days: [
        ["2023-12-31", "2023-12-31"],
        ["2025-01-01", "2025-01-01"],
      ],
    });
    expect(periodUnits({ from: "2024-02-01", to: "2024-02-29" })).toEqual({ years: null, months: [["2024-02", "2024-02"]], days: [] });
  });
});

describe("KPI aggregates against a full recomputation", () => {
  it("KPIs Cirúrgicos and Financeiros: every figure equals the raw tables' after random writes, for every period and filter", () => {
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 150; i++) randomWrite();
      for (const period of periods()) {
        for (const filters of [{}, { doctorId: doctors[0] }, { payerId: payers[1] }, { doctorId: doctors[1], payerId: payers[0] }]) {
          const label = `${period.from}..${period.to} ${JSON.stringify(filters)}`;
          expect(computeSurgicalKpis(period, filters, NOW), label).toEqual(referenceSurgicalKpis(period, filters, NOW));
          expect(computeFinancialKpis(period, filters, NOW), label).toEqual(referenceFinancialKpis(period, filters, NOW));
        }
      }
    }
    // The writes did reach every figure (a comparison of empty reports would prove nothing).
    const all = referenceSurgicalKpis({ from: "2008-01-01", to: "2027-12-31" }, {}, NOW);
    expect(all.total).toBeGreaterThan(20);
    expect(all.stageTimes.some((t) => t.stays > 10)).toBe(true);
    expect(all.ansCompliance.whole).toBeGreaterThan(5);
    expect(all.denialRate.part).toBeGreaterThan(0);
    const money = referenceFinancialKpis({ from: "2008-01-01", to: "2027-12-31" }, {}, NOW);
    expect(money.revenueCents).toBeGreaterThan(0);
    expect(money.paymentDays.paid).toBeGreaterThan(3);
    expect(money.glosa.billedCents).toBeGreaterThan(0);
    expect((sqlite.prepare("select count(*) as n from receivable_glosas").get() as { n: number }).n).toBeGreaterThan(3);
    expect(money.ageing.some((b) => b.count > 0)).toBe(true);
  }, 120_000);

  it("KPIs OPME: every figure equals the former computation from the period's surgeries after random writes, for every period and filter", () => {
    for (let round = 0; round < 3; round++) {
      // Surgeries change (rescheduled, moved to another doctor or payer, deleted) between OPME writes.
      for (let i = 0; i < 100; i++) {
        randomWrite();
        randomOpmeWrite();
        // Right after each write too (a later write to the same request would hide a stale row): whole
        // years read the rollups only, a period of loose days the facts only.
        for (const period of [{ from: "2008-01-01", to: "2027-12-31" }, { from: "2008-01-02", to: "2027-12-30" }]) {
          expect(computeOpmeKpis(period), `after ${lastOpmeWrite}`).toEqual(referenceOpmeKpis(period));
        }
      }
      for (const period of periods()) {
        for (const filters of [{}, { doctorId: doctors[0] }, { payerId: payers[1] }, { doctorId: doctors[1], payerId: payers[0] }]) {
          expect(computeOpmeKpis(period, filters), `${period.from}..${period.to} ${JSON.stringify(filters)}`).toEqual(referenceOpmeKpis(period, filters));
        }
      }
    }
    const all = referenceOpmeKpis({ from: "2008-01-01", to: "2027-12-31" });
    expect(all.requests).toBeGreaterThan(20);
    expect(all.chosen).toBeGreaterThan(5);
    expect(all.compared).toBeGreaterThan(2);
    expect(all.bySupplier.length).toBe(3);
    // Every kind of write happened, more than once.
    expect([...opmeWrites.keys()].sort()).toHaveLength(17);
    for (const [kind, n] of opmeWrites) expect(n, kind).toBeGreaterThan(2);
  }, 120_000);

  it("the triggers leave exactly what the migration's backfill builds from the same rows", () => {
    for (let i = 0; i < 200; i++) {
      randomWrite();
      if (i % 4 === 0) randomOpmeWrite();
    }
    const snapshot = () => ({
      rollups: sqlite.prepare("select * from kpi_rollups where n <> 0 or v1 <> 0 or v2 <> 0 or v3 <> 0 order by metric, doctor_id, payer_id, level, unit, k1, k2").all(),
      facts: sqlite.prepare("select * from kpi_surgery_facts order by surgery_id").all(),
      stays: sqlite.prepare("select * from kpi_stage_stays order by stage_id").all(),
      opme: sqlite.prepare("select * from kpi_opme_requests order by request_id").all(),
    });
    // The facts are those of the requests' quotes.
    expect((sqlite.prepare("select count(*) as n from kpi_opme_requests where quotes > 0 and chosen_supplier_id is not null").get() as { n: number }).n).toBeGreaterThan(5);
    const maintained = snapshot();
    expect(maintained.rollups.length).toBeGreaterThan(100);
    expect(maintained.opme.length).toBeGreaterThan(10);
    const statements = ["drizzle/0027_kpi_surgical_financial_triggers.sql", "drizzle/0028_kpi_opme_requests.sql", "drizzle/0030_kpi_opme_request_facts.sql"].flatMap((file) => readFileSync(file, "utf8").split("--> statement-breakpoint"));
    const backfill = statements.filter((s) => /^\s*(INSERT INTO|UPDATE) kpi_/.test(s.replace(/^\s*--.*$/gm, "")));
    expect(backfill.length).toBeGreaterThanOrEqual(12);
    sqlite.exec("begin");
    try {
      for (const { name } of sqlite.prepare("select name from sqlite_master where type = 'trigger' and tbl_name in ('kpi_surgery_facts', 'kpi_stage_stays', 'kpi_opme_requests', 'opme_requests')").all() as Array<{ name: string }>) {
        sqlite.exec(`drop trigger "${name}"`);
      }
      sqlite.exec("delete from kpi_rollups; delete from kpi_stage_stays; delete from kpi_surgery_facts; delete from kpi_opme_requests;");
      for (const statement of backfill) sqlite.exec(statement);
      expect(snapshot()).toEqual(maintained);
    } finally {
      sqlite.exec("rollback");
    }
  }, 60_000);

  it("turns instants into São Paulo days as the app does, old summer times included", () => {
    const day = (ms: number) =>
      (sqlite
        .prepare(
          `select date((cast(@x + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= @x order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') as d`,
        )
        .get({ x: ms }) as { d: string }).d;
    // 2018-11-04: summer time began at midnight (no 00:00 that day); 2019-02-17: it ended at midnight.
    for (const iso of ["2018-11-04", "2018-11-03", "2019-02-16", "2019-02-17", "1990-01-01", "1965-06-30", "2026-11-23"]) {
      const start = startOfIsoDateInClinic(iso)!.getTime();
      expect(day(start)).toBe(iso);
      expect(day(start - 1)).toBe(addDaysIso(iso, -1));
    }
  });
});
