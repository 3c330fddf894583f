import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orderStatusChanges, orders, sopVersions, surgeries } from "~db/schema";
import { db } from "~/.server/db";
import { createOrder, getOrder, listOrders, orderStatusHistory, updateOrder } from "~/models/order.server";
import { createReferrer, linkPatient, listReferrers } from "~/models/referrer.server";
import { renderMarkdown } from "~/models/sop-markdown.server";
import { createSop, getSop, sopDiff, sopVersionList, sopVersionView, updateSop } from "~/models/sop.server";
import { action as orderAction } from "~/routes/orders";
import { action as referrerAction } from "~/routes/referrers";
import { action as sopAction, loader as sopLoader } from "~/routes/sops";
import { type OrderInput, orderSchema } from "~/validation/order";
import { referrerSchema } from "~/validation/referrer";
import { type SopInput, sopSchema } from "~/validation/sop";
import { formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "./helpers";

let adminId: number;
let adminCookie: string;
let staffCookie: string;
let doctorCookie: string;

beforeAll(async () => {
  const admin = await loginAs("admin", { name: "Ana Admin", email: "ana@operacoes.test" });
  adminId = admin.id;
  adminCookie = admin.cookie;
  staffCookie = (await loginAs("staff", { name: "Sérgio Equipe", email: "sergio@operacoes.test" })).cookie;
  doctorCookie = (await loginAs("doctor", { name: "Dra. Médica", email: "medica@operacoes.test" })).cookie;
});

const sop = (overrides: Partial<SopInput> = {}): SopInput => ({ title: "Checklist pré-operatório", category: "Cirurgia", contentMd: "# Passos\n\n1. Jejum", status: "draft", ...overrides });

describe("SOP markdown", () => {
  it("renders Markdown but never raw HTML, scripts or javascript: links", async () => {
    const html = await renderMarkdown(
      "# Título\n\n**negrito** [ok](https://example.com) [mau](javascript:alert(1))\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n<a href=\"javascript:alert(2)\">x</a>",
    );
    expect(html).toContain("<h1>Título</h1>");
    expect(html).toContain("<strong>negrito</strong>");
    expect(html).toContain('<a href="https://example.com">ok</a>');
    expect(html).not.toMatch(/<script|onerror|javascript:|<img/i);
  });
});

describe("SOP versions", () => {
  it("starts at version 1 and adds one per edit, keeping every version readable", async () => {
    const id = createSop(adminId, sop());
    const created = getSop(id)!;
    expect(created.version).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    updateSop(adminId, id, sop({ contentMd: "# Passos\n\n1. Jejum de 8 h\n2. Termo assinado", status: "active" }));
    updateSop(adminId, id, sop({ contentMd: "# Passos\n\n1. Jejum de 8 h\n2. Termo assinado", status: "active" }));
    const edited = getSop(id)!;
    expect(edited.version).toBe(3);
    expect(edited.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());
    expect(sopVersionList(id).map((v) => v.version)).toEqual([3, 2, 1]);
    expect((await sopVersionView(id, 1))!.html).toContain("<li>Jejum</li>");
    expect((await sopVersionView(id, 3))!.html).toContain("Termo assinado");
    const diff = sopDiff(id, 1, 2)!;
    expect(diff.parts.filter((p) => p.kind === "removed").map((p) => p.text).join("")).toContain("1. Jejum\n");
    expect(diff.parts.filter((p) => p.kind === "added").map((p) => p.text).join("")).toContain("2. Termo assinado");
  });

  it("writes only for admins; staff and doctors get 403 and nothing changes", async () => {
    const id = createSop(adminId, sop({ title: "Protegido" }));
    for (const cookie of [staffCookie, doctorCookie]) {
      const response = await thrownResponse(sopAction(routeArgs(formRequest("/sops", { intent: "update", id, title: "Forjado", category: "x", contentMd: "x" }, { cookie }))));
      expect(response.status).toBe(403);
    }
    expect(getSop(id)).toMatchObject({ title: "Protegido", version: 1 });
    const ok = await sopAction(routeArgs(formRequest("/sops", { intent: "update", id, title: "Protegido", category: "Geral", contentMd: "Novo", status: "archived" }, { cookie: adminCookie })));
    expect(statusOf(ok)).toBe(302);
    expect(getSop(id)).toMatchObject({ version: 2, status: "archived" });
    expect(db.select().from(sopVersions).where(eq(sopVersions.sopId, id)).all()).toHaveLength(2);
  });

  it("shows an old version and a diff through the URL, and 404s an unknown version", async () => {
    const id = createSop(adminId, sop({ title: "Visível" }));
    updateSop(adminId, id, sop({ title: "Visível", contentMd: "Outro texto" }));
    const data = await sopLoader(routeArgs(getRequest(`/sops?view=${id}&version=1&from=1&to=2`, { cookie: doctorCookie })));
    expect(data.viewing?.shown.version).toBe(1);
    expect(data.viewing?.diff?.parts.some((p) => p.kind === "added" && p.text.includes("Outro texto"))).toBe(true);
    expect((await thrownResponse(sopLoader(routeArgs(getRequest(`/sops?view=${id}&version=9`, { cookie: doctorCookie }))))).status).toBe(404);
  });

  it("requires title, category and content", () => {
    const result = sopSchema.safeParse({ title: "", category: "", contentMd: " " });
    expect(result.success).toBe(false);
  });
});

function orderInput(fields: Record<string, string>): OrderInput {
  const result = orderSchema.safeParse(fields);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
}

describe("orders", () => {
  it("round-trips items and computes the total from them", () => {
    const patientId = insertPatient("Paciente Pedido");
    const input = orderInput({ orderType: "OPME" });
    const parsed = orderSchema.parse({
      orderType: "OPME",
      patientId: String(patientId),
      items: [
        { description: "Parafuso pedicular", quantity: "4", unitPrice: "1.800,00" },
        { description: "", quantity: "", unitPrice: "" },
        { description: "Haste de titânio", quantity: "2", unitPrice: "950" },
      ],
    });
    expect(input.status).toBe("pending");
    const id = createOrder(adminId, parsed);
    const stored = getOrder(id)!;
    expect(stored.items).toEqual([
      { description: "Parafuso pedicular", quantity: 4, unitCents: 180_000 },
      { description: "Haste de titânio", quantity: 2, unitCents: 95_000 },
    ]);
    expect(stored.totalCents).toBe(910_000);
    updateOrder(adminId, id, { ...parsed, status: "approved", items: [{ description: "Parafuso pedicular", quantity: 2, unitCents: 180_000 }] });
    expect(getOrder(id)).toMatchObject({ totalCents: 360_000, status: "approved" });
    expect(orderStatusHistory(id).map((c) => [c.fromStatus, c.toStatus])).toEqual([
      [null, "pending"],
      ["pending", "approved"],
    ]);
    expect(listOrders({ q: "paciente pedido", page: 1, sort: "createdAt", dir: "desc", filters: { status: "approved" } }).rows[0]).toMatchObject({
      id,
      patientName: "Paciente Pedido",
      totalCents: 360_000,
    });
  });

  it("names the bad item field and refuses bad quantities", () => {
    const result = orderSchema.safeParse({ orderType: "OPME", items: [{ description: "", quantity: "0", unitPrice: "abc" }] });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["items.0.description", "Descreva o item"],
      ["items.0.quantity", "Quantidade: um número inteiro de 1 a 100000"],
      ["items.0.unitPrice", "Valor unitário inválido"],
    ]);
  });

  it("lets staff create, edit and delete; doctors get 403", async () => {
    const created = await orderAction(routeArgs(formRequest("/orders", { intent: "create", orderType: "Exame staff", "items[0].description": "RM", "items[0].quantity": "1", "items[0].unitPrice": "950,00" }, { cookie: staffCookie })));
    expect(statusOf(created)).toBe(302);
    const row = db.select().from(orders).where(eq(orders.orderType, "Exame staff")).get()!;
    expect(row.totalCents).toBe(95_000);
    const refused = await thrownResponse(orderAction(routeArgs(formRequest("/orders", { intent: "delete", id: row.id }, { cookie: doctorCookie }))));
    expect(refused.status).toBe(403);
    const deleted = await orderAction(routeArgs(formRequest("/orders", { intent: "delete", id: row.id }, { cookie: staffCookie })));
    expect(statusOf(deleted)).toBe(302);
    expect(db.select().from(orders).where(eq(orders.id, row.id)).get()).toBeUndefined();
    expect(db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, row.id)).all()).toHaveLength(0);
  });
});

describe("referrers", () => {
  it("reads the commission as a decimal in steps of 0.01, 0 when empty", () => {
    expect(referrerSchema.parse({ name: "Dr. X" }).commissionRate).toBe(0);
    expect(referrerSchema.parse({ name: "Dr. X", commissionRate: "0,05" }).commissionRate).toBe(0.05);
    expect(referrerSchema.safeParse({ name: "Dr. X", commissionRate: "0.055" }).success).toBe(false);
    expect(referrerSchema.safeParse({ name: "Dr. X", commissionRate: "1.5" }).success).toBe(false);
    expect(referrerSchema.safeParse({ name: "", email: "x" }).success).toBe(false);
  });

  it("counts patients and surgeries through the links, and the commission on surgeries paid in the period", () => {
    const referrerId = createReferrer(adminId, referrerSchema.parse({ name: "Dra. Encaminhadora", commissionRate: "0.1" }));
    const doctorId = insertDoctor("Dr. Cirurgião");
    const patientId = insertPatient("Paciente Encaminhado");
    linkPatient(adminId, referrerId, patientId);
    const at = new Date("2026-03-10T12:00:00Z");
    const surgery = { patientId, doctorId, surgeryType: "Microdiscectomia", scheduledDate: at };
    db.insert(surgeries).values({ ...surgery, receivableStatus: "pago", billedAmountCents: 1_000_000, paidAt: at }).run();
    db.insert(surgeries).values({ ...surgery, receivableStatus: "pago", billedAmountCents: 500_000, paidAt: new Date("2026-05-01T12:00:00Z") }).run();
    db.insert(surgeries).values({ ...surgery, receivableStatus: "faturado", billedAmountCents: 700_000 }).run();
    const [row] = listReferrers({ q: "encaminhadora", page: 1, sort: "name", dir: "asc" }, { fromIso: "2026-03-01", toIso: "2026-03-31" }).rows;
    expect(row).toMatchObject({ patients: 1, surgeries: 3, paidSurgeries: 1, paidCents: 1_000_000, commissionCents: 100_000 });
  });

  it("accepts admin writes only", async () => {
    for (const cookie of [staffCookie, doctorCookie]) {
      const response = await thrownResponse(referrerAction(routeArgs(formRequest("/referrers", { intent: "create", name: "Forjado" }, { cookie }))));
      expect(response.status).toBe(403);
    }
    const ok = await referrerAction(routeArgs(formRequest("/referrers", { intent: "create", name: "Dr. Admin Cria", commissionRate: "" }, { cookie: adminCookie })));
    expect(statusOf(ok)).toBe(302);
  });
});

