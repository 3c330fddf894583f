import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, clinicHolidays, pipelineStages, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { ansDueOn, ansState } from "~/lib/ans-clock";
import { addBusinessDays, businessDaysBetween, isBusinessDay } from "~/lib/business-days";
import { COLUMN_CARD_LIMIT, PipelineError, boardUntilWrite, columnUntilWrite, loadBoard, loadColumn, moveSurgery, stageHistory, stageTotals, timePerStage } from "~/models/pipeline.server";
import { action, loader } from "~/routes/pipeline";
import { action as denyAction, loader as denyLoader } from "~/routes/pipeline-deny";
import { loader as historyLoader } from "~/routes/pipeline-history";
import {
  type SignedIn,
  capturePrepared,
  formRequest,
  getRequest,
  insertDoctor,
  insertHospital,
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
let pending: SignedIn;
let patientId: number;
let doctorId: number;
let otherDoctorId: number;
let payerId: number;
let hospitalId: number;

function addSurgery(overrides: Partial<typeof surgeries.$inferInsert> = {}): number {
  const id = db
    .insert(surgeries)
    .values({
      patientId,
      doctorId,
      surgeryType: "Microdiscectomia lombar",
      scheduledDate: new Date("2026-03-10T12:00:00Z"),
      currentStage: "aguarda_docs",
      ...overrides,
    })
    .returning({ id: surgeries.id })
    .get().id;
  db.insert(pipelineStages).values({ surgeryId: id, stage: overrides.currentStage ?? "aguarda_docs", fromStage: null }).run();
  return id;
}

const move = (to: string, extra: Record<string, string> = {}) => ({ to, denialReason: null, denialAppeal: false, ...extra }) as never;
const surgery = (id: number) => db.select().from(surgeries).where(eq(surgeries.id, id)).get()!;
const log = (id: number) => db.select().from(pipelineStages).where(eq(pipelineStages.surgeryId, id)).orderBy(pipelineStages.id).all();

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorUser = await loginAs("doctor");
  pending = await loginAs(null);
  patientId = insertPatient("Lúcia Ferraz");
  doctorId = insertDoctor("Dr. Otávio Prado");
  otherDoctorId = insertDoctor("Dra. Helena Brito", { crm: "654321" });
  payerId = insertPayer("Unimed Paulistana");
  hospitalId = insertHospital("Hospital Beneficência");
});

describe("business days", () => {
  it("skip weekends, national holidays, Carnaval Monday and the clinic's own days", () => {
    expect(isBusinessDay("2026-04-21")).toBe(false); // Tiradentes, a Tuesday
    expect(isBusinessDay("2026-04-03")).toBe(false); // Sexta-feira Santa
    expect(isBusinessDay("2026-02-16")).toBe(false); // Carnaval Monday (the library lists only Tuesday)
    expect(isBusinessDay("2026-02-17")).toBe(false);
    expect(isBusinessDay("2026-11-20")).toBe(false); // Consciência Negra, national since 2024
    expect(isBusinessDay("2026-04-18")).toBe(false); // Saturday
    expect(isBusinessDay("2026-04-22")).toBe(true);
    expect(isBusinessDay("2026-04-22", new Set(["2026-04-22"]))).toBe(false);
  });

  it("count across a holiday and a weekend, both ways", () => {
    // Friday 17 April 2026 + 2: Monday 20, (Tuesday 21 is Tiradentes) Wednesday 22.
    expect(addBusinessDays("2026-04-17", 2)).toBe("2026-04-22");
    expect(businessDaysBetween("2026-04-17", "2026-04-22")).toBe(2);
    expect(businessDaysBetween("2026-04-22", "2026-04-17")).toBe(-2);
    expect(businessDaysBetween("2026-04-22", "2026-04-22")).toBe(0);
    // Arithmetic and walking agree over years.
    const due = addBusinessDays("2024-01-02", 600);
    expect(businessDaysBetween("2024-01-02", due)).toBe(600);
  });

  it("the ANS response clock: 10 business days from the request, over Tiradentes and a weekend", () => {
    // Sent Thursday 16 April 2026: 17, 20, 22, 23, 24, 27, 28, 29, 30 April, 4 May (1 May is a holiday).
    expect(ansDueOn("enviado_pre_aut", "2026-04-16")).toBe("2026-05-04");
    expect(ansDueOn("aprovado", "2026-04-16")).toBe(addBusinessDays("2026-04-16", 21));
    expect(ansDueOn("concluido", "2026-04-16")).toBeNull();
    expect(ansState("aguardando_parecer", "2026-05-04", "2026-04-28")).toMatchObject({ daysLeft: 3, tone: "ok" });
    expect(ansState("aguardando_parecer", "2026-05-04", "2026-04-29")).toMatchObject({ daysLeft: 2, tone: "warning" });
    expect(ansState("aguardando_parecer", "2026-05-04", "2026-04-30")).toMatchObject({ daysLeft: 1, tone: "warning" });
    expect(ansState("aguardando_parecer", "2026-05-04", "2026-05-04")).toMatchObject({ daysLeft: 0, tone: "warning" });
    expect(ansState("aguardando_parecer", "2026-05-04", "2026-05-06")).toMatchObject({ daysLeft: -2, tone: "overdue" });
  });
});

describe("moving a card", () => {
  it("sets stage and status and logs the move (from, to, who) in one transaction", () => {
    const id = addSurgery({ scheduledDate: new Date("2020-01-10T12:00:00Z") });
    expect(moveSurgery(staff.id, id, move("enviado_pre_aut"), new Date("2026-04-16T13:00:00Z"))).toBe(true);
    const row = surgery(id);
    expect(row.currentStage).toBe("enviado_pre_aut");
    expect(row.status).toBe("scheduled");
    expect(row.ansRequestedAt?.toISOString()).toBe("2026-04-16T13:00:00.000Z");
    expect(row.ansDueOn).toBe("2026-05-04");
    expect(row.stageChangedAt?.toISOString()).toBe("2026-04-16T13:00:00.000Z");
    expect(log(id).at(-1)).toMatchObject({ fromStage: "aguarda_docs", stage: "enviado_pre_aut", movedBy: staff.id });

    moveSurgery(staff.id, id, move("concluido"));
    expect(surgery(id)).toMatchObject({ currentStage: "concluido", status: "completed", ansDueOn: null });
    moveSurgery(staff.id, id, move("cancelado"));
    expect(surgery(id).status).toBe("cancelled");
    const audits = db.select().from(auditLog).where(and(eq(auditLog.entity, "surgery"), eq(auditLog.entityId, String(id)))).all();
    expect(audits).toHaveLength(3);
  });

  it("the approval keeps the request date and switches to the 21-day clock", () => {
    const id = addSurgery();
    moveSurgery(admin.id, id, move("enviado_pre_aut"), new Date("2026-04-16T13:00:00Z"));
    moveSurgery(admin.id, id, move("aprovado"), new Date("2026-04-28T13:00:00Z"));
    expect(surgery(id).ansDueOn).toBe(addBusinessDays("2026-04-16", 21));
  });

  it("a clinic holiday set before the request pushes the deadline", () => {
    db.insert(clinicHolidays).values({ day: "2026-04-17", name: "Recesso da clínica" }).run();
    try {
      const id = addSurgery();
      moveSurgery(admin.id, id, move("enviado_pre_aut"), new Date("2026-04-16T13:00:00Z"));
      expect(surgery(id).ansDueOn).toBe("2026-05-05");
    } finally {
      db.delete(clinicHolidays).run();
    }
  });

  it("two people moving the same card: the later move wins and the log holds both, chained", () => {
    const id = addSurgery();
    // Both saw the card in 'Aguarda Docs'; the second move commits after the first.
    moveSurgery(staff.id, id, move("enviado_pre_aut"));
    moveSurgery(admin.id, id, move("opme_cotacao"));
    expect(surgery(id).currentStage).toBe("opme_cotacao");
    const moves = log(id).slice(1);
    expect(moves.map((m) => [m.fromStage, m.stage, m.movedBy])).toEqual([
      ["aguarda_docs", "enviado_pre_aut", staff.id],
      ["enviado_pre_aut", "opme_cotacao", admin.id],
    ]);
    // The same move twice writes nothing the second time.
    expect(moveSurgery(admin.id, id, move("opme_cotacao"))).toBe(false);
    expect(log(id)).toHaveLength(3);
  });

  it("refuses completing a surgery still to come and a surgery that no longer exists, writing nothing", () => {
    const id = addSurgery({ scheduledDate: new Date(Date.now() + 30 * 86_400_000) });
    expect(() => moveSurgery(admin.id, id, move("concluido"))).toThrow(PipelineError);
    expect(surgery(id).currentStage).toBe("aguarda_docs");
    expect(log(id)).toHaveLength(1);
    expect(() => moveSurgery(admin.id, 999_999, move("aprovado"))).toThrow(PipelineError);
  });

  it("days in the current stage count from the last move", () => {
    const id = addSurgery({ doctorId: otherDoctorId });
    moveSurgery(admin.id, id, move("aprovado"), new Date("2026-05-01T12:00:00Z"));
    const board = loadBoard({ doctorId: otherDoctorId, payerId: null, hospitalId: null, ans: null }, new Date("2026-05-08T13:00:00Z"));
    const card = board.columns.find((c) => c.stage === "aprovado")!.cards.find((c) => c.id === id)!;
    expect(card.daysInStage).toBe(7);
  });
});

describe("the board", () => {
  it("column counts and billed totals: counters equal a recomputation, also filtered", () => {
    const a = addSurgery({ billedAmountCents: 150_000, payerId, hospitalId, currentStage: "agendado" });
    addSurgery({ billedAmountCents: 50_000, payerId, currentStage: "agendado" });
    moveSurgery(admin.id, a, move("em_cirurgia"));
    db.update(surgeries).set({ billedAmountCents: 175_000 }).where(eq(surgeries.id, a)).run();
    db.delete(surgeries).where(eq(surgeries.currentStage, "cancelado")).run();

    const unfiltered = stageTotals({ doctorId: null, payerId: null, hospitalId: null, ans: null }, "2026-01-01");
    const recount = sqlite
      .prepare("select current_stage as stage, count(*) as cards, coalesce(sum(billed_amount_cents), 0) as billed from surgeries group by current_stage")
      .all() as { stage: string; cards: number; billed: number }[];
    for (const row of recount) expect(unfiltered[row.stage as keyof typeof unfiltered]).toEqual({ cards: row.cards, billedCents: row.billed });
    const byPayer = stageTotals({ doctorId: null, payerId, hospitalId: null, ans: null }, "2026-01-01");
    expect(byPayer.agendado).toEqual({ cards: 1, billedCents: 50_000 });
    expect(byPayer.em_cirurgia).toEqual({ cards: 1, billedCents: 175_000 });
    expect(stageTotals({ doctorId: null, payerId: null, hospitalId, ans: null }, "2026-01-01").em_cirurgia.cards).toBe(1);
  });

  it("columns read in date order, capped, with the rest on the column's own pages", () => {
    const doctor = insertDoctor("Dr. Caio Muitos", { crm: "777777" });
    for (let i = 0; i < COLUMN_CARD_LIMIT + 5; i++) {
      addSurgery({ doctorId: doctor, currentStage: "aguardando_parecer", scheduledDate: new Date(Date.UTC(2026, 6, 30 - i, 12)) });
    }
    const filters = { doctorId: doctor, payerId: null, hospitalId: null, ans: null };
    const column = loadBoard(filters).columns.find((c) => c.stage === "aguardando_parecer")!;
    expect(column.total).toBe(COLUMN_CARD_LIMIT + 5);
    expect(column.cards).toHaveLength(COLUMN_CARD_LIMIT);
    const dateOf = sqlite.prepare("select scheduled_date from surgeries where id = ?").pluck();
    const dates = column.cards.map((c) => Number(dateOf.get(c.id)));
    expect(dates).toEqual([...dates].sort((x, y) => x - y));
    const page = loadColumn("aguardando_parecer", { q: "", page: 2, sort: "scheduledDate", dir: "asc" }, filters);
    expect(page.rows).toHaveLength(0); // they all fit on page 1 of the column (25 a page)
    const first = loadColumn("aguardando_parecer", { q: "", page: 1, sort: "scheduledDate", dir: "asc" }, filters);
    expect(first.rows).toHaveLength(COLUMN_CARD_LIMIT + 5);
  });

  it("the board kept between views shows every move on the next view, and counts days from the minute", () => {
    const doctor = insertDoctor("Dra. Quadro Guardado", { crm: "818181" });
    const filters = { doctorId: doctor, payerId: null, hospitalId: null, ans: null };
    const stageOfCard = (id: number, now?: Date) => boardUntilWrite(filters, now).columns.find((c) => c.cards.some((card) => card.id === id))?.stage;
    const id = addSurgery({ doctorId: doctor });
    expect(stageOfCard(id)).toBe("aguarda_docs");
    expect(boardUntilWrite(filters)).toBe(boardUntilWrite(filters)); // kept: the same value
    moveSurgery(staff.id, id, move("aprovado"));
    expect(stageOfCard(id)).toBe("aprovado");
    // Another doctor's filter is another board.
    expect(boardUntilWrite({ ...filters, doctorId: otherDoctorId }).columns.flatMap((c) => c.cards).some((card) => card.id === id)).toBe(false);
    // Days in the stage count on: a later minute reads the board again.
    const card = (now: Date) => boardUntilWrite(filters, now).columns.find((c) => c.stage === "aprovado")!.cards.find((c) => c.id === id)!;
    expect(card(new Date(Date.now() + 2 * 86_400_000 + 120_000)).daysInStage).toBe(2);
    expect(boardUntilWrite(filters, new Date(Date.now() + 60_000)).columns).toEqual(loadBoard(filters, new Date(Date.now() + 60_000)).columns);
  });

  it("the board is kept over writes to tables it does not read, and read again after a quote, a rename or a holiday", () => {
    const doctor = insertDoctor("Dra. Quadro das Tabelas", { crm: "838383" });
    const filters = { doctorId: doctor, payerId: null, hospitalId: null, ans: null };
    const now = new Date(); // one minute throughout: the board is also read again each minute
    const board = () => boardUntilWrite(filters, now);
    const id = addSurgery({ doctorId: doctor, currentStage: "opme_cotacao" });
    const card = () => board().columns.flatMap((column) => column.cards).find((c) => c.id === id)!;
    expect(card().opme).toEqual({ suppliers: 0 });
    // An appointment, a task and a payer written: the same board.
    const kept = board();
    sqlite
      .prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, type, status) values (?, ?, ?, ?, 'Consulta', 'scheduled')")
      .run(patientId, doctor, Date.parse("2026-03-11T12:00:00Z"), Date.parse("2026-03-11T12:30:00Z"));
    sqlite.prepare("insert into tasks (title) values ('Cobrar a cotação')").run();
    insertPayer("Convênio Fora do Quadro");
    expect(board()).toBe(kept);
    // A supplier's quote: the card counts it.
    const requestId = Number(sqlite.prepare("insert into opme_requests (surgery_id) values (?)").run(id).lastInsertRowid);
    const supplierId = Number(sqlite.prepare("insert into suppliers (name) values ('OPME do Quadro')").run().lastInsertRowid);
    expect(card().opme).toEqual({ suppliers: 0 });
    sqlite.prepare("insert into opme_quotes (request_id, supplier_id, valid_until) values (?, ?, '2026-04-30')").run(requestId, supplierId);
    expect(card().opme).toEqual({ suppliers: 1 });
    // The patient renamed: the card shows the new name.
    const name = (sqlite.prepare("select name from patients where id = ?").pluck().get(patientId) as string);
    sqlite.prepare("update patients set name = ? where id = ?").run(`${name} Renomeado`, patientId);
    expect(card().patientName).toBe(`${name} Renomeado`);
    sqlite.prepare("update patients set name = ? where id = ?").run(name, patientId);
    // A clinic holiday (the ANS clocks count business days): read again, as computed afresh.
    const beforeHoliday = board();
    db.insert(clinicHolidays).values({ day: "2026-12-28", name: "Recesso do Quadro" }).run();
    expect(board()).not.toBe(beforeHoliday);
    expect(board().columns).toEqual(loadBoard(filters, now).columns);
  });

  it("a column kept between views shows every move on the next view", () => {
    const doctor = insertDoctor("Dra. Coluna Guardada", { crm: "828282" });
    const filters = { doctorId: doctor, payerId: null, hospitalId: null, ans: null };
    const state = { q: "", page: 1, sort: "scheduledDate" as const, dir: "asc" as const };
    const ids = (stage: "aguarda_docs" | "aprovado") => columnUntilWrite(stage, state, filters).rows.map((card) => card.id);
    const id = addSurgery({ doctorId: doctor });
    expect(ids("aguarda_docs")).toEqual([id]);
    expect(columnUntilWrite("aguarda_docs", state, filters)).toBe(columnUntilWrite("aguarda_docs", state, filters)); // kept
    moveSurgery(staff.id, id, move("aprovado"));
    expect(ids("aguarda_docs")).toEqual([]);
    expect(ids("aprovado")).toEqual([id]);
    // Another page of the column is another value.
    expect(columnUntilWrite("aprovado", { ...state, page: 2 }, filters).rows).toEqual([]);
    const later = new Date(Date.now() + 60_000);
    expect(columnUntilWrite("aprovado", state, filters, later)).toEqual(loadColumn("aprovado", state, filters, later));
  });

  it("'Atrasadas ANS' lists only cards past their clock", () => {
    const doctor = insertDoctor("Dra. Prazo Vencido", { crm: "888888" });
    const late = addSurgery({ doctorId: doctor });
    const onTime = addSurgery({ doctorId: doctor });
    moveSurgery(admin.id, late, move("enviado_pre_aut"), new Date(Date.now() - 40 * 86_400_000));
    moveSurgery(admin.id, onTime, move("enviado_pre_aut"));
    const board = loadBoard({ doctorId: doctor, payerId: null, hospitalId: null, ans: "atrasadas" });
    const ids = board.columns.flatMap((c) => c.cards.map((card) => card.id));
    expect(ids).toEqual([late]);
    expect(board.columns.find((c) => c.stage === "enviado_pre_aut")!.cards[0].ans?.tone).toBe("overdue");
  });

  it("reads through indexes: no full scan of surgeries, no sort of a big result", () => {
    const seen = capturePrepared(() => {
      loadBoard({ doctorId: null, payerId: null, hospitalId: null, ans: null });
      loadBoard({ doctorId, payerId: null, hospitalId: null, ans: null });
      loadBoard({ doctorId: null, payerId, hospitalId: null, ans: null });
      loadBoard({ doctorId: null, payerId: null, hospitalId, ans: null });
      loadBoard({ doctorId: null, payerId: null, hospitalId: null, ans: "atrasadas" });
      loadColumn("aprovado", { q: "", page: 2, sort: "scheduledDate", dir: "asc", after: [Date.UTC(2026, 0, 1), 5] }, { doctorId: null, payerId: null, hospitalId: null, ans: null });
    });
    const reads = seen.filter((s) => /from "surgeries"/.test(s));
    expect(reads.length).toBeGreaterThan(10);
    for (const statement of reads) {
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, statement).not.toMatch(/SCAN surgeries(?! USING COVERING INDEX surgeries_(doctor|payer|hospital)_stage)/);
      const overdue = /"ans_due_on" </.test(statement);
      // A column's cards read by their page's ids sort that page at most.
      const pageByIds = /"surgeries"\."id" in \(/.test(statement);
      if (!/group by/.test(statement) && !overdue && !pageByIds) expect(plan, statement).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      if (overdue) expect(plan, statement).toMatch(/surgeries_ans_due_idx|surgeries_stage_date_idx/);
      // A filtered column seeks the filter and the stage together.
      if (/"doctor_id" = \?/.test(statement) && /order by/.test(statement)) expect(plan, statement).toMatch(/surgeries_doctor_stage_date_idx \(doctor_id=\? AND current_stage=\?\)/);
    }
  });
});

describe("the screens", () => {
  it("a staff member moves a card without JavaScript: redirect back with 'Status atualizado'", async () => {
    const id = addSurgery();
    const response = await action(routeArgs(formRequest("/pipeline?doctor=" + doctorId, { intent: "move", id, to: "aprovado" }, { cookie: staff.cookie })));
    expect(statusOf(response)).toBe(302);
    expect((response as Response).headers.get("Location")).toBe(`/pipeline?doctor=${doctorId}`);
    expect(surgery(id).currentStage).toBe("aprovado");
  });

  it("a refused move reads 'Erro ao atualizar status' with the reason; nothing is written", async () => {
    const id = addSurgery({ scheduledDate: new Date(Date.now() + 10 * 86_400_000) });
    const result = await action(routeArgs(formRequest("/pipeline", { intent: "move", id, to: "concluido" }, { cookie: admin.cookie })));
    expect(statusOf(result)).toBe(400);
    const toast = (result as unknown as { data: { toast: { message: string; description: string } } }).data.toast;
    expect(toast.message).toBe("Erro ao atualizar status");
    expect(toast.description).toMatch(/data futura/);
    expect(log(id)).toHaveLength(1);
  });

  it("'Negado' needs the reason; it is kept on the surgery and in the history", async () => {
    const id = addSurgery();
    const missing = await action(routeArgs(formRequest("/pipeline", { intent: "move", id, to: "negado" }, { cookie: admin.cookie })));
    expect(statusOf(missing)).toBe(400);
    const form = await denyLoader(routeArgs(getRequest(`/pipeline/${id}/negar?voltar=${encodeURIComponent("https://evil.example/")}`, { cookie: staff.cookie }), { id: String(id) }));
    expect(form.back).toBe("/pipeline");
    const blank = await denyAction(
      routeArgs(formRequest(`/pipeline/${id}/negar`, { intent: "move", id, to: "negado", denialReason: "   " }, { cookie: staff.cookie }), { id: String(id) }),
    );
    expect(statusOf(blank)).toBe(400);
    expect(surgery(id).currentStage).toBe("aguarda_docs");
    const reason = "Cobertura contratual não contempla OPME importada";
    await action(routeArgs(formRequest("/pipeline", { intent: "move", id, to: "negado", denialReason: reason, denialAppeal: "on" }, { cookie: admin.cookie })));
    expect(surgery(id)).toMatchObject({ currentStage: "negado", denialReason: reason, denialAppeal: true });
    const page = await historyLoader(routeArgs(getRequest(`/pipeline/${id}`, { cookie: doctorUser.cookie }), { id: String(id) }));
    expect(page.moves.at(-1)).toMatchObject({ stage: "negado", note: `${reason} (a clínica vai recorrer)` });
    expect(page.surgery.denialReason).toBe(reason);
  });

  it("doctors see the board but cannot move; an account without a role gets 403", async () => {
    const id = addSurgery();
    const refused = await thrownResponse(action(routeArgs(formRequest("/pipeline", { intent: "move", id, to: "aprovado" }, { cookie: doctorUser.cookie }))));
    expect(refused.status).toBe(403);
    const board = await loader(routeArgs(getRequest(`/pipeline?mover=${id}`, { cookie: doctorUser.cookie })));
    expect(board.canMove).toBe(false);
    expect(board.moving).toBeNull(); // no menu to open without the right to move
    expect((await loader(routeArgs(getRequest(`/pipeline?mover=${id}`, { cookie: staff.cookie })))).moving).toBe(id);
    expect((await loader(routeArgs(getRequest("/pipeline?mover=abc", { cookie: staff.cookie })))).moving).toBeNull();
    expect((await thrownResponse(loader(routeArgs(getRequest("/pipeline", { cookie: pending.cookie }))))).status).toBe(403);
    expect((await thrownResponse(action(routeArgs(formRequest("/pipeline", { intent: "move", id, to: "aprovado" }, { cookie: pending.cookie }))))).status).toBe(403);
    expect((await thrownResponse(denyLoader(routeArgs(getRequest(`/pipeline/${id}/negar`, { cookie: doctorUser.cookie }), { id: String(id) })))).status).toBe(403);
    expect(surgery(id).currentStage).toBe("aguarda_docs");
  });

  it("the history lists every move with its author and the time in each stage", () => {
    const id = addSurgery();
    const start = log(id)[0].createdAt.getTime();
    moveSurgery(staff.id, id, move("enviado_pre_aut"), new Date(start + 2 * 86_400_000));
    moveSurgery(admin.id, id, move("aguarda_docs"), new Date(start + 3 * 86_400_000));
    const history = stageHistory(id, new Date(start + 4 * 86_400_000));
    expect(history.moves.map((m) => [m.stage, m.durationMs / 86_400_000])).toEqual([
      ["aguarda_docs", 2],
      ["enviado_pre_aut", 1],
      ["aguarda_docs", 1],
    ]);
    expect(timePerStage(history.moves)).toEqual([
      { stage: "aguarda_docs", durationMs: 3 * 86_400_000 },
      { stage: "enviado_pre_aut", durationMs: 86_400_000 },
    ]);
  });
});
