import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, doctors, medicalCodes, referenceFeeSchedules, surgeries, surgeryFeeLines } from "~db/schema";
import { db } from "~/.server/db";
import { porteTableVersion } from "~/lib/fees/porte";
import { action, loader } from "~/routes/surgery-fees";
import { type SignedIn, formRequest, getRequest, insertDoctor, insertPatient, insertPayer, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";

let admin: SignedIn;
let staff: SignedIn;
let doctorUser: SignedIn;
let surgeryId: number;
let surgeon: number;
let aux1: number;
let aux2: number;
let anaesthetist: number;

const PORTES_2022: Record<string, number> = { "7C": 112_365, "9B": 156_797, "9C": 172_781, "10A": 185_475, "12A": 294_318, "12C": 387_643 };

function post(who: SignedIn, fields: Record<string, string>) {
  return action(routeArgs(formRequest(`/surgeries/${surgeryId}/honorarios`, fields, { cookie: who.cookie }), { id: String(surgeryId) }));
}

async function view(who: SignedIn) {
  const data = (await loader(routeArgs(getRequest(`/surgeries/${surgeryId}/honorarios`, { cookie: who.cookie }), { id: String(surgeryId) }))) as {
    screen: {
      lines: Array<{ doctorId: number; role: string; position: number | null; amountCents: number; computedCents: number | null; overrideReason: string | null; id: number }>;
      totalCents: number;
      procedures: unknown[];
    };
  };
  return data.screen;
}

const linesInDb = () => db.select().from(surgeryFeeLines).where(eq(surgeryFeeLines.surgeryId, surgeryId)).all();

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorUser = await loginAs("doctor");
  for (const [porte, value] of Object.entries(PORTES_2022)) {
    db.insert(referenceFeeSchedules).values({ kind: "CBHPM", year: 2022, version: porteTableVersion("original"), code: porte, description: `Porte ${porte}`, baseValueCents: value }).run();
  }
  db.insert(medicalCodes).values([
    { code: "3.07.15.01-6", type: "cbhpm", description: "Artrodese da coluna com instrumentação por segmento", porte: "12C", assistantsCount: 2, anestheticPorte: 8 },
    { code: "3.07.15.09-1", type: "cbhpm", description: "Descompressão medular e/ou cauda equina", porte: "9C", assistantsCount: 2, anestheticPorte: 5 },
    { code: "30715091", type: "tuss", description: "Descompressão medular e/ou cauda equina" },
  ]).run();
  surgeon = insertDoctor("Dr. Cirurgião", { userId: doctorUser.id });
  aux1 = insertDoctor("Dra. Primeira Auxiliar", { crm: "222222" });
  aux2 = insertDoctor("Dr. Segundo Auxiliar", { crm: "333333" });
  anaesthetist = insertDoctor("Dra. Anestesista", { specialty: "Anestesiologia", crm: "444444" });
  // A payer on the old 30/20 split, CBHPM 2022 original column.
  const payerId = insertPayer("Convênio Antigo", { cbhpmEdition: "2022", assistant1FeePercent: 30, assistant2FeePercent: 20 });
  const patientId = insertPatient("Paciente dos Honorários");
  // A Tuesday, 10h in São Paulo: not urgent by its time.
  surgeryId = db
    .insert(surgeries)
    .values({ patientId, doctorId: surgeon, surgeryType: "Artrodese lombar", scheduledDate: new Date("2026-03-10T13:00:00Z"), estimatedDurationMin: 180, payerId, payerName: "Convênio Antigo" })
    .returning({ id: surgeries.id })
    .get().id;
});

describe("a surgery's honorários screen", () => {
  it("refuses a code it does not know and one that is not 8 digits, with the field's message", async () => {
    const unknown = await post(admin, { intent: "add-procedure", code: "3.99.99.99-9", accessRoute: "same" });
    expect(statusOf(unknown)).toBe(400);
    expect((unknown as { data: { result: { error: Record<string, string[]> } } }).data.result.error.code).toEqual(["Código não encontrado em Cadastros › Códigos (CBHPM ou TUSS)."]);
    const short = await post(admin, { intent: "add-procedure", code: "123", accessRoute: "same" });
    expect(statusOf(short)).toBe(400);
  });

  it("computes two procedures by the same route with 2 assistants at the payer's 30/20, and shows how", async () => {
    expect(statusOf(await post(admin, { intent: "add-procedure", code: "3.07.15.01-6", accessRoute: "same" }))).toBe(302);
    // The TUSS form of a code finds the CBHPM row.
    expect(statusOf(await post(admin, { intent: "add-procedure", code: "30715091", accessRoute: "same" }))).toBe(302);
    const refusedTeam = await post(admin, { intent: "save-team", cirurgiao: String(surgeon), auxiliar_1: String(surgeon) });
    expect(statusOf(refusedTeam)).toBe(400);
    expect(statusOf(await post(admin, { intent: "save-team", cirurgiao: String(surgeon), auxiliar_1: String(aux1), auxiliar_2: String(aux2), anestesista: String(anaesthetist) }))).toBe(302);
    expect(statusOf(await post(admin, { intent: "recompute" }))).toBe(302);

    const byRole = (role: string, position: number | null = null) => linesInDb().filter((l) => l.role === role && l.position === position).map((l) => l.amountCents);
    // 12C 387 643 at 100 % + 9C 172 781 at 50 % (86 390,5 → 86 391)
    expect(byRole("principal")).toEqual([387_643, 86_391]);
    // 30 % and 20 % of each surgeon line
    expect(byRole("auxiliar", 1)).toEqual([116_293, 25_917]);
    expect(byRole("auxiliar", 2)).toEqual([77_529, 17_278]);
    // AN8 = 12A at 100 %, AN5 = 7C at 50 %
    expect(byRole("anestesista")).toEqual([294_318, 56_183]);
    const first = linesInDb().find((l) => l.role === "principal")!;
    expect(first).toMatchObject({ porte: "12C", porteValueCents: 387_643, procedurePercent: 100, accommodationFactor: 1, urgencyPercent: 0, computedCents: 387_643 });
    expect(first.serviceDate?.toISOString()).toBe("2026-03-10T13:00:00.000Z");
  });

  it("doubles in an apartment and adds urgency when set by hand", async () => {
    expect(statusOf(await post(admin, { intent: "save-settings", accommodation: "apartamento", urgency: "sim" }))).toBe(302);
    expect(statusOf(await post(admin, { intent: "recompute" }))).toBe(302);
    const principal = linesInDb().filter((l) => l.role === "principal");
    expect(principal.map((l) => l.amountCents)).toEqual([Math.round(387_643 * 2 * 1.3), Math.round((172_781 * 50 * 2 * 130) / 10_000)]);
    expect(principal[0]).toMatchObject({ accommodationFactor: 2, urgencyPercent: 30 });
  });

  it("overrides a line with a reason (audited) and restores the computed value", async () => {
    const line = linesInDb().find((l) => l.role === "anestesista")!;
    const noReason = await post(admin, { intent: "override-line", lineId: String(line.id), amount: "1.000,00", reason: "" });
    expect(statusOf(noReason)).toBe(400);
    expect(statusOf(await post(admin, { intent: "override-line", lineId: String(line.id), amount: "1.000,00", reason: "Valor acordado com o convênio" }))).toBe(302);
    const changed = db.select().from(surgeryFeeLines).where(eq(surgeryFeeLines.id, line.id)).get()!;
    expect(changed).toMatchObject({ amountCents: 100_000, computedCents: line.computedCents, overrideReason: "Valor acordado com o convênio", overriddenBy: admin.id });
    const audit = db.select().from(auditLog).where(and(eq(auditLog.entity, "surgery_fee_line"), eq(auditLog.entityId, String(line.id)))).all();
    expect(audit).toHaveLength(1);
    expect(statusOf(await post(admin, { intent: "restore-line", lineId: String(line.id) }))).toBe(302);
    expect(db.select().from(surgeryFeeLines).where(eq(surgeryFeeLines.id, line.id)).get()).toMatchObject({ amountCents: line.computedCents, overrideReason: null });
  });

  it("follows the surgery's date when it is rescheduled", () => {
    db.update(surgeries).set({ scheduledDate: new Date("2026-03-12T13:00:00Z") }).where(eq(surgeries.id, surgeryId)).run();
    expect(new Set(linesInDb().map((l) => l.serviceDate?.toISOString()))).toEqual(new Set(["2026-03-12T13:00:00.000Z"]));
  });

  it("lets staff read everything and write nothing; a doctor sees only their own lines", async () => {
    const staffView = await view(staff);
    expect(staffView.lines).toHaveLength(linesInDb().length);
    expect(await thrownResponse(post(staff, { intent: "recompute" })).then((r) => r.status)).toBe(403);
    const doctorView = await view(doctorUser);
    expect(doctorView.lines.length).toBe(2);
    expect(new Set(doctorView.lines.map((l) => l.doctorId))).toEqual(new Set([surgeon]));
    expect(doctorView.totalCents).toBe(doctorView.lines.reduce((s, l) => s + l.amountCents, 0));
    const unlinked = await loginAs("doctor");
    expect((await view(unlinked)).lines).toEqual([]);
  });

  it("is read again after any write, and kept between writes", async () => {
    const first = await view(admin);
    expect((await view(admin)).lines).toBe(first.lines);
    db.update(doctors).set({ name: "Dra. Anestesista Renomeada" }).where(eq(doctors.id, anaesthetist)).run();
    const renamed = (await view(admin)) as unknown as { lines: { doctorName: string }[] };
    expect(renamed.lines.map((l) => l.doctorName)).toContain("Dra. Anestesista Renomeada");
    db.update(doctors).set({ name: "Dra. Anestesista" }).where(eq(doctors.id, anaesthetist)).run();
  });

  it("says what is missing when the payer's porte table is not on file, and changes nothing", async () => {
    const before = linesInDb();
    db.delete(referenceFeeSchedules).where(eq(referenceFeeSchedules.code, "7C")).run();
    const refused = await post(admin, { intent: "recompute" });
    expect(statusOf(refused)).toBe(400);
    expect((refused as { data: { toast: { message: string } } }).data.toast.message).toBe("A tabela de portes do convênio não tem valor para: 7C.");
    expect(linesInDb()).toEqual(before);
    expect(db.select({ id: doctors.id }).from(doctors).all().length).toBeGreaterThan(3);
  });

  it("answers 404 for a surgery that does not exist", async () => {
    const response = await thrownResponse(loader(routeArgs(getRequest("/surgeries/999999/honorarios", { cookie: admin.cookie }), { id: "999999" })));
    expect(response.status).toBe(404);
  });
});
