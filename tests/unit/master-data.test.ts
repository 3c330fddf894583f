import { parseWithZod } from "@conform-to/zod/v4";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, medicalCodes, orders, payerTissSettings, payers, suppliers } from "~db/schema";
import { db } from "~/.server/db";
import { isValidCnpj, normalizeCep } from "~/lib/documents";
import { parseCursor } from "~/lib/list-params";
import { createHospital, getHospital, listHospitals } from "~/models/hospital.server";
import { importCsv } from "~/models/master-data-csv.server";
import { MasterDataError } from "~/models/master-data.server";
import { createMedicalCode, getMedicalCode, listMedicalCodes, updateMedicalCode } from "~/models/medical-code.server";
import { createPayer, deletePayer, getPayer, listPayers, updatePayer } from "~/models/payer.server";
import { createSupplier, deleteSupplier } from "~/models/supplier.server";
import { action, loader } from "~/routes/master-data";
import { action as importAction } from "~/routes/master-data-import";
import { hospitalSchema, medicalCodeSchema, payerSchema, supplierSchema } from "~/validation/master-data";
import { formRequest, getRequest, loginAs, routeArgs, statusOf, thrownResponse } from "./helpers";

let adminId: number;
let adminCookie: string;
let staffCookie: string;
let doctorCookie: string;

beforeAll(async () => {
  const admin = await loginAs("admin", { name: "Ana Admin", email: "ana@cadastros.test" });
  adminId = admin.id;
  adminCookie = admin.cookie;
  staffCookie = (await loginAs("staff", { name: "Sérgio Equipe", email: "sergio@cadastros.test" })).cookie;
  doctorCookie = (await loginAs("doctor", { name: "Dra. Médica", email: "medica@cadastros.test" })).cookie;
});

function parse<Schema extends Parameters<typeof parseWithZod>[1]["schema"]>(schema: Schema, fields: Record<string, string>) {
  const formData = new FormData();
  for (const [k, v] of Object.entries(fields)) formData.set(k, v);
  const submission = parseWithZod(formData, { schema });
  return submission.status === "success" ? { value: submission.value as Record<string, unknown> } : { errors: submission.error ?? {} };
}

describe("CNPJ, CEP, UF", () => {
  it("accepts the numeric CNPJ and the alphanumeric CNPJ of DOMAIN.md §4, with or without punctuation", () => {
    for (const cnpj of ["12ABC34501DE35", "12.ABC.345/01DE-35", "12ABC345000188", "Q0SLFMBD7VX439", "AA345678000114", "AA345678000A29", "12345678000A08", "12345678000195", "12.345.678/0001-95", "12abc34501de35"]) {
      expect(isValidCnpj(cnpj), cnpj).toBe(true);
    }
  });

  it("refuses wrong check digits, repeated digits, letters in the check digits and other lengths", () => {
    for (const cnpj of ["12345678000196", "12ABC34501DE36", "11111111111111", "00000000000000", "12ABC34501DEAB", "1234567800019", "12.345.678/0001-9X", "12#ABC34501DE35"]) {
      expect(isValidCnpj(cnpj), cnpj).toBe(false);
    }
  });

  it("stores the CNPJ normalised (upper case, no punctuation)", () => {
    expect(parse(payerSchema, { name: "X", cnpj: "12.abc.345/01de-35" })).toMatchObject({ value: { cnpj: "12ABC34501DE35" } });
    expect(parse(payerSchema, { name: "X", cnpj: "12.345.678/0001-96" })).toEqual({ errors: { cnpj: ["CNPJ inválido"] } });
  });

  it("reads a CEP with or without its hyphen and refuses other shapes", () => {
    expect(normalizeCep("01310100")).toBe("01310-100");
    expect(normalizeCep("01310-100")).toBe("01310-100");
    expect(normalizeCep("1310-100")).toBeNull();
    expect(parse(hospitalSchema, { name: "H", postalCode: "0131-0100x" })).toEqual({ errors: { postalCode: ["CEP inválido: use o formato 00000-000"] } });
  });

  it("takes a real UF only", () => {
    expect(parse(hospitalSchema, { name: "H", state: "sp" })).toMatchObject({ value: { state: "SP" } });
    expect(parse(hospitalSchema, { name: "H", state: "SPX" })).toEqual({ errors: { state: ["UF inválida"] } });
    expect(parse(hospitalSchema, { name: "H", state: "XX" })).toEqual({ errors: { state: ["UF inválida"] } });
  });

  it("takes a CNES of 7 digits and a registro ANS of 6, the latter for insurers only", () => {
    expect(parse(hospitalSchema, { name: "H", cnes: "2077485" })).toMatchObject({ value: { cnes: "2077485" } });
    expect(parse(hospitalSchema, { name: "H", cnes: "207748" })).toEqual({ errors: { cnes: ["O CNES tem 7 dígitos"] } });
    expect(parse(payerSchema, { name: "P", ansRegistration: "326305" })).toMatchObject({ value: { ansRegistration: "326305" } });
    expect(parse(payerSchema, { name: "P", ansRegistration: "32630" })).toEqual({ errors: { ansRegistration: ["O registro ANS tem 6 dígitos"] } });
    expect(parse(payerSchema, { name: "P", type: "private", ansRegistration: "326305" })).toEqual({
      errors: { ansRegistration: ["Registro ANS só se aplica a convênios"] },
    });
  });
});

describe("payer schema", () => {
  it("defaults: insurance, 30 days, 100 %, assistants 60/40/30/30, 50/70 % multiple, 30 % urgency, original band", () => {
    expect(parse(payerSchema, { name: "Unimed" })).toEqual({
      value: expect.objectContaining({
        type: "insurance",
        paymentTermsDays: 30,
        coveragePercentage: 100,
        assistant1FeePercent: 60,
        assistant2FeePercent: 40,
        assistant3FeePercent: 30,
        assistant4FeePercent: 30,
        multipleSameRoutePercent: 50,
        multipleOtherRoutePercent: 70,
        urgencySurchargePercent: 30,
        cbhpmBand: "original",
        active: false,
      }),
    });
  });

  it("bounds coverage to 0..100 and fee percentages to whole 0..100", () => {
    expect(parse(payerSchema, { name: "P", coveragePercentage: "101" })).toEqual({ errors: { coveragePercentage: ["A cobertura deve estar entre 0 e 100%"] } });
    expect(parse(payerSchema, { name: "P", coveragePercentage: "-1" })).toEqual({ errors: { coveragePercentage: ["A cobertura deve estar entre 0 e 100%"] } });
    expect(parse(payerSchema, { name: "P", coveragePercentage: "87,5" })).toMatchObject({ value: { coveragePercentage: 87.5 } });
    expect(parse(payerSchema, { name: "P", assistant1FeePercent: "30", assistant2FeePercent: "20" })).toMatchObject({
      value: { assistant1FeePercent: 30, assistant2FeePercent: 20 },
    });
    expect(parse(payerSchema, { name: "P", urgencySurchargePercent: "130" })).toEqual({
      errors: { urgencySurchargePercent: ["Informe um percentual inteiro entre 0 e 100"] },
    });
    expect(parse(payerSchema, { name: "P", assistant1FeePercent: "60.5" })).toEqual({
      errors: { assistant1FeePercent: ["Informe um percentual inteiro entre 0 e 100"] },
    });
    expect(parse(payerSchema, { name: "" })).toEqual({ errors: { name: ["Informe o nome do pagador"] } });
  });
});

describe("supplier and code schemas", () => {
  it("rates a supplier 0..5 in steps of 0.1, 5 by default", () => {
    expect(parse(supplierSchema, { name: "S" })).toMatchObject({ value: { qualityRating: 5 } });
    expect(parse(supplierSchema, { name: "S", qualityRating: "4,7" })).toMatchObject({ value: { qualityRating: 4.7 } });
    expect(parse(supplierSchema, { name: "S", qualityRating: "5.1" })).toEqual({ errors: { qualityRating: ["A avaliação vai de 0 a 5, em passos de 0,1"] } });
    expect(parse(supplierSchema, { name: "S", qualityRating: "4.75" })).toEqual({ errors: { qualityRating: ["A avaliação vai de 0 a 5, em passos de 0,1"] } });
  });

  it("writes CBHPM codes with their punctuation, TUSS as 8 digits, CID-10 in upper case", () => {
    expect(parse(medicalCodeSchema, { type: "cbhpm", code: "30715180", description: "Hérnia", porte: "10a", assistantsCount: "1", anestheticPorte: "6" })).toMatchObject({
      value: { code: "3.07.15.18-0", porte: "10A", assistantsCount: 1, anestheticPorte: 6 },
    });
    expect(parse(medicalCodeSchema, { type: "tuss", code: "3.07.15.18-0", description: "Hérnia" })).toMatchObject({ value: { code: "30715180" } });
    expect(parse(medicalCodeSchema, { type: "icd10", code: "m511", description: "Lombalgia" })).toMatchObject({ value: { code: "M51.1" } });
    expect(parse(medicalCodeSchema, { type: "cbhpm", code: "3071518", description: "x" })).toEqual({ errors: { code: ["Código CBHPM inválido: use os 8 dígitos"] } });
    expect(parse(medicalCodeSchema, { type: "cbhpm", code: "30715180", description: "x", porte: "15A", anestheticPorte: "9" })).toEqual({
      errors: { porte: ["Porte inválido: de 1A a 14C"], anestheticPorte: ["O porte anestésico vai de 0 a 8"] },
    });
    expect(parse(medicalCodeSchema, { type: "tuss", code: "30715180", description: "x", porte: "10A" })).toEqual({ errors: { porte: ["Só se aplica a códigos CBHPM"] } });
    expect(parse(medicalCodeSchema, { type: "custom", code: "PX-1", description: "x", priceCents: "1.854,75" })).toMatchObject({ value: { priceCents: 185475 } });
  });
});

const payerInput = (overrides: Record<string, string> = {}) => {
  const result = parse(payerSchema, { name: "Convênio Teste", active: "on", ...overrides });
  if (!("value" in result)) throw new Error(JSON.stringify(result));
  return result.value as Parameters<typeof createPayer>[1];
};

describe("payer model", () => {
  it("creates, finds accent-insensitively, updates and deletes with an audit entry each", () => {
    const id = createPayer(adminId, payerInput({ name: "Assistência Médica Ômega", cnpj: "12ABC34501DE35", assistant1FeePercent: "30" }));
    const stored = getPayer(id)!;
    expect(stored).toMatchObject({ cnpj: "12ABC34501DE35", assistant1FeePercent: 30, assistant2FeePercent: 40, urgencySurchargePercent: 30, active: true });
    expect(listPayers({ q: "assistencia omega", page: 1, sort: "name", dir: "asc" }).rows.map((r) => r.id)).toEqual([id]);
    expect(listPayers({ q: "12.ABC.345", page: 1, sort: "name", dir: "asc" }).rows.map((r) => r.id)).toEqual([id]);

    updatePayer(adminId, id, payerInput({ name: "Ômega Saúde", cnpj: "12ABC34501DE35", coveragePercentage: "80" }));
    expect(getPayer(id)).toMatchObject({ name: "Ômega Saúde", coveragePercentage: 80 });
    deletePayer(adminId, id);
    expect(getPayer(id)).toBeNull();
    const actions = db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, String(id))).all().map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["create", "update", "delete"]));
  });

  it("keeps an insurer's TISS settings with it: saved, changed in the audit diff, removed when the code is cleared", async () => {
    const create = await action(
      routeArgs(formRequest("/master-data/payers", { intent: "create", name: "Convênio TISS", type: "insurance", ansRegistration: "123456", tissVersion: "4.01.00", tissProviderCode: " PREST-0042 " }, { cookie: adminCookie })),
    );
    expect(statusOf(create)).toBe(302);
    const id = db.select({ id: payers.id }).from(payers).where(eq(payers.name, "Convênio TISS")).get()!.id;
    expect(db.select().from(payerTissSettings).where(eq(payerTissSettings.payerId, id)).get()).toMatchObject({ tissVersion: "4.01.00", providerCode: "PREST-0042" });
    expect(getPayer(id)).toMatchObject({ tissVersion: "4.01.00", tissProviderCode: "PREST-0042" });

    updatePayer(adminId, id, payerInput({ name: "Convênio TISS", tissProviderCode: "PREST-0043" }));
    expect(db.select().from(payerTissSettings).where(eq(payerTissSettings.payerId, id)).get()).toMatchObject({ providerCode: "PREST-0043" });
    const update = db.select({ changes: auditLog.changes }).from(auditLog).where(and(eq(auditLog.entityId, String(id)), eq(auditLog.action, "update"))).get();
    expect(JSON.stringify(update?.changes)).toContain('"tissProviderCode":["PREST-0042","PREST-0043"]');

    updatePayer(adminId, id, payerInput({ name: "Convênio TISS", tissProviderCode: "" }));
    expect(db.select().from(payerTissSettings).where(eq(payerTissSettings.payerId, id)).get()).toBeUndefined();
    expect(parse(payerSchema, { name: "P", type: "private", tissProviderCode: "X1" })).toEqual({ errors: { tissProviderCode: ["A configuração TISS só se aplica a convênios"] } });
    expect(parse(payerSchema, { name: "P", tissProviderCode: "123456789012345" })).toMatchObject({ errors: { tissProviderCode: [expect.any(String)] } });
    expect(parse(payerSchema, { name: "P", tissVersion: "3.05.00" })).toEqual({ errors: { tissVersion: ["Escolha a versão TISS"] } });
  });

  it("keeps the CNPJ unique per table", () => {
    createPayer(adminId, payerInput({ name: "Primeiro", cnpj: "AA345678000114" }));
    expect(() => createPayer(adminId, payerInput({ name: "Segundo", cnpj: "AA.345.678/0001-14" }))).toThrow(
      /O CNPJ AA\.345\.678\/0001-14 já está cadastrado para Primeiro/,
    );
    // The same CNPJ in another table is another organisation's record: allowed.
    expect(() => createHospital(adminId, parse(hospitalSchema, { name: "Hospital Primeiro", cnpj: "AA345678000114" }).value as never)).not.toThrow();
  });

  it("refuses to delete a supplier that orders point at", () => {
    const supplierId = createSupplier(adminId, parse(supplierSchema, { name: "OPME Brasil" }).value as never);
    db.insert(orders).values({ orderType: "OPME", supplierId }).run();
    expect(() => deleteSupplier(adminId, supplierId)).toThrow("Não é possível excluir OPME Brasil: este fornecedor está em 1 pedido. Marque-o como inativo.");
  });
});

describe("Cadastros pages", () => {
  it("reaches the same page by its link (cursor), by its number typed in the URL, and back", () => {
    for (let i = 1; i <= 60; i++) {
      createHospital(adminId, parse(hospitalSchema, { name: `Hospital Paginado ${String(i).padStart(2, "0")}` }).value as never);
    }
    const names = (from: number, to: number) =>
      Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => `Hospital Paginado ${String(from + (to > from ? i : -i)).padStart(2, "0")}`);
    const state = { q: "paginado", sort: "name" as const, dir: "asc" as const };
    const first = listHospitals({ ...state, page: 1 });
    expect(first).toMatchObject({ total: 60, totalCapped: false, pageSize: 25, prev: null });
    expect(first.rows.map((r) => r.name)).toEqual(names(1, 25));

    // Page 2 of 3 is in the first half: a typed number finds the row before it in the index, then reads on.
    const byLink = listHospitals({ ...state, page: 2, after: parseCursor(first.next) });
    const typed = listHospitals({ ...state, page: 2 });
    expect(byLink.rows.map((r) => r.name)).toEqual(names(26, 50));
    expect(typed.rows).toEqual(byLink.rows);
    expect([typed.next, typed.prev]).toEqual([byLink.next, null]);
    expect(listHospitals({ ...state, page: 3, after: parseCursor(typed.next) }).rows.map((r) => r.name)).toEqual(names(51, 60));
    expect(listHospitals({ ...state, page: 3 }).rows.map((r) => r.name)).toEqual(names(51, 60));

    expect(listHospitals({ ...state, dir: "desc", page: 2 }).rows.map((r) => r.name)).toEqual(names(35, 11));
    expect(listHospitals({ ...state, page: 4 }).rows).toEqual([]);
  });
});

describe("medical code model", () => {
  it("keeps code and type once saved, even against a forged update", () => {
    const input = parse(medicalCodeSchema, { type: "cbhpm", code: "30715018", description: "Artrodese", porte: "12C" }).value as never;
    const id = createMedicalCode(adminId, input);
    expect(() => createMedicalCode(adminId, input)).toThrow("O código 3.07.15.01-8 já está cadastrado como CBHPM.");
    const changed = parse(medicalCodeSchema, { type: "tuss", code: "30715018", description: "Artrodese" }).value as never;
    expect(() => updateMedicalCode(adminId, id, changed)).toThrow(MasterDataError);
    expect(getMedicalCode(id)).toMatchObject({ type: "cbhpm", code: "3.07.15.01-8" });
    // Its TUSS twin is found by the same digits.
    expect(listMedicalCodes({ q: "30715018", page: 1, sort: "code", dir: "asc", filters: { type: null } }).rows.map((r) => r.id)).toContain(id);
  });
});

describe("Cadastros screen permissions", () => {
  it("shows every tab to any signed-in user, with controls only for admins", async () => {
    const staff = await loader(routeArgs(getRequest("/master-data/hospitals", { cookie: staffCookie })));
    expect(staff.data.tab).toBe("hospitals");
    expect(staff.permissions).toEqual({ create: false, edit: false, delete: false });
    const first = await loader(routeArgs(getRequest("/master-data", { cookie: doctorCookie })));
    expect(first.data.tab).toBe("payers");
    expect(first.closeTo).toBe("/master-data/payers");
    const admin = await loader(routeArgs(getRequest("/master-data/codes?dialog=new", { cookie: adminCookie })));
    expect(admin.permissions.create).toBe(true);
    expect(admin.data.dialog).toBe("new");
    expect(await thrownResponse(loader(routeArgs(getRequest("/master-data/codes?dialog=new", { cookie: staffCookie }))))).toHaveProperty("status", 403);
  });

  it("refuses staff and doctors' writes with 403 and writes nothing", async () => {
    for (const cookie of [staffCookie, doctorCookie]) {
      const response = await thrownResponse(action(routeArgs(formRequest("/master-data/payers", { intent: "create", name: "Forjado" }, { cookie }))));
      expect(response.status).toBe(403);
    }
    expect(db.select().from(payers).where(eq(payers.name, "Forjado")).all()).toHaveLength(0);
  });

  it("lets an admin create on the tab in the URL, with the SPEC §8 messages", async () => {
    const ok = await action(routeArgs(formRequest("/master-data/suppliers", { intent: "create", name: "Fornecedor Via Tela", qualityRating: "4.5", active: "on" }, { cookie: adminCookie })));
    expect(statusOf(ok)).toBe(302);
    expect(db.select().from(suppliers).where(eq(suppliers.name, "Fornecedor Via Tela")).get()).toMatchObject({ qualityRating: 4.5 });
    const bad = await action(routeArgs(formRequest("/master-data/hospitals", { intent: "create", name: "H", state: "SPX" }, { cookie: adminCookie })));
    expect(statusOf(bad)).toBe(400);
    expect(JSON.stringify(bad)).toContain("Erro ao salvar hospital");
  });

  it("refuses a forged update that changes a code's type with 400, the code kept", async () => {
    const id = createMedicalCode(adminId, parse(medicalCodeSchema, { type: "icd10", code: "G35", description: "Esclerose múltipla" }).value as never);
    const forged = await action(routeArgs(formRequest("/master-data/codes", { intent: "update", id, type: "custom", code: "G35", description: "x" }, { cookie: adminCookie })));
    expect(statusOf(forged)).toBe(400);
    expect(JSON.stringify(forged)).toContain("O código e o tipo não podem ser alterados");
    expect(db.select().from(medicalCodes).where(eq(medicalCodes.id, id)).get()).toMatchObject({ type: "icd10", description: "Esclerose múltipla" });
  });
});

describe("CSV import", () => {
  const header = "Nome;Tipo;CNPJ;UF;CEP;Status";

  it("applies nothing when one line is wrong, and names the line", () => {
    const csv = `${header}\r\nHospital Um;Privado;;SP;01310-100;Ativo\r\nHospital Dois;Público;12.345.678/0001-96;SP;;Ativo\r\nHospital Três;Misto;;SPX;;Ativo\r\n`;
    const result = importCsv("hospitals", adminId, csv, { apply: true });
    expect(result.applied).toBe(false);
    expect(result.errors).toEqual([
      { line: 3, messages: ["CNPJ: CNPJ inválido"] },
      { line: 4, messages: ["UF: UF inválida"] },
    ]);
    expect(listHospitals({ q: "hospital um", page: 1, sort: "name", dir: "asc" }).total).toBe(0);
  });

  it("refuses a line whose CNPJ is already registered (nothing applied)", () => {
    createHospital(adminId, parse(hospitalSchema, { name: "Já Existe", cnpj: "12345678000195" }).value as never);
    const csv = `${header}\nNovo Hospital;Privado;;;;Ativo\nOutro;Privado;12.345.678/0001-95;;;Ativo\n`;
    const result = importCsv("hospitals", adminId, csv, { apply: true });
    expect(result.applied).toBe(false);
    expect(result.errors[0]).toMatchObject({ line: 3 });
    expect(listHospitals({ q: "novo hospital", page: 1, sort: "name", dir: "asc" }).total).toBe(0);
  });

  it("imports a clean file in full, reading labels and the status back", async () => {
    const csv = `${header}\nHospital Quatro;Público;;rj;20040020;Inativo\nHospital Cinco;Misto;;;;Ativo\n`;
    const preview = await importAction(routeArgs(formRequest("/master-data/hospitals/import", { intent: "preview", csv }, { cookie: adminCookie })));
    expect(JSON.stringify(preview)).toContain("Hospital Quatro");
    expect(listHospitals({ q: "hospital quatro", page: 1, sort: "name", dir: "asc" }).total).toBe(0);
    const applied = await importAction(routeArgs(formRequest("/master-data/hospitals/import", { intent: "apply", csv }, { cookie: adminCookie })));
    expect(statusOf(applied)).toBe(302);
    const [four] = listHospitals({ q: "hospital quatro", page: 1, sort: "name", dir: "asc" }).rows;
    expect(getHospital(four.id)).toMatchObject({ type: "public", state: "RJ", postalCode: "20040-020", active: false });
  });

  it("is for admins only", async () => {
    const response = await thrownResponse(importAction(routeArgs(formRequest("/master-data/payers/import", { intent: "apply", csv: "Nome\nX\n" }, { cookie: staffCookie }))));
    expect(response.status).toBe(403);
  });
});

