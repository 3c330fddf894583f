import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { pipelineStages, receivableGlosas, receivableMoves, receivablePayments, surgeries, surgeryFeeLines } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { RECEIVABLE_MOVES, RECEIVABLE_STATUSES, type ReceivableStatus } from "~/lib/receivables";
import { moveSurgery } from "~/models/pipeline.server";
import {
  ReceivableError,
  listPaid,
  listReceivables,
  moveReceivable,
  receivableMoney,
  removeReceivable,
  reopenReceivable,
} from "~/models/receivable.server";
import { loader as pagasApi } from "~/routes/api/financeiro-pagas";
import { loader as listApi } from "~/routes/api/financeiro-receber";
import { action as itemApi } from "~/routes/api/financeiro-receber-item";
import { loader as resumoApi } from "~/routes/api/financeiro-resumo";
import { action as screenAction, loader as screenLoader } from "~/routes/financeiro-receber";
import {
  type SignedIn,
  capturePrepared,
  formRequest,
  getRequest,
  insertDoctor,
  insertPatient,
  insertPayer,
  loginAs,
  routeArgs,
  statusOf,
  thrownResponse,
} from "./helpers";

let admin: SignedIn;
let staff: SignedIn;
let doctorUser: SignedIn;
let patientId: number;
let doctorId: number;
let ownDoctorId: number;
let unimed: number;
let bradesco: number;

const PAST = new Date("2026-03-10T12:00:00Z");

function addSurgery(overrides: Partial<typeof surgeries.$inferInsert> = {}): number {
  const id = db
    .insert(surgeries)
    .values({ patientId, doctorId, surgeryType: "Artrodese lombar", scheduledDate: PAST, currentStage: "em_cirurgia", ...overrides })
    .returning({ id: surgeries.id })
    .get().id;
  db.insert(pipelineStages).values({ surgeryId: id, stage: overrides.currentStage ?? "em_cirurgia", fromStage: null }).run();
  return id;
}

/** A receivable in `status`, reached through the allowed moves. */
function receivableIn(status: ReceivableStatus, overrides: Partial<typeof surgeries.$inferInsert> = {}): number {
  const id = addSurgery({ receivableStatus: "realizado", currentStage: "concluido", status: "completed", billedAmountCents: 1_000_00, payerId: unimed, ...overrides });
  if (status === "realizado") return id;
  moveReceivable(admin.id, id, "faturado");
  if (status === "faturado") return id;
  if (status === "pendente") return moveReceivable(admin.id, id, "pendente"), id;
  if (status === "glosa") return moveReceivable(admin.id, id, "glosa", { glosa: { tissCode: "1705", reason: "Quantidade não autorizada", deniedCents: 200_00 } }), id;
  moveReceivable(admin.id, id, "pago", { payment: { paidOn: "2026-04-20" } });
  return id;
}

const row = (id: number) => db.select().from(surgeries).where(eq(surgeries.id, id)).get()!;
const moves = (id: number) => db.select().from(receivableMoves).where(eq(receivableMoves.surgeryId, id)).orderBy(receivableMoves.id).all();

async function json(response: unknown) {
  const res = response instanceof Response ? response : await thrownResponse(Promise.reject(response));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function apiRequest(path: string, method: string, cookie: string, body?: unknown) {
  return new Request(`http://localhost${path}`, {
    method,
    headers: { Cookie: cookie, Origin: "http://localhost", Host: "localhost", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorUser = await loginAs("doctor");
  patientId = insertPatient("Maria Receber");
  doctorId = insertDoctor("Dr. Caio Faturamento");
  ownDoctorId = insertDoctor("Dra. Própria", { userId: doctorUser.id, crm: "654321" });
  unimed = insertPayer("Unimed Receber");
  bradesco = insertPayer("Bradesco Receber");
});

describe("a surgery enters the receivables when concluded", () => {
  it("becomes 'realizado' on the pipeline's move to Concluído, logged in the same transaction, and leaves again if moved back before billing", () => {
    const id = addSurgery();
    expect(row(id).receivableStatus).toBeNull();
    moveSurgery(staff.id, id, { to: "concluido", denialReason: null, denialAppeal: false } as never);
    expect(row(id).receivableStatus).toBe("realizado");
    expect(moves(id)).toMatchObject([{ kind: "concluded", fromStatus: null, toStatus: "realizado", movedBy: staff.id }]);
    moveSurgery(staff.id, id, { to: "em_cirurgia", denialReason: null, denialAppeal: false } as never);
    expect(row(id).receivableStatus).toBeNull();
    expect(moves(id).at(-1)).toMatchObject({ kind: "remove", fromStatus: "realizado", toStatus: null });
  });

  it("keeps a billed receivable when the card moves off Concluído", () => {
    const id = receivableIn("faturado", { currentStage: "concluido" });
    moveSurgery(staff.id, id, { to: "em_cirurgia", denialReason: null, denialAppeal: false } as never);
    expect(row(id).receivableStatus).toBe("faturado");
  });
});

describe("only the allowed moves", () => {
  it("accepts exactly RECEIVABLE_MOVES for every pair of statuses, and refuses the rest without writing", () => {
    const accepted: string[] = [];
    for (const from of RECEIVABLE_STATUSES) {
      for (const to of RECEIVABLE_STATUSES) {
        const id = receivableIn(from);
        const before = moves(id).length;
        try {
          moveReceivable(admin.id, id, to, {
            glosa: { tissCode: "1801", reason: "Procedimento não autorizado", deniedCents: 50_00 },
            payment: { paidOn: "2026-05-01" },
          });
          accepted.push(`${from}>${to}`);
          expect(moves(id).length).toBe(before + 1);
        } catch (error) {
          expect(error).toBeInstanceOf(ReceivableError);
          expect(row(id).receivableStatus).toBe(from);
          expect(moves(id).length).toBe(before);
        }
      }
    }
    const expected = Object.entries(RECEIVABLE_MOVES).flatMap(([from, tos]) => tos.map((to) => `${from}>${to}`));
    expect(accepted.sort()).toEqual(expected.sort());
  });

  it("'reabrir' takes a mistaken billing back to realizado with its reason in the history; never once money is recorded", () => {
    const id = receivableIn("pendente");
    expect(() => reopenReceivable(admin.id, id, "")).toThrow(ReceivableError);
    reopenReceivable(admin.id, id, "Guia enviada ao convênio errado");
    expect(row(id)).toMatchObject({ receivableStatus: "realizado", billedAt: null });
    expect(moves(id).at(-1)).toMatchObject({ kind: "reopen", fromStatus: "pendente", toStatus: "realizado", reason: "Guia enviada ao convênio errado", movedBy: admin.id });
    const paid = receivableIn("pago");
    expect(() => reopenReceivable(admin.id, paid, "Pagamento lançado errado")).toThrow(/faturado ou pendente/);
  });
});

describe("glosas and payments", () => {
  it("records the denied amount per fee line with the TISS code, and refuses more than a line is worth", () => {
    const id = receivableIn("faturado");
    const [surgeon, assistant] = [1_000_00, 300_00].map(
      (amountCents, i) =>
        db.insert(surgeryFeeLines).values({ surgeryId: id, doctorId, role: i ? "auxiliar" : "principal", amountCents }).returning({ id: surgeryFeeLines.id }).get().id,
    );
    expect(() =>
      moveReceivable(admin.id, id, "glosa", { glosa: { tissCode: "1705", reason: "x", lines: [{ feeLineId: assistant, deniedCents: 300_01 }] } }),
    ).toThrow(/passa do valor da linha/);
    moveReceivable(admin.id, id, "glosa", {
      glosa: { tissCode: "1705", reason: "Auxiliar não previsto", lines: [{ feeLineId: surgeon, deniedCents: 0 }, { feeLineId: assistant, deniedCents: 120_50 }] },
    });
    const money = receivableMoney(id);
    expect(money.glosas).toMatchObject([{ tissCode: "1705", deniedCents: 120_50, lines: [{ deniedCents: 120_50 }] }]);
    expect(money.openGlosaCents).toBe(120_50);
  });

  it("a partial payment opens a glosa of the difference; the appeal's recovery pays it and the rest is lost", () => {
    const id = receivableIn("faturado");
    expect(() => moveReceivable(admin.id, id, "pago", { payment: { paidOn: "2026-04-01", amountCents: 800_00 } })).toThrow(/glosa da diferença/);
    const status = moveReceivable(admin.id, id, "pago", {
      payment: { paidOn: "2026-04-01", amountCents: 800_00, glosa: { tissCode: "2010", reason: "Valor acima da tabela" } },
    });
    expect(status).toBe("glosa");
    expect(row(id).paidAt?.toISOString()).toBe("2026-04-01T03:00:00.000Z");
    expect(receivableMoney(id)).toMatchObject({ paidCents: 800_00, openGlosaCents: 200_00, lostCents: 0 });
    moveReceivable(admin.id, id, "pago", { payment: { paidOn: "2026-05-02", amountCents: 150_00 } });
    const money = receivableMoney(id);
    expect(row(id).receivableStatus).toBe("pago");
    expect(money).toMatchObject({ paidCents: 950_00, recoveredCents: 150_00, lostCents: 50_00, openGlosaCents: 0 });
    expect(money.glosas[0]).toMatchObject({ appealOutcome: "parcial", recoveredCents: 150_00 });
    expect(db.select().from(receivablePayments).where(eq(receivablePayments.surgeryId, id)).all()).toHaveLength(2);
  });

  it("refuses a payment above what is owed or dated in the future", () => {
    const id = receivableIn("faturado");
    expect(() => moveReceivable(admin.id, id, "pago", { payment: { paidOn: "2026-04-01", amountCents: 1_000_01 } })).toThrow(/passa do valor em aberto/);
    expect(() => moveReceivable(admin.id, id, "pago", { payment: { paidOn: "2999-01-01" } })).toThrow(/futuro/);
    expect(row(id).receivableStatus).toBe("faturado");
  });
});

describe("removing a receivable", () => {
  it("takes the surgery off the receivables and keeps the surgery; refused once paid", () => {
    const id = receivableIn("faturado");
    removeReceivable(admin.id, id);
    expect(row(id)).toMatchObject({ receivableStatus: null, surgeryType: "Artrodese lombar" });
    expect(moves(id).at(-1)).toMatchObject({ kind: "remove", fromStatus: "faturado", toStatus: null });
    const paid = receivableIn("pago");
    expect(() => removeReceivable(admin.id, paid)).toThrow(/histórico financeiro/);
  });
});

describe("the JSON API (SPEC §7)", () => {
  let items: number[];
  beforeAll(() => {
    db.delete(receivablePayments).run();
    db.delete(receivableGlosas).run();
    db.update(surgeries).set({ receivableStatus: null }).run();
    items = [
      receivableIn("realizado", { billedAmountCents: 1_234_56, guideNumber: "G-API-1", scheduledDate: new Date("2026-02-01T12:00:00Z") }),
      receivableIn("faturado", { billedAmountCents: 2_000_00, payerId: bradesco, scheduledDate: new Date("2026-02-02T12:00:00Z") }),
      receivableIn("pago", { billedAmountCents: 987_65, scheduledDate: new Date("2026-02-03T12:00:00Z") }),
      receivableIn("realizado", { billedAmountCents: 10_00, doctorId: ownDoctorId, scheduledDate: new Date("2026-02-04T12:00:00Z") }),
    ];
  });

  it("lists items with the filters, amounts to the cent", async () => {
    const all = await json(await listApi(routeArgs(getRequest("/api/financeiro/cirurgias-a-receber", { cookie: staff.cookie }))));
    expect((all.body.items as unknown[]).length).toBe(4);
    const realizado = await json(await listApi(routeArgs(getRequest(`/api/financeiro/cirurgias-a-receber?status=realizado&payer_id=${unimed}&search=G-API-1`, { cookie: staff.cookie }))));
    expect(realizado.body.items).toEqual([
      {
        id: items[0],
        patient_name: "Maria Receber",
        doctor_name: "Dr. Caio Faturamento",
        surgery_type: "Artrodese lombar",
        scheduled_date: "2026-02-01T12:00:00.000Z",
        payer_id: unimed,
        payer_name: "Unimed Receber",
        guide_number: "G-API-1",
        billed_amount_cents: 123456,
        status: "realizado",
        billed_at: null,
        paid_ts: null,
        paid_amount_cents: 0,
        glosa_cents: 0,
      },
    ]);
    const bradescoOnly = await json(await listApi(routeArgs(getRequest(`/api/financeiro/cirurgias-a-receber?payer_id=${bradesco}`, { cookie: staff.cookie }))));
    expect((bradescoOnly.body.items as { id: number; billed_amount_cents: number }[]).map((i) => [i.id, i.billed_amount_cents])).toEqual([[items[1], 200000]]);
  });

  it("answers 400 { error } to bad parameters", async () => {
    for (const query of ["status=arquivado", "payer_id=abc", "limit=0", "limit=999999", "offset=-1"]) {
      const res = await json(await thrownResponse(listApi(routeArgs(getRequest(`/api/financeiro/cirurgias-a-receber?${query}`, { cookie: staff.cookie })))));
      expect(res.status, query).toBe(400);
      expect(typeof res.body.error).toBe("string");
    }
    const paid = await json(await thrownResponse(pagasApi(routeArgs(getRequest("/api/financeiro/cirurgias-pagas?from=2026-13-01", { cookie: staff.cookie })))));
    expect(paid.status).toBe(400);
  });

  it("gives a doctor only the surgeries they performed", async () => {
    const mine = await json(await listApi(routeArgs(getRequest("/api/financeiro/cirurgias-a-receber", { cookie: doctorUser.cookie }))));
    expect((mine.body.items as { id: number }[]).map((i) => i.id)).toEqual([items[3]]);
    const summary = await json(await resumoApi(routeArgs(getRequest("/api/financeiro/resumo", { cookie: doctorUser.cookie }))));
    expect(summary.body).toEqual({ realizadas: 1, faturadas: 0 });
  });

  it("sums realizadas and faturadas", async () => {
    const summary = await json(await resumoApi(routeArgs(getRequest("/api/financeiro/resumo", { cookie: staff.cookie }))));
    expect(summary.body).toEqual({ realizadas: 2, faturadas: 1 });
  });

  it("PUT moves only along the allowed moves (400 { error } otherwise); staff may not write", async () => {
    const path = `/api/financeiro/cirurgias-a-receber/${items[0]}`;
    const backwards = await json(await itemApi(routeArgs(apiRequest(path, "PUT", admin.cookie, { status: "pago" }), { id: String(items[0]) })));
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toMatch(/Não é possível mudar de Realizado para Pago/);
    const junk = await json(await itemApi(routeArgs(apiRequest(path, "PUT", admin.cookie, { status: "arquivado" }), { id: String(items[0]) })));
    expect(junk.status).toBe(400);
    const refused = await thrownResponse(itemApi(routeArgs(apiRequest(path, "PUT", staff.cookie, { status: "faturado" }), { id: String(items[0]) })));
    expect(refused.status).toBe(403);
    const billed = await json(await itemApi(routeArgs(apiRequest(path, "PUT", admin.cookie, { status: "faturado" }), { id: String(items[0]) })));
    expect(billed).toEqual({ status: 200, body: { item: { id: items[0], status: "faturado" } } });
    expect(row(items[0]).billedAt).not.toBeNull();
  });

  it("DELETE removes a receivable (the surgery stays) and refuses a paid one", async () => {
    const done = await json(await itemApi(routeArgs(apiRequest(`/api/financeiro/cirurgias-a-receber/${items[1]}`, "DELETE", admin.cookie), { id: String(items[1]) })));
    expect(done).toEqual({ status: 200, body: { message: "Registro excluído com sucesso" } });
    expect(row(items[1]).receivableStatus).toBeNull();
    const paid = await json(await itemApi(routeArgs(apiRequest(`/api/financeiro/cirurgias-a-receber/${items[2]}`, "DELETE", admin.cookie), { id: String(items[2]) })));
    expect(paid.status).toBe(400);
    expect(row(items[2]).receivableStatus).toBe("pago");
  });

  it("lists paid surgeries by the day paid and payer", async () => {
    const inRange = await json(await pagasApi(routeArgs(getRequest(`/api/financeiro/cirurgias-pagas?from=2026-04-20&to=2026-04-20&payer_id=${unimed}`, { cookie: staff.cookie }))));
    expect(inRange.body.items).toMatchObject([{ id: items[2], billed_amount_cents: 98765, paid_amount_cents: 98765, paid_ts: "2026-04-20T03:00:00.000Z", status: "pago" }]);
    const outside = await json(await pagasApi(routeArgs(getRequest("/api/financeiro/cirurgias-pagas?from=2026-04-21", { cookie: staff.cookie }))));
    expect(outside.body.items).toEqual([]);
  });
});

describe("the screen", () => {
  it("marks a realizado receivable as faturado with SPEC §8's toast; staff cannot", async () => {
    const id = receivableIn("realizado");
    const refused = await thrownResponse(screenAction(routeArgs(formRequest("/financeiro/cirurgias-receber", { intent: "bill", id: String(id) }, { cookie: staff.cookie }))));
    expect(refused.status).toBe(403);
    const response = (await screenAction(routeArgs(formRequest("/financeiro/cirurgias-receber", { intent: "bill", id: String(id) }, { cookie: admin.cookie })))) as Response;
    expect(response.status).toBe(302);
    expect(row(id).receivableStatus).toBe("faturado");
    const again = await screenAction(routeArgs(formRequest("/financeiro/cirurgias-receber", { intent: "bill", id: String(id) }, { cookie: admin.cookie })));
    expect(statusOf(again)).toBe(400);
  });

  it("filters by status and payer from the URL", async () => {
    const data = (await screenLoader(routeArgs(getRequest(`/financeiro/cirurgias-receber?status=pago&payer=${unimed}`, { cookie: staff.cookie })))) as Awaited<ReturnType<typeof screenLoader>>;
    expect(data.rows.length).toBeGreaterThan(0);
    expect(data.rows.every((r) => r.status === "pago" && r.payerId === unimed)).toBe(true);
    expect(data.permissions).toEqual({ create: false, edit: false, delete: false });
  });
});

describe("'Valor faturado' of the paid list", () => {
  it("sums the billed amount of every paid surgery of the filter and scope, read from an index alone, and follows each payment", () => {
    const paid = { q: "", page: 1, sort: "paidAt" as const, dir: "desc" as const };
    const bySql = (payerId: number | null, doctor: number | null) =>
      sqlite
        .prepare("select coalesce(sum(billed_amount_cents), 0) from surgeries where receivable_status = 'pago' and paid_at is not null and (? is null or payer_id = ?) and (? is null or doctor_id = ?)")
        .pluck()
        .get(payerId, payerId, doctor, doctor) as number;
    const check = () => {
      expect(listPaid(paid, { from: null, to: null, payerId: null }, "all").billedTotalCents).toBe(bySql(null, null));
      expect(listPaid(paid, { from: null, to: null, payerId: unimed }, "all").billedTotalCents).toBe(bySql(unimed, null));
      expect(listPaid(paid, { from: null, to: null, payerId: null }, { doctorId: ownDoctorId }).billedTotalCents).toBe(bySql(null, ownDoctorId));
    };
    check();
    expect(bySql(null, null)).toBeGreaterThan(0);
    // Paid now: the kept total follows.
    const id = receivableIn("faturado");
    sqlite.prepare("update surgeries set receivable_status = 'pago', paid_at = ?, billed_amount_cents = 12345 where id = ?").run(Date.now(), id);
    check();
    const statements = capturePrepared(() => listPaid(paid, { from: "2026-01-01", to: null, payerId: unimed }, { doctorId: ownDoctorId })).filter((s) => /sum\(/.test(s));
    expect(statements).toHaveLength(1);
    const plan = (sqlite.prepare(`explain query plan ${statements[0]}`).all(...(statements[0].match(/\?/g) ?? []).map(() => 1)) as { detail: string }[]).map((r) => r.detail).join("\n");
    expect(plan).toMatch(/USING COVERING INDEX surgeries_receivable_payer_paid_idx/);
  });
});

describe("query plans at scale (100 000 surgeries)", () => {
  it("reads the receivable and paid lists through indexes: no scan of surgeries, no sort of a big result", () => {
    sqlite.prepare("update row_counts set n = n where table_name = 'doctors'").run(); // a write: the kept totals are read again
    const seen = capturePrepared(() => {
      const state = { q: "", page: 1, sort: "scheduledDate" as const, dir: "desc" as const };
      listReceivables(state, { status: null, payerId: null }, "all");
      listReceivables(state, { status: "faturado", payerId: null }, "all");
      listReceivables(state, { status: null, payerId: unimed }, "all");
      listReceivables(state, { status: "glosa", payerId: unimed }, "all");
      listReceivables({ ...state, after: [Date.UTC(2026, 0, 1), 5] }, { status: null, payerId: null }, "all");
      const paid = { q: "", page: 1, sort: "paidAt" as const, dir: "desc" as const };
      listPaid(paid, { from: "2026-01-01", to: "2026-12-31", payerId: null }, "all");
      listPaid(paid, { from: null, to: null, payerId: unimed }, "all");
    });
    // A page whose walk found no ids is read 'where false': SQLite tests that once and reads nothing.
    const reads = seen.filter((s) => /from "surgeries"/.test(s) && !/ where false /.test(s));
    expect(reads.length).toBeGreaterThan(12);
    for (const statement of reads) {
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, statement).not.toMatch(/SCAN surgeries(?! USING (COVERING )?INDEX surgeries_(receivable|payer_receivable))/);
      // A page joined from its ids (found through the walk checked here too) sorts that page at most.
      const pageByIds = /where "surgeries"\."id" in \(/.test(statement);
      if (!/sum\(/.test(statement.slice(0, 60)) && !pageByIds) expect(plan, statement).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    }
  });
});
