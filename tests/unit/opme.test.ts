import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { opmeItems, opmeQuotes, opmeRequests, pipelineStages, suppliers, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { supplierSearchText } from "~/lib/master-data-search";
import { OPME_JUSTIFICATION_MESSAGE, approvalNeedsJustification, compareQuotes, distinctSuppliers, normalizeAnvisa, opmeBadgeText } from "~/lib/opme";
import { addOpmeItem, addOpmeQuote, chooseOpmeQuote, getOpme, opmeSupplierCounts } from "~/models/opme.server";
import { PipelineError, loadBoard, moveSurgery } from "~/models/pipeline.server";
import { action as boardAction } from "~/routes/pipeline";
import { action as approveAction, loader as approveLoader } from "~/routes/pipeline-opme-approve";
import { action as opmeAction, loader as opmeLoader } from "~/routes/pipeline-opme";
import {
  type SignedIn,
  capturePrepared,
  formRequest,
  getRequest,
  insertDoctor,
  insertPatient,
  loginAs,
  routeArgs,
  statusOf,
  thrownResponse,
} from "./helpers";

let admin: SignedIn;
let staff: SignedIn;
let doctorUser: SignedIn;
let pending: SignedIn;
let patientId: number;
let doctorId: number;
const supplierIds: number[] = [];

function addSupplier(name: string, active = true) {
  return db
    .insert(suppliers)
    .values({ name, type: "opme", active, searchText: supplierSearchText({ name, cnpj: null, contactEmail: null, type: "opme" }) })
    .returning({ id: suppliers.id })
    .get().id;
}

function addSurgery(stage: "aguardando_parecer" | "opme_cotacao" = "opme_cotacao") {
  const id = db
    .insert(surgeries)
    .values({ patientId, doctorId, surgeryType: "Artrodese lombar", scheduledDate: new Date("2026-06-10T12:00:00Z"), currentStage: stage })
    .returning({ id: surgeries.id })
    .get().id;
  db.insert(pipelineStages).values({ surgeryId: id, stage, fromStage: null }).run();
  return id;
}

const itemsOf = (surgeryId: number) => getOpme(surgeryId).items;
const quote = (surgeryId: number, supplierId: number, cents: number[]) =>
  addOpmeQuote(admin.id, surgeryId, {
    supplierId,
    validUntil: "2026-12-31",
    notes: null,
    prices: itemsOf(surgeryId).map((item, i) => ({ itemId: item.id, price: cents[i] })),
  });
const move = (to: string, extra: Record<string, unknown> = {}) => ({ to, denialReason: null, denialAppeal: false, justification: null, ...extra }) as never;
const stageOf = (id: number) => db.select({ s: surgeries.currentStage }).from(surgeries).where(eq(surgeries.id, id)).get()!.s;

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorUser = await loginAs("doctor");
  pending = await loginAs(null);
  patientId = insertPatient("Paciente OPME");
  doctorId = insertDoctor("Dr. OPME");
  for (const name of ["Fornecedor A", "Fornecedor B", "Fornecedor C"]) supplierIds.push(addSupplier(name));
});

describe("the OPME rules", () => {
  it("three quotes from one supplier count as one", () => {
    expect(distinctSuppliers([{ supplierId: 1 }, { supplierId: 1 }, { supplierId: 1 }])).toBe(1);
    expect(distinctSuppliers([{ supplierId: 1 }, { supplierId: 2 }, { supplierId: 1 }])).toBe(2);
    expect(opmeBadgeText(2)).toBe("OPME: 2/3 cotações");
    expect(approvalNeedsJustification({ suppliers: 2 })).toBe(true);
    expect(approvalNeedsJustification({ suppliers: 3 })).toBe(false);
    expect(approvalNeedsJustification(null)).toBe(false);
    expect(normalizeAnvisa("1012345678-9")).toBe("10123456789");
    expect(normalizeAnvisa("123")).toBeNull();
  });

  it("marks the lowest price per item (ties included) and the lowest complete total", () => {
    const items = [
      { id: 1, quantity: 2 },
      { id: 2, quantity: 1 },
    ];
    const quotes = [
      { id: 10, supplierName: "A", validUntil: "2026-12-31", prices: new Map([[1, 500], [2, 900]]) },
      { id: 11, supplierName: "B", validUntil: "2026-12-31", prices: new Map([[1, 400], [2, 900]]) },
      { id: 12, supplierName: "C", validUntil: "2026-12-31", prices: new Map([[1, 300]]) },
    ];
    const { rows, totals, lowestTotal } = compareQuotes(items, quotes);
    expect(rows[0]).toMatchObject({ lowest: 300, lowestQuoteIds: [12] });
    expect(rows[1]).toMatchObject({ lowest: 900, lowestQuoteIds: [10, 11] });
    expect(totals).toEqual([1900, 1700, null]);
    expect(lowestTotal).toBe(1700);
  });
});

describe("quotes in the database and the move to 'Aprovado'", () => {
  it("three quotes from ONE supplier are 1/3: the move needs a justification, which the log keeps", () => {
    const id = addSurgery();
    addOpmeItem(admin.id, id, { description: "Parafuso pedicular", quantity: 4, anvisaRegistration: "80102511234" });
    addOpmeItem(admin.id, id, { description: "Haste de titânio", quantity: 2, anvisaRegistration: null });
    for (const cents of [[10000, 50000], [9000, 52000], [9500, 51000]]) quote(id, supplierIds[0], cents);
    expect(getOpme(id).quotes).toHaveLength(3);
    expect(getOpme(id).suppliers).toBe(1);
    expect(opmeSupplierCounts([id]).get(id)).toBe(1);
    expect(() => moveSurgery(staff.id, id, move("aprovado"))).toThrow(OPME_JUSTIFICATION_MESSAGE);
    expect(stageOf(id)).toBe("opme_cotacao");
    moveSurgery(staff.id, id, move("aprovado", { justification: "Fornecedor exclusivo do material (carta de exclusividade anexada)." }));
    expect(stageOf(id)).toBe("aprovado");
    const last = db.select().from(pipelineStages).where(eq(pipelineStages.surgeryId, id)).orderBy(pipelineStages.id).all().at(-1)!;
    expect(last).toMatchObject({ stage: "aprovado", fromStage: "opme_cotacao", movedBy: staff.id, note: "Fornecedor exclusivo do material (carta de exclusividade anexada)." });
  });

  it("three different suppliers: approval goes ahead without a justification; the board card reads 3/3", () => {
    const id = addSurgery();
    addOpmeItem(admin.id, id, { description: "Cage intersomático", quantity: 1, anvisaRegistration: null });
    supplierIds.forEach((supplier, i) => quote(id, supplier, [200000 - i * 1000]));
    const card = loadBoard({ doctorId, payerId: null, hospitalId: null, ans: null })
      .columns.find((c) => c.stage === "opme_cotacao")!
      .cards.find((c) => c.id === id)!;
    expect(card.opme).toEqual({ suppliers: 3 });
    chooseOpmeQuote(admin.id, id, { quoteId: getOpme(id).quotes[2].id, reason: "Menor preço e entrega em 48 h." });
    expect(getOpme(id).request?.choiceReason).toBe("Menor preço e entrega em 48 h.");
    moveSurgery(staff.id, id, move("aprovado"));
    expect(stageOf(id)).toBe("aprovado");
  });

  it("a card in 'OPME em Cotação' without any request reads 0/3; a surgery without OPME approves freely", () => {
    const inQuotes = addSurgery();
    const board = loadBoard({ doctorId, payerId: null, hospitalId: null, ans: null });
    expect(board.columns.find((c) => c.stage === "opme_cotacao")!.cards.find((c) => c.id === inQuotes)!.opme).toEqual({ suppliers: 0 });
    expect(() => moveSurgery(staff.id, inQuotes, move("aprovado"))).toThrow(PipelineError);
    const noOpme = addSurgery("aguardando_parecer");
    moveSurgery(staff.id, noOpme, move("aprovado"));
    expect(stageOf(noOpme)).toBe("aprovado");
  });

  it("the board's OPME count is one indexed read for the visible cards", () => {
    const seen = capturePrepared(() => loadBoard({ doctorId: null, payerId: null, hospitalId: null, ans: null }));
    const reads = seen.filter((s) => /from "opme_requests"/.test(s));
    expect(reads).toHaveLength(1);
    const params = (reads[0].match(/\?/g) ?? []).map(() => 1);
    const plan = (sqlite.prepare(`explain query plan ${reads[0]}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
    expect(plan).toMatch(/opme_requests_surgery_unique/);
    expect(plan).toMatch(/opme_quotes_request_supplier_idx/);
    expect(plan).not.toMatch(/SCAN opme_quotes/);
  });
});

describe("the screens", () => {
  it("staff add an item and a quote without JavaScript; a quote missing a price is a 400 with nothing written", async () => {
    const id = addSurgery();
    const post = (fields: Record<string, string | number>, who = staff) =>
      opmeAction(routeArgs(formRequest(`/pipeline/${id}/opme`, fields, { cookie: who.cookie }), { id: String(id) }));
    const added = await post({ intent: "add-item", description: "Placa cervical", quantity: "1", anvisaRegistration: "" });
    expect(statusOf(added)).toBe(302);
    const bad = await post({ intent: "add-item", description: "Parafuso", quantity: "0", anvisaRegistration: "12" });
    expect(statusOf(bad)).toBe(400);
    const [item] = itemsOf(id);
    expect(itemsOf(id)).toHaveLength(1);
    const missing = await post({ intent: "add-quote", supplierId: supplierIds[1], validUntil: "2026-12-31" });
    expect(statusOf(missing)).toBe(400);
    const ok = await post({ intent: "add-quote", supplierId: supplierIds[1], validUntil: "2026-12-31", "prices[0].itemId": item.id, "prices[0].price": "1.234,56" });
    expect(statusOf(ok)).toBe(302);
    expect(db.select().from(opmeQuotes).innerJoin(opmeRequests, eq(opmeRequests.id, opmeQuotes.requestId)).where(eq(opmeRequests.surgeryId, id)).all()).toHaveLength(1);
    const data = await opmeLoader(routeArgs(getRequest(`/pipeline/${id}/opme`, { cookie: doctorUser.cookie }), { id: String(id) }));
    expect(data.opme.quotes[0].prices[item.id]).toBe(123456);
    expect(data.canEdit).toBe(false);
    // A doctor may look, not write; an account without a role gets 403.
    expect((await thrownResponse(post({ intent: "add-item", description: "X", quantity: "1" }, doctorUser))).status).toBe(403);
    expect((await thrownResponse(opmeLoader(routeArgs(getRequest(`/pipeline/${id}/opme`, { cookie: pending.cookie }), { id: String(id) })))).status).toBe(403);
    expect(db.select().from(opmeItems).innerJoin(opmeRequests, eq(opmeRequests.id, opmeItems.requestId)).where(eq(opmeRequests.surgeryId, id)).all()).toHaveLength(1);
  });

  it("the board's menu (JS off) and the API refuse 'Aprovado' without three suppliers; the approval form with a justification moves", async () => {
    const id = addSurgery();
    const refused = await boardAction(routeArgs(formRequest("/pipeline", { intent: "move", id, to: "aprovado" }, { cookie: staff.cookie })));
    expect(statusOf(refused)).toBe(400);
    expect(stageOf(id)).toBe("opme_cotacao");
    const form = await approveLoader(routeArgs(getRequest(`/pipeline/${id}/aprovar`, { cookie: staff.cookie }), { id: String(id) }));
    expect(form.suppliers).toBe(0);
    const blank = await approveAction(routeArgs(formRequest(`/pipeline/${id}/aprovar`, { intent: "move", id, to: "aprovado", justification: "  " }, { cookie: staff.cookie }), { id: String(id) }));
    expect(statusOf(blank)).toBe(400);
    const moved = await approveAction(
      routeArgs(formRequest(`/pipeline/${id}/aprovar?voltar=%2Fpipeline`, { intent: "move", id, to: "aprovado", justification: "Urgência clínica" }, { cookie: staff.cookie }), { id: String(id) }),
    );
    expect(statusOf(moved)).toBe(302);
    expect(stageOf(id)).toBe("aprovado");
    expect((await thrownResponse(approveLoader(routeArgs(getRequest(`/pipeline/${id}/aprovar`, { cookie: doctorUser.cookie }), { id: String(id) })))).status).toBe(403);
  });
});
