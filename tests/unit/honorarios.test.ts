import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { medicalCodes, referenceFeeSchedules, surgeries, surgeryFeeLines } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { porteTableVersion } from "~/lib/fees/porte";
import { parseListState } from "~/lib/list-params";
import { FEE_SCHEDULE_LIST } from "~/lib/lists";
import { cbhpmCodeLookup, feesByDoctor, listScheduleRows, payerSummary } from "~/models/honorarios.server";
import { importPorteTable } from "~/models/porte-table-import.server";
import { loader as cbhpmApi } from "~/routes/api/honorarios-cbhpm";
import { loader as doctorsApi } from "~/routes/api/honorarios-medicos";
import { loader as payersApi } from "~/routes/api/honorarios-pagador";
import { loader as schedulesApi } from "~/routes/api/honorarios-tabelas";
import { loader as doctorsPage } from "~/routes/honorarios-medicos";
import { loader as payersPage } from "~/routes/honorarios-pagador";
import { loader as schedulesPage } from "~/routes/honorarios-tabelas";
import { action as importAction } from "~/routes/honorarios-tabelas-importar";
import { type SignedIn, capturePrepared, formRequest, getRequest, insertDoctor, insertPatient, insertPayer, loginAs, routeArgs, thrownResponse } from "../support/fixtures";

let admin: SignedIn;
let staff: SignedIn;
let doctorUser: SignedIn;
let drAna: number;
let drBruno: number;
let unimed: number;
let amil: number;
let codeId: number;
let tumourCodeId: number;

const at = (iso: string) => new Date(iso);
const DAY = 86_400_000;

function surgery(doctorId: number, payerId: number, date: string, extra: Partial<typeof surgeries.$inferInsert> = {}) {
  const patientId = insertPatient(`Paciente ${date}`);
  return db.insert(surgeries).values({ patientId, doctorId, surgeryType: "Artrodese", scheduledDate: at(date), payerId, ...extra }).returning({ id: surgeries.id }).get().id;
}

function line(surgeryId: number, doctorId: number, role: "principal" | "auxiliar" | "anestesista", amountCents: number, medicalCodeId = codeId) {
  db.insert(surgeryFeeLines).values({ surgeryId, doctorId, role, amountCents, medicalCodeId }).run();
}

async function json(response: unknown) {
  const r = response as Response;
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorUser = await loginAs("doctor");
  drAna = insertDoctor("Dra. Ana Neuro", { userId: doctorUser.id });
  drBruno = insertDoctor("Dr. Bruno Anestesia", { specialty: "Anestesiologia", crm: "654321" });
  unimed = insertPayer("Unimed Teste");
  amil = insertPayer("Amil Teste");
  codeId = db.insert(medicalCodes).values({ code: "3.07.15.18-0", type: "cbhpm", description: "Hérnia de disco tóraco-lombar", porte: "10A" }).returning({ id: medicalCodes.id }).get().id;
  tumourCodeId = db.insert(medicalCodes).values({ code: "3.14.01.15-5", type: "cbhpm", description: "Microcirurgia para tumores intracranianos", porte: "13B" }).returning({ id: medicalCodes.id }).get().id;
  db.insert(referenceFeeSchedules).values([
    { kind: "CBHPM", year: 2022, version: "", code: "3.07.15.18-0", description: "Hérnia de disco tóraco-lombar", baseValueCents: 185_475 },
    { kind: "CBHPM", year: 2017, version: "", code: "3.07.15.18-0", description: "Hérnia de disco tóraco-lombar", baseValueCents: 127_530 },
    { kind: "CBHPM", year: 2022, version: "", code: "3.14.01.15-5", description: "Microcirurgia para tumores intracranianos", baseValueCents: 576_881 },
    { kind: "CBHPM", year: 2022, version: porteTableVersion("original"), code: "10A", description: "Porte 10A", baseValueCents: 185_475 },
    { kind: "TUSS", year: 2026, version: "Unimed", code: "30715180", description: "Hérnia de disco tóraco-lombar", baseValueCents: 222_570 },
  ]).run();
  // March: two surgeries of Dra. Ana (one with Dr. Bruno anaesthetising), April: one.
  const s1 = surgery(drAna, unimed, "2026-03-10T13:00:00Z", { receivableStatus: "pago", billedAmountCents: 300_000, billedAt: at("2026-03-15T12:00:00Z"), paidAt: at("2026-04-14T12:00:00Z") });
  const s2 = surgery(drAna, unimed, "2026-03-20T13:00:00Z", { receivableStatus: "faturado", billedAmountCents: 200_000, billedAt: at("2026-03-25T12:00:00Z") });
  const s3 = surgery(drAna, amil, "2026-04-05T13:00:00Z", { receivableStatus: "pago", billedAmountCents: 100_000, billedAt: at("2026-04-06T12:00:00Z"), paidAt: at("2026-04-16T12:00:00Z") });
  surgery(drBruno, amil, "2026-04-07T13:00:00Z"); // not performed: no receivable status
  line(s1, drAna, "principal", 185_475);
  line(s1, drBruno, "anestesista", 156_797);
  line(s2, drAna, "principal", 92_738);
  line(s2, drAna, "principal", 46_369);
  line(s3, drAna, "auxiliar", 111_285);
  line(s3, drAna, "principal", 50_000, tumourCodeId);
});

describe("GET /api/honorarios/medicos", () => {
  it("answers SPEC §7's shape with every total to the cent, filtered by dates and doctor", async () => {
    const all = await json(await doctorsApi(routeArgs(getRequest("/api/honorarios/medicos", { cookie: staff.cookie }))));
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      doctors: [
        { id: drAna, name: "Dra. Ana Neuro", specialty: "Neurocirurgia", qty: 3, total_principal: 374_582, total_auxiliar: 111_285, total_anestesista: 0, total: 485_867 },
        { id: drBruno, name: "Dr. Bruno Anestesia", specialty: "Anestesiologia", qty: 1, total_principal: 0, total_auxiliar: 0, total_anestesista: 156_797, total: 156_797 },
      ],
    });
    const march = await json(await doctorsApi(routeArgs(getRequest(`/api/honorarios/medicos?from=2026-03-01&to=2026-03-31&doctor_id=${drAna}`, { cookie: staff.cookie }))));
    expect(march.body.doctors).toEqual([{ id: drAna, name: "Dra. Ana Neuro", specialty: "Neurocirurgia", qty: 2, total_principal: 324_582, total_auxiliar: 0, total_anestesista: 0, total: 324_582 }]);
    // 'to' is inclusive of its whole São Paulo day.
    const lastDay = await json(await doctorsApi(routeArgs(getRequest("/api/honorarios/medicos?from=2026-04-05&to=2026-04-05", { cookie: staff.cookie }))));
    expect((lastDay.body.doctors as Array<{ total: number }>).map((d) => d.total)).toEqual([161_285]);
  });

  it("is kept between views and recomputed after any write (a new fee line, a payment)", async () => {
    const totalOf = async (path: string) => (await json(await doctorsApi(routeArgs(getRequest(path, { cookie: staff.cookie }))))).body.doctors as Array<{ id: number; total: number }>;
    const before = await totalOf("/api/honorarios/medicos?from=2026-05-01&to=2026-05-31");
    expect(before).toEqual([]);
    const may = surgery(drBruno, amil, "2026-05-12T13:00:00Z", { receivableStatus: "faturado", billedAmountCents: 80_000, billedAt: at("2026-05-13T12:00:00Z") });
    line(may, drBruno, "principal", 80_000);
    expect(await totalOf("/api/honorarios/medicos?from=2026-05-01&to=2026-05-31")).toEqual([expect.objectContaining({ id: drBruno, total: 80_000 })]);
    const payers = async () => (await json(await payersApi(routeArgs(getRequest("/api/honorarios/pagador?from=2026-05-01&to=2026-05-31", { cookie: admin.cookie }))))).body.payers as Array<{ avg_payment_days: number | null }>;
    expect((await payers())[0].avg_payment_days).toBeNull();
    db.update(surgeries).set({ receivableStatus: "pago", paidAt: at("2026-05-23T12:00:00Z") }).where(eq(surgeries.id, may)).run();
    expect((await payers())[0].avg_payment_days).toBe((10 * DAY) / 1000);
    db.delete(surgeryFeeLines).where(eq(surgeryFeeLines.surgeryId, may)).run();
    db.delete(surgeries).where(eq(surgeries.id, may)).run();
  });

  it("gives a doctor only their own row", async () => {
    const own = await json(await doctorsApi(routeArgs(getRequest("/api/honorarios/medicos", { cookie: doctorUser.cookie }))));
    expect((own.body.doctors as Array<{ id: number }>).map((d) => d.id)).toEqual([drAna]);
    const other = await json(await doctorsApi(routeArgs(getRequest(`/api/honorarios/medicos?doctor_id=${drBruno}`, { cookie: doctorUser.cookie }))));
    expect(other.body.doctors).toEqual([]);
  });

  it("answers 400 with { error } for bad parameters", async () => {
    for (const query of ["from=2026-13-01", "to=ontem", "doctor_id=abc", "doctor_id=-1", "from=2026-04-01&to=2026-03-01"]) {
      const refused = await json(await doctorsApi(routeArgs(getRequest(`/api/honorarios/medicos?${query}`, { cookie: admin.cookie }))));
      expect(refused.status, query).toBe(400);
      expect(typeof refused.body.error).toBe("string");
    }
  });
});

describe("GET /api/honorarios/cbhpm", () => {
  it("finds codes by prefix, dotted or bare, with their usage and without the porte tables", async () => {
    const found = await json(await cbhpmApi(routeArgs(getRequest("/api/honorarios/cbhpm?code=3.07", { cookie: doctorUser.cookie }))));
    expect(found.body).toEqual({
      codes: [
        { code: "3.07.15.18-0", description: "Hérnia de disco tóraco-lombar", year: 2022, base_value_cents: 185_475, usage_count: 2 },
        { code: "3.07.15.18-0", description: "Hérnia de disco tóraco-lombar", year: 2017, base_value_cents: 127_530, usage_count: 2 },
      ],
    });
    const bare = await json(await cbhpmApi(routeArgs(getRequest("/api/honorarios/cbhpm?code=30715180", { cookie: admin.cookie }))));
    expect((bare.body.codes as unknown[]).length).toBe(2);
    const everything = await json(await cbhpmApi(routeArgs(getRequest("/api/honorarios/cbhpm", { cookie: admin.cookie }))));
    // Each code counts its own surgeries: the hérnia twice (s1, s2), the tumour once (s3).
    expect((everything.body.codes as Array<{ code: string; usage_count: number }>).map((c) => [c.code, c.usage_count])).toEqual([
      ["3.07.15.18-0", 2],
      ["3.07.15.18-0", 2],
      ["3.14.01.15-5", 1],
    ]);
    const refused = await json(await cbhpmApi(routeArgs(getRequest("/api/honorarios/cbhpm?code=drop%20table", { cookie: admin.cookie }))));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/code/);
  });

  it("counts a code's new surgery at once, although the lookup is kept between views", () => {
    const usage = () => cbhpmCodeLookup({ code: "3.14" }).map((row) => row.usage_count);
    expect(usage()).toEqual([1]);
    expect(usage()).toEqual([1]);
    const id = surgery(drAna, unimed, "2026-05-04T12:00:00Z");
    line(id, drAna, "principal", 500_00, tumourCodeId);
    expect(usage()).toEqual([2]);
    db.delete(surgeryFeeLines).where(eq(surgeryFeeLines.surgeryId, id)).run();
    db.delete(surgeries).where(eq(surgeries.id, id)).run();
    expect(usage()).toEqual([1]);
  });
});

describe("GET /api/honorarios/pagador", () => {
  it("sums the performed surgeries per payer and averages payment time in seconds", async () => {
    const all = await json(await payersApi(routeArgs(getRequest("/api/honorarios/pagador", { cookie: staff.cookie }))));
    expect(all.body).toEqual({
      payers: [
        // billed 15/03 → paid 14/04: 30 days
        { id: unimed, name: "Unimed Teste", type: "insurance", qty: 2, total: 500_000, avg_payment_days: (30 * DAY) / 1000 },
        // billed 06/04 → paid 16/04: 10 days
        { id: amil, name: "Amil Teste", type: "insurance", qty: 1, total: 100_000, avg_payment_days: (10 * DAY) / 1000 },
      ],
    });
    const one = await json(await payersApi(routeArgs(getRequest(`/api/honorarios/pagador?payer_id=${amil}&from=2026-04-01&to=2026-04-30`, { cookie: admin.cookie }))));
    expect((one.body.payers as Array<{ id: number }>).map((p) => p.id)).toEqual([amil]);
    const none = await json(await payersApi(routeArgs(getRequest("/api/honorarios/pagador?from=2025-01-01&to=2025-01-31", { cookie: admin.cookie }))));
    expect(none.body).toEqual({ payers: [] });
    expect((await json(await payersApi(routeArgs(getRequest("/api/honorarios/pagador?payer_id=x", { cookie: admin.cookie }))))).status).toBe(400);
  });

  it("is for admins and staff: a doctor gets 403", async () => {
    const response = await thrownResponse(payersApi(routeArgs(getRequest("/api/honorarios/pagador", { cookie: doctorUser.cookie }))));
    expect(response.status).toBe(403);
  });
});

describe("GET /api/honorarios/tabelas", () => {
  it("filters by kind, year and search, in SPEC §7's shape", async () => {
    const tuss = await json(await schedulesApi(routeArgs(getRequest("/api/honorarios/tabelas?kind=TUSS", { cookie: staff.cookie }))));
    expect(tuss.body).toEqual({ schedules: [{ kind: "TUSS", year: 2026, version: "Unimed", code: "30715180", description: "Hérnia de disco tóraco-lombar", base_value_cents: 222_570 }] });
    const search = await json(await schedulesApi(routeArgs(getRequest("/api/honorarios/tabelas?kind=CBHPM&year=2022&search=tumores", { cookie: staff.cookie }))));
    expect((search.body.schedules as Array<{ code: string }>).map((s) => s.code)).toEqual(["3.14.01.15-5"]);
    for (const query of ["kind=AMB", "year=22", "year=abcd"]) {
      expect((await json(await schedulesApi(routeArgs(getRequest(`/api/honorarios/tabelas?${query}`, { cookie: staff.cookie }))))).status, query).toBe(400);
    }
  });
});

describe("the reports at scale", () => {
  const planOf = (statement: string) => {
    const params = (statement.match(/\?/g) ?? []).map(() => 1);
    return (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail);
  };

  it("read the fee lines and surgeries through their covering indexes, never a full scan or a sort of them", () => {
    sqlite.prepare("update row_counts set n = n where table_name = 'doctors'").run(); // a write: the kept reports are read again
    const statements = capturePrepared(() => {
      // Whole months, loose days alone, and both: the months from their rows, the days from the lines' index.
      for (const [from, to] of [["2026-03-01", "2026-03-31"], ["2026-03-05", "2026-04-10"], ["2026-02-15", "2026-05-10"], [null, "2026-03-12"], [null, null]]) {
        feesByDoctor({ from, to, doctorId: null }, { ownDoctorOnly: false, doctorId: null });
        feesByDoctor({ from, to, doctorId: drAna }, { ownDoctorOnly: false, doctorId: null });
      }
      payerSummary({ from: "2026-03-01", to: "2026-04-30", payerId: null });
      payerSummary({ from: null, to: null, payerId: amil });
      cbhpmCodeLookup({ code: "3.07" });
      cbhpmCodeLookup({ code: "" });
    });
    const big = statements.filter((s) => /"(surgery_fee_lines|surgeries)"/.test(s) && !/fee_doctor_/.test(s));
    // The loose days of four ranges, each for every doctor and for one; the payers' and codes' reports.
    expect(big).toHaveLength(4 * 2 + 4);
    for (const statement of big) {
      const plan = planOf(statement);
      const why = `${statement}\n${plan.join("\n")}`;
      expect(plan.join("\n"), why).not.toMatch(/SCAN (surgery_fee_lines|surgeries)\b/);
      // Every read of the big tables is a SEARCH of one covering index.
      const reads = plan.filter((detail) => /\b(surgery_fee_lines|surgeries)\b/.test(detail));
      expect(reads.length, why).toBeGreaterThan(0);
      for (const read of reads) expect(read, why).toMatch(/^SEARCH (surgery_fee_lines|surgeries) USING COVERING INDEX (surgery_fee_lines_doctor_date_idx|surgeries_payer_date_billing_idx|surgery_fee_lines_code_role_idx) \(/);
      // The only sorts are of the grouped rows (one per doctor or payer) or of the ≤ 50 codes' page;
      // count(distinct) keeps one doctor's surgery ids at a time.
      for (const sort of plan.filter((detail) => detail.includes("TEMP B-TREE"))) {
        expect(sort, why).toMatch(/^USE TEMP B-TREE FOR (ORDER BY|count\(DISTINCT\))$/);
        if (sort.endsWith("ORDER BY")) expect(statement, why).toMatch(/group by "(doctors|payers)"\."id"|from "reference_fee_schedules"/);
      }
    }
    // The months are read from their own rows, one doctor's by its key; the surgeries whose lines
    // fall in several months, from their few lines by surgery.
    const months = statements.filter((s) => /from "fee_doctor_months"/.test(s));
    // Every range but the one of loose days alone, each for every doctor and for one.
    expect(months).toHaveLength(4 * 2);
    for (const statement of months.filter((s) => /"doctor_id" = \?/.test(s))) {
      expect(planOf(statement).join("\n"), statement).toMatch(/^SEARCH fee_doctor_months USING PRIMARY KEY \(doctor_id=\?/);
    }
    const split = statements.filter((s) => /from "fee_doctor_split_surgeries"/.test(s));
    expect(split).toHaveLength(5 * 2);
    for (const statement of split) expect(planOf(statement).join("\n"), statement).toMatch(/SEARCH surgery_fee_lines USING INDEX surgery_fee_lines_surgery_idx \(surgery_id=\?\)/);
  });

  it("pages the reference tables in code order without sorting them", () => {
    const [page] = capturePrepared(() => listScheduleRows(parseListState(new URL("http://x/honorarios/tabelas?sort=code"), FEE_SCHEDULE_LIST))).filter((s) => /order by/.test(s));
    expect(planOf(page).join("\n")).not.toMatch(/TEMP B-TREE/);
  });
});

describe("importing a porte table (CSV)", () => {
  const csv = (lines: string[]) => ["Porte;Valor (R$)", ...lines].join("\n");

  it("names the bad line and imports nothing", () => {
    const check = importPorteTable(admin.id, 2024, "faixa_2", csv(["1A;26,74", "15Z;10,00", "2A;abc"]), { apply: true });
    expect(check.applied).toBe(false);
    expect(check.errors).toEqual([
      { line: 3, messages: ["porte '15Z' inválido (use 1A a 14C)"] },
      { line: 4, messages: ["valor inválido (use reais, ex.: 1.854,75)"] },
    ]);
    expect(db.select().from(referenceFeeSchedules).where(eq(referenceFeeSchedules.year, 2024)).all()).toEqual([]);
  });

  it("previews, then replaces the edition and band's table in one go, through the screen", async () => {
    const preview = await importAction(routeArgs(formRequest("/honorarios/tabelas/importar", { intent: "preview", edition: "2024", band: "faixa_2", csv: csv(["1A;26,74", "10A;1.854,75"]) }, { cookie: admin.cookie })));
    expect((preview as { data: { check: { rows: unknown[]; missing: string[] } } }).data.check.rows).toHaveLength(2);
    expect(db.select().from(referenceFeeSchedules).where(eq(referenceFeeSchedules.year, 2024)).all()).toEqual([]);
    const applied = await importAction(routeArgs(formRequest("/honorarios/tabelas/importar", { intent: "apply", edition: "2024", band: "faixa_2", csv: csv(["1A;26,74", "10A;1.854,75"]) }, { cookie: admin.cookie })));
    expect((applied as Response).status).toBe(302);
    importPorteTable(admin.id, 2024, "faixa_2", csv(["10A;1.900,00"]), { apply: true });
    const rows = db.select().from(referenceFeeSchedules).where(and(eq(referenceFeeSchedules.year, 2024), eq(referenceFeeSchedules.version, porteTableVersion("faixa_2")))).all();
    expect(rows.map((r) => [r.code, r.baseValueCents])).toEqual([["10A", 190_000]]);
  });

  it("is for admins", async () => {
    const response = await thrownResponse(importAction(routeArgs(formRequest("/honorarios/tabelas/importar", { intent: "apply", edition: "2024", band: "original", csv: csv(["1A;1,00"]) }, { cookie: staff.cookie }))));
    expect(response.status).toBe(403);
  });
});

describe("the report screens", () => {
  it("show a doctor only their own row, without the doctor filter, and a bad date as a message with 400", async () => {
    const own = (await doctorsPage(routeArgs(getRequest("/honorarios/medicos", { cookie: doctorUser.cookie })))) as { rows: Array<{ id: number }>; doctorOptions: readonly unknown[]; ownOnly: boolean };
    expect(own.rows.map((r) => r.id)).toEqual([drAna]);
    expect(own.doctorOptions).toEqual([]);
    expect(own.ownOnly).toBe(true);
    const bad = (await doctorsPage(routeArgs(getRequest("/honorarios/medicos?from=31/03/2026", { cookie: staff.cookie })))) as unknown as { init: { status: number }; data: { rows: unknown[]; error: string } };
    expect(bad.init.status).toBe(400);
    expect(bad.data.error).toBe("Parâmetro 'from' inválido: use a data inicial no formato AAAA-MM-DD.");
    expect(bad.data.rows).toEqual([]);
  });

  it("refuses the per-payer report to a doctor and lists the reference tables in pages", async () => {
    expect((await thrownResponse(payersPage(routeArgs(getRequest("/honorarios/pagador", { cookie: doctorUser.cookie }))))).status).toBe(403);
    const tables = await schedulesPage(routeArgs(getRequest("/honorarios/tabelas?kind=CBHPM&year=2022&q=3.14", { cookie: doctorUser.cookie })));
    expect(tables.rows.map((r) => [r.code, r.baseValueCents])).toEqual([["3.14.01.15-5", 576_881]]);
    expect(tables.canImport).toBe(false);
  });
});
