import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { doctors, hospitals, medicalCodes, patients, payerTissSettings, payers, surgeries, surgeryFeeLines, surgeryProcedures } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { loteXml, TISS_MAX_GUIDES_PER_LOTE } from "~/lib/tiss";
import { TissRefusal, payerLoteCount, payerLoteXml, surgeryGuideXml, validateTissXml } from "~/models/tiss-honorarios.server";
import { loader as loteDownload } from "~/routes/tiss-lote";
import { loader as guideDownload } from "~/routes/tiss-surgery";
import { type SignedIn, capturePrepared, getRequest, insertDoctor, insertHospital, insertPatient, insertPayer, loginAs, routeArgs, thrownResponse } from "../support/fixtures";

let admin: SignedIn;
let staff: SignedIn;
let doctorUser: SignedIn;
let unimed: number;
let surgeon: number;
let assistant: number;
let anaesthetist: number;
let hospital: number;
let herniaCode: number;
let discCode: number;
let surgeryId: number;

const NOW = new Date("2026-04-01T15:00:00Z");

function billedSurgery(payerId: number, date: string, extra: Partial<typeof surgeries.$inferInsert> = {}) {
  const patientId = insertPatient(`Beneficiária ${date}`, { insuranceCardNumber: "0 123 456789012 3" });
  return db
    .insert(surgeries)
    .values({ patientId, doctorId: surgeon, surgeryType: "Artrodese", scheduledDate: new Date(date), payerId, hospitalId: hospital, guideNumber: "SOL-2026-0042", receivableStatus: "faturado", billedAmountCents: 100_000, ...extra })
    .returning({ id: surgeries.id })
    .get().id;
}

function line(surgery: number, doctorId: number, role: "principal" | "auxiliar" | "anestesista", amountCents: number, extra: Partial<typeof surgeryFeeLines.$inferInsert> = {}) {
  db.insert(surgeryFeeLines).values({ surgeryId: surgery, doctorId, role, amountCents, medicalCodeId: herniaCode, procedurePercent: 100, urgencyPercent: 0, ...extra }).run();
}

const tag = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<ans:${name}>([^<]*)</ans:${name}>`, "g"))].map((m) => m[1]);

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorUser = await loginAs("doctor");
  unimed = insertPayer("Unimed Paulistana", { ansRegistration: "301337" });
  db.insert(payerTissSettings).values({ payerId: unimed, tissVersion: "4.01.00", providerCode: "PREST123" }).run();
  hospital = insertHospital("Hospital Santa Clara", { cnes: "2077485", cnpj: "60922168000186" });
  surgeon = insertDoctor("Dra. Helena Neuro", { crm: "123456", crmUf: "SP" });
  assistant = insertDoctor("Dr. Caio Auxiliar", { crm: "234567", crmUf: "SP" });
  anaesthetist = insertDoctor("Dr. Bruno Anestesia", { specialty: "Anestesiologia", crm: "345678", crmUf: "RJ" });
  herniaCode = db.insert(medicalCodes).values({ code: "3.07.15.18-0", type: "cbhpm", description: "Hérnia de disco tóraco-lombar – tratamento cirúrgico", porte: "10A" }).returning({ id: medicalCodes.id }).get().id;
  discCode = db.insert(medicalCodes).values({ code: "3.07.15.05-8", type: "cbhpm", description: "Artrodese de coluna via anterior", porte: "9C" }).returning({ id: medicalCodes.id }).get().id;
  // 10/03/2026 at 21h São Paulo: urgent (+30 %); the second procedure by a different route (70 %).
  surgeryId = billedSurgery(unimed, "2026-03-11T00:00:00Z");
  db.insert(surgeryProcedures).values([
    { surgeryId, medicalCodeId: herniaCode, position: 1, accessRoute: "same" },
    { surgeryId, medicalCodeId: discCode, position: 2, accessRoute: "different" },
  ]).run();
  line(surgeryId, surgeon, "principal", 241_118, { urgencyPercent: 30 });
  line(surgeryId, surgeon, "principal", 157_231, { medicalCodeId: discCode, procedurePercent: 70, urgencyPercent: 30 });
  line(surgeryId, assistant, "auxiliar", 144_671, { position: 1, urgencyPercent: 30 });
  line(surgeryId, anaesthetist, "anestesista", 203_836, { urgencyPercent: 30 });
});

describe("the Guia de Honorários of a surgery", () => {
  it("validates against the shipped TISS 4.01.00 schema and holds the surgery's values", async () => {
    const { xml, fileName } = await surgeryGuideXml(surgeryId, NOW);
    expect(fileName).toBe(`guia-honorarios-${surgeryId}.xml`);
    expect(await validateTissXml(xml)).toEqual({ valid: true, errors: [] });
    expect(tag(xml, "tipoTransacao")).toEqual(["ENVIO_LOTE_GUIAS"]);
    expect(tag(xml, "Padrao")).toEqual(["4.01.00"]);
    expect(tag(xml, "registroANS")).toEqual(["301337", "301337"]);
    expect(tag(xml, "codigoPrestadorNaOperadora")[0]).toBe("PREST123");
    expect(tag(xml, "guiaSolicInternacao")).toEqual(["SOL-2026-0042"]);
    expect(tag(xml, "numeroCarteira")).toEqual(["0 123 456789012 3"]);
    expect(tag(xml, "cnpjLocalExecutante")).toEqual(["60922168000186"]);
    expect(tag(xml, "cnes")).toEqual(["2077485"]);
    expect(tag(xml, "nomeContratado")).toEqual(["Hospital Santa Clara"]);
    expect(tag(xml, "dataExecucao")).toEqual(["2026-03-10", "2026-03-10", "2026-03-10", "2026-03-10"]);
    expect(tag(xml, "codigoProcedimento")).toEqual(["30715180", "30715058", "30715180", "30715180"]);
    // Two procedures by different routes: 3; the technique is conventional.
    expect(tag(xml, "viaAcesso")).toEqual(["3", "3", "3", "3"]);
    expect(tag(xml, "tecnicaUtilizada")).toEqual(["1", "1", "1", "1"]);
    expect(tag(xml, "reducaoAcrescimo")).toEqual(["1.30", "0.91", "1.30", "1.30"]);
    expect(tag(xml, "valorTotal")).toEqual(["2411.18", "1572.31", "1446.71", "2038.36"]);
    expect(tag(xml, "grauParticipacao")).toEqual(["00", "00", "01", "06"]);
    expect(tag(xml, "numeroConselhoProfissional")).toEqual(["123456", "123456", "234567", "345678"]);
    expect(tag(xml, "conselhoProfissional")).toEqual(["06", "06", "06", "06"]);
    expect(tag(xml, "UF")).toEqual(["35", "35", "35", "33"]);
    expect(tag(xml, "CBO")).toEqual(["225260", "225260", "225260", "225151"]);
    expect(tag(xml, "valorTotalHonorarios")).toEqual(["7468.56"]);
    expect(tag(xml, "dataEmissaoGuia")).toEqual(["2026-04-01"]);
    expect(tag(xml, "hash")[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("is refused, naming what is missing, when a guide lacks data — never an invalid file", async () => {
    db.update(hospitals).set({ cnes: null }).where(eq(hospitals.id, hospital)).run();
    db.update(doctors).set({ crmUf: null }).where(eq(doctors.id, assistant)).run();
    try {
      await expect(surgeryGuideXml(surgeryId, NOW)).rejects.toThrow(new TissRefusal(
        `Cirurgia ${surgeryId} (Beneficiária 2026-03-11T00:00:00Z): faltam dados para a Guia de Honorários TISS — CNES do hospital Hospital Santa Clara; UF do CRM de Dr. Caio Auxiliar.`,
      ));
    } finally {
      db.update(hospitals).set({ cnes: "2077485" }).where(eq(hospitals.id, hospital)).run();
      db.update(doctors).set({ crmUf: "SP" }).where(eq(doctors.id, assistant)).run();
    }
    const patientId = db.select({ id: surgeries.patientId }).from(surgeries).where(eq(surgeries.id, surgeryId)).get()!.id;
    db.update(patients).set({ insuranceCardNumber: null }).where(eq(patients.id, patientId)).run();
    db.update(payers).set({ ansRegistration: null }).where(eq(payers.id, unimed)).run();
    try {
      await expect(surgeryGuideXml(surgeryId, NOW)).rejects.toThrow(/registro ANS do convênio Unimed Paulistana.*número da carteira do beneficiário/);
    } finally {
      db.update(patients).set({ insuranceCardNumber: "0 123 456789012 3" }).where(eq(patients.id, patientId)).run();
      db.update(payers).set({ ansRegistration: "301337" }).where(eq(payers.id, unimed)).run();
    }
  });

  it("is a download for admins and staff; a refusal goes back to the honorários page with the message; a doctor gets 403", async () => {
    const ok = (await guideDownload(routeArgs(getRequest(`/surgeries/${surgeryId}/honorarios/tiss.xml`, { cookie: staff.cookie }), { id: String(surgeryId) }))) as Response;
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Disposition")).toBe(`attachment; filename="guia-honorarios-${surgeryId}.xml"`);
    expect((await validateTissXml(await ok.text())).valid).toBe(true);
    const particular = insertPayer("Particular", { type: "private" });
    const privateSurgery = billedSurgery(particular, "2026-03-12T13:00:00Z");
    const refused = (await guideDownload(routeArgs(getRequest(`/surgeries/${privateSurgery}/honorarios/tiss.xml`, { cookie: admin.cookie }), { id: String(privateSurgery) }))) as Response;
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe(`/surgeries/${privateSurgery}/honorarios`);
    const forbidden = await thrownResponse(guideDownload(routeArgs(getRequest(`/surgeries/${surgeryId}/honorarios/tiss.xml`, { cookie: doctorUser.cookie }), { id: String(surgeryId) })));
    expect(forbidden.status).toBe(403);
  });
});

describe("a payer's lote", () => {
  it("never holds more than 100 guides: 101 billed surgeries make lote 1 of 100 and lote 2 of 1", async () => {
    const amil = insertPayer("Amil Lote", { ansRegistration: "326305" });
    db.insert(payerTissSettings).values({ payerId: amil, tissVersion: "4.01.00", providerCode: "AMIL77" }).run();
    db.transaction(() => {
      for (let i = 0; i < TISS_MAX_GUIDES_PER_LOTE + 1; i++) {
        const id = billedSurgery(amil, new Date(Date.UTC(2026, 0, 1 + i, 13)).toISOString());
        line(id, surgeon, "principal", 185_475);
      }
    });
    const first = await payerLoteXml(amil, 1, NOW);
    expect(first.guides).toBe(100);
    expect(tag(first.xml, "numeroLote")).toEqual(["1"]);
    expect(tag(first.xml, "guiaSolicInternacao")).toHaveLength(100);
    expect(tag(first.xml, "dataExecucao")[0]).toBe("2026-01-01");
    const second = await payerLoteXml(amil, 2, NOW);
    expect(second.guides).toBe(1);
    expect(tag(second.xml, "dataExecucao")).toEqual(["2026-04-11"]);
    expect((await validateTissXml(second.xml)).valid).toBe(true);
    await expect(payerLoteXml(amil, 3, NOW)).rejects.toThrow("Nenhuma cirurgia faturada de Amil Lote no lote 3.");

    const response = (await loteDownload(routeArgs(getRequest(`/financeiro/cirurgias-receber/tiss.xml?payer_id=${amil}&lote=2`, { cookie: staff.cookie })))) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
  }, 60_000);

  it("refuses a message of more than 100 guides, and one whose guide lacks data", async () => {
    const guide = { ansRegistration: "301337", providerGuideNumber: "1", authorizedRequestGuide: "X", beneficiary: { cardNumber: "1", name: "A" }, place: { cnpj: null, providerCode: "P", name: "H", cnes: "2077485" }, executor: { providerCode: "P", name: "C" }, billingStart: "2026-01-01", billingEnd: "2026-01-01", procedures: [], totalCents: 0, issuedOn: "2026-01-01" };
    const lote = { version: "4.01.00" as const, providerCode: "P", ansRegistration: "301337", loteNumber: 1, transactionNumber: 1, issuedAt: { date: "2026-01-01", time: "10:00:00" } };
    expect(() => loteXml({ ...lote, guides: Array.from({ length: 101 }, () => guide) }, () => "x")).toThrow("Um lote TISS tem no máximo 100 guias (recebidas 101).");
    // A guide without procedures is invalid for the schema: the validator says so.
    expect((await validateTissXml(loteXml({ ...lote, guides: [guide] }, () => "x"))).valid).toBe(false);

    const bradesco = insertPayer("Bradesco Saúde");
    const lacking = billedSurgery(bradesco, "2026-02-02T13:00:00Z");
    line(lacking, surgeon, "principal", 185_475);
    const response = (await loteDownload(routeArgs(getRequest(`/financeiro/cirurgias-receber/tiss.xml?payer_id=${bradesco}`, { cookie: admin.cookie })))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/financeiro/cirurgias-receber?payer=${bradesco}&status=faturado`);
    await expect(payerLoteXml(bradesco, 1, NOW)).rejects.toThrow(
      `Lote 1 de Bradesco Saúde não gerado. Cirurgia ${lacking} (Beneficiária 2026-02-02T13:00:00Z): faltam dados para a Guia de Honorários TISS — registro ANS do convênio Bradesco Saúde (6 dígitos, em Cadastros); configuração TISS do convênio Bradesco Saúde (versão e código do prestador na operadora).`,
    );
  });
});

describe("at scale (100 000 surgeries)", () => {
  it("counts and pages a payer's billed surgeries through the receivables index, without a scan or a sort", () => {
    const statements = capturePrepared(() => {
      payerLoteCount(unimed);
      void payerLoteXml(unimed, 2, NOW).catch(() => undefined);
    }).filter((s) => /from "surgeries" where/.test(s));
    expect(statements.length).toBeGreaterThanOrEqual(2);
    for (const statement of statements) {
      const params = (statement.match(/\?/g) ?? []).map((_, i) => (i === 0 ? "faturado" : 1));
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, `${statement}\n${plan}`).toMatch(/^SEARCH surgeries USING (COVERING )?INDEX \w+ \(receivable_status=\? AND payer_id=\?\)/);
      expect(plan, `${statement}\n${plan}`).not.toMatch(/TEMP B-TREE|SCAN surgeries/);
    }
  });
});
