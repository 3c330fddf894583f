import { parseWithZod } from "@conform-to/zod/v4";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  doctors,
  financialTransactions,
  pipelineStages,
  surgeries,
  surgeryFeeLines,
  tasks,
} from "~db/schema";
import { db } from "~/.server/db";
import { parseListState } from "~/lib/list-params";
import {
  SURGERY_SORTS,
  SurgeryError,
  createSurgery,
  deleteSurgery,
  getSurgery,
  listSurgeries,
  SURGERY_LIST,
  resolveSurgeryStatus,
  surgeryDeleteBlock,
  updateSurgery,
} from "~/models/surgery.server";
import { action, loader } from "~/routes/surgeries";
import { type SurgeryInput, surgerySchema } from "~/validation/surgery";
import { formRequest, getRequest, insertDoctor as insertDoctorRow, insertHospital, insertPatient, insertPayer, loginAs, routeArgs, statusOf, thrownResponse } from "./helpers";

let adminId: number;
let staffId: number;
let adminCookie: string;
let staffCookie: string;
let patientId: number;
let otherPatientId: number;
let doctorId: number;
let inactiveDoctorId: number;
let hospitalId: number;
let payerId: number;

function insertDoctor(name: string, active = true) {
  return insertDoctorRow(name, { crm: String(Math.floor(Math.random() * 1e6)), active });
}

/** A valid form input, as the schema gives it, with `overrides`. */
function input(overrides: Partial<SurgeryInput> = {}): SurgeryInput {
  return {
    patientId,
    doctorId,
    surgeryType: "Artrodese lombar L4-L5",
    scheduledDate: new Date("2026-05-10T12:30:00Z"),
    surgeryStatus: "scheduled",
    currentStage: "aguarda_docs",
    estimatedDurationMin: 180,
    hospitalId,
    hospitalName: null,
    payerId,
    payerName: null,
    guideNumber: "G-2026-001",
    billedAmount: null,
    notes: null,
    ...overrides,
  };
}

function historyOf(surgeryId: number) {
  return db.select().from(pipelineStages).where(eq(pipelineStages.surgeryId, surgeryId)).orderBy(pipelineStages.id).all();
}

/** The form fields a browser posts for a surgery (strings, as typed). */
function formFields(overrides: Record<string, string> = {}) {
  return {
    intent: "create",
    patientId: String(patientId),
    doctorId: String(doctorId),
    surgeryType: "Microdiscectomia",
    scheduledDate: "2026-06-01T07:30",
    surgeryStatus: "scheduled",
    currentStage: "aguarda_docs",
    estimatedDurationMin: "",
    hospitalId: String(hospitalId),
    hospitalName: "",
    payerId: String(payerId),
    payerName: "",
    guideNumber: "",
    billedAmount: "",
    notes: "",
    ...overrides,
  };
}


beforeAll(async () => {
  ({ id: adminId, cookie: adminCookie } = await loginAs("admin", { name: "Ana Admin", email: "ana@cirurgias.test" }));
  ({ id: staffId, cookie: staffCookie } = await loginAs("staff", { name: "Sérgio Equipe", email: "sergio@cirurgias.test" }));

  patientId = insertPatient("João Conceição");
  otherPatientId = insertPatient("Maria Souza");
  doctorId = insertDoctor("Dr. Álvaro Nunes");
  inactiveDoctorId = insertDoctor("Dr. Inativo", false);
  hospitalId = insertHospital("Hospital São Lucas");
  payerId = insertPayer("Unimed Paulistana");
});

describe("surgery form schema", () => {
  it("requires patient, doctor, surgery type and scheduled date", () => {
    const submission = parseWithZod(new URLSearchParams({ surgeryType: " " }), { schema: surgerySchema });
    expect(submission.status).toBe("error");
    const errors = submission.status === "error" ? submission.error : {};
    expect(errors?.patientId).toEqual(["Selecione o paciente"]);
    expect(errors?.doctorId).toEqual(["Selecione o médico"]);
    expect(errors?.surgeryType).toEqual(["Informe o tipo de cirurgia"]);
    expect(errors?.scheduledDate).toEqual(["Informe a data e a hora da cirurgia"]);
  });

  it("reads reais into exact cents, São Paulo wall time into UTC, and the duration as an integer", () => {
    const submission = parseWithZod(
      new URLSearchParams(formFields({ billedAmount: "1.234,56", estimatedDurationMin: "90,5", scheduledDate: "2026-06-01T07:30" })),
      { schema: surgerySchema },
    );
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.billedAmount).toBe(123456);
    expect(submission.value.estimatedDurationMin).toBe(91);
    expect(submission.value.scheduledDate.toISOString()).toBe("2026-06-01T10:30:00.000Z");
    expect(submission.value.surgeryStatus).toBe("scheduled");
  });

  it("defaults status and stage, and rejects bad values with field messages", () => {
    const ok = parseWithZod(new URLSearchParams(formFields({ surgeryStatus: "", currentStage: "" })), { schema: surgerySchema });
    expect(ok.status === "success" && [ok.value.surgeryStatus, ok.value.currentStage]).toEqual(["scheduled", "aguarda_docs"]);

    const bad = parseWithZod(
      new URLSearchParams(
        formFields({ currentStage: "voando", estimatedDurationMin: "-5", billedAmount: "abc", hospitalId: "outro", payerId: "x1" }),
      ),
      { schema: surgerySchema },
    );
    expect(bad.status).toBe("error");
    const errors = bad.status === "error" ? bad.error : {};
    expect(errors?.currentStage).toEqual(["Etapa inválida"]);
    expect(errors?.estimatedDurationMin).toEqual(["Informe a duração em minutos (ex.: 120)"]);
    expect(errors?.billedAmount).toEqual(["Valor inválido"]);
    expect(errors?.hospitalName).toEqual(["Informe o nome do hospital"]);
    expect(errors?.payerId).toEqual(["Pagador inválido"]);
  });
});

describe("creating and editing surgeries", () => {
  it("creates a surgery, logs its initial stage and audits the write", () => {
    const id = createSurgery(adminId, input({ billedAmount: 123456 }));
    const row = db.select().from(surgeries).where(eq(surgeries.id, id)).get()!;
    expect(row).toMatchObject({
      patientId,
      doctorId,
      status: "scheduled",
      currentStage: "aguarda_docs",
      hospitalId,
      hospital: "Hospital São Lucas",
      payerId,
      payerName: "Unimed Paulistana",
      billedAmountCents: 123456,
      createdBy: adminId,
    });
    expect(historyOf(id)).toMatchObject([{ stage: "aguarda_docs", fromStage: null, movedBy: adminId }]);
    const audit = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "surgery"), eq(auditLog.entityId, String(id))))
      .all();
    expect(audit.map((a) => [a.action, a.userId])).toEqual([["create", adminId]]);
  });

  it("gives a new surgery created in Concluído or Cancelado the matching status", () => {
    const done = createSurgery(adminId, input({ currentStage: "concluido" }));
    expect(getSurgery(done)?.status).toBe("completed");
    // An explicit non-default status on creation is kept.
    const odd = createSurgery(adminId, input({ currentStage: "aprovado", surgeryStatus: "cancelled" }));
    expect(getSurgery(odd)?.status).toBe("cancelled");
  });

  it("logs a stage change (from → to, by whom) and syncs the status with the stage", () => {
    const id = createSurgery(adminId, input());
    updateSurgery(staffId, id, input({ currentStage: "aprovado" }));
    expect(getSurgery(id)).toMatchObject({ currentStage: "aprovado", status: "scheduled" });

    updateSurgery(staffId, id, input({ currentStage: "concluido" }));
    expect(getSurgery(id)).toMatchObject({ currentStage: "concluido", status: "completed" });

    // Back out of Concluído without touching the status: the status follows the stage again.
    updateSurgery(staffId, id, input({ currentStage: "agendado", surgeryStatus: "completed" }));
    expect(getSurgery(id)).toMatchObject({ currentStage: "agendado", status: "scheduled" });

    expect(historyOf(id).map((h) => [h.fromStage, h.stage, h.movedBy])).toEqual([
      [null, "aguarda_docs", adminId],
      ["aguarda_docs", "aprovado", staffId],
      ["aprovado", "concluido", staffId],
      ["concluido", "agendado", staffId],
    ]);
  });

  it("keeps a status the user changed explicitly, and logs nothing when the stage stays", () => {
    const id = createSurgery(adminId, input());
    // Stage to Cancelado but the user also set the status themselves: theirs wins.
    updateSurgery(adminId, id, input({ currentStage: "cancelado", surgeryStatus: "completed" }));
    expect(getSurgery(id)).toMatchObject({ currentStage: "cancelado", status: "completed" });
    // Status changed alone: no stage move is logged.
    updateSurgery(adminId, id, input({ currentStage: "cancelado", surgeryStatus: "scheduled", notes: "Reagendar" }));
    expect(getSurgery(id)).toMatchObject({ currentStage: "cancelado", status: "scheduled", notes: "Reagendar" });
    expect(historyOf(id)).toHaveLength(2);

    expect(resolveSurgeryStatus({ surgeryStatus: "scheduled", currentStage: "negado" }, { status: "scheduled", currentStage: "aprovado" })).toBe(
      "scheduled",
    );
  });

  it("stores a typed hospital and payer ('Outro') without a Cadastros link", () => {
    const id = createSurgery(
      adminId,
      input({ hospitalId: "outro", hospitalName: "Hospital de Fora", payerId: "outro", payerName: "Particular" }),
    );
    expect(getSurgery(id)).toMatchObject({ hospitalId: null, hospital: "Hospital de Fora", payerId: null, payerName: "Particular" });
  });

  it("refuses unknown patients, doctors, hospitals and payers, and inactive doctors, with a field message", () => {
    const cases: Array<[Partial<SurgeryInput>, keyof SurgeryInput]> = [
      [{ patientId: 999_999 }, "patientId"],
      [{ doctorId: 999_999 }, "doctorId"],
      [{ doctorId: inactiveDoctorId }, "doctorId"],
      [{ hospitalId: 999_999 }, "hospitalId"],
      [{ payerId: 999_999 }, "payerId"],
    ];
    for (const [overrides, field] of cases) {
      let caught: unknown;
      try {
        createSurgery(adminId, input(overrides));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SurgeryError);
      expect((caught as SurgeryError).field).toBe(field);
    }
  });

  it("keeps an inactive doctor already on the surgery when editing", () => {
    const doctor = insertDoctor("Dr. Aposentado");
    const id = createSurgery(adminId, input({ doctorId: doctor }));
    db.update(doctors).set({ active: false }).where(eq(doctors.id, doctor)).run();
    updateSurgery(adminId, id, input({ doctorId: doctor, notes: "ok" }));
    expect(getSurgery(id)?.notes).toBe("ok");
  });
});

describe("deleting surgeries", () => {
  it("refuses a surgery with fee lines", () => {
    const id = createSurgery(adminId, input());
    db.insert(surgeryFeeLines).values({ surgeryId: id, doctorId, role: "principal", amountCents: 50_000 }).run();
    expect(surgeryDeleteBlock(id)).toContain("1 lançamento de honorários");
    expect(() => deleteSurgery(adminId, id)).toThrow(/Não é possível excluir esta cirurgia/);
    expect(getSurgery(id)).not.toBeNull();
  });

  it("refuses a surgery already billed, and one with financial transactions", () => {
    const billed = createSurgery(adminId, input());
    db.update(surgeries).set({ receivableStatus: "faturado" }).where(eq(surgeries.id, billed)).run();
    expect(() => deleteSurgery(adminId, billed)).toThrow("Não é possível excluir esta cirurgia: ela já foi faturada.");

    const withMoney = createSurgery(adminId, input());
    db.insert(financialTransactions)
      .values({ type: "receita", amountCents: 10_000, category: "Cirurgias", transactionDate: "2026-05-10", surgeryId: withMoney })
      .run();
    expect(() => deleteSurgery(adminId, withMoney)).toThrow(/1 lançamento financeiro/);
    expect(getSurgery(billed)).not.toBeNull();
    expect(getSurgery(withMoney)).not.toBeNull();
  });

  it("deletes a surgery with its stage history and leaves its tasks unlinked", () => {
    const id = createSurgery(adminId, input());
    updateSurgery(adminId, id, input({ currentStage: "aprovado" }));
    db.update(surgeries).set({ receivableStatus: "realizado" }).where(eq(surgeries.id, id)).run();
    const taskId = db.insert(tasks).values({ title: "Enviar guia", surgeryId: id }).returning({ id: tasks.id }).get().id;
    expect(historyOf(id)).toHaveLength(2);

    deleteSurgery(adminId, id);
    expect(getSurgery(id)).toBeNull();
    expect(historyOf(id)).toHaveLength(0);
    expect(db.select().from(tasks).where(eq(tasks.id, taskId)).get()).toMatchObject({ title: "Enviar guia", surgeryId: null });
    const audit = db.select().from(auditLog).where(and(eq(auditLog.entity, "surgery"), eq(auditLog.entityId, String(id)))).all();
    expect(audit.map((a) => a.action)).toEqual(["create", "update", "delete"]);
  });
});

describe("listing surgeries", () => {
  const params = (q = "") => ({ ...parseListState(new URL("http://x/surgeries"), SURGERY_LIST), q });
  const noFilters = parseListState(new URL("http://x/surgeries"), SURGERY_LIST).filters;

  it("finds surgeries by patient name without accents or case, and by the surgery's own text", () => {
    const mine = createSurgery(adminId, input({ surgeryType: "Descompressão cervical", guideNumber: "GX-778899" }));
    const other = createSurgery(adminId, input({ patientId: otherPatientId, surgeryType: "Laminectomia" }));
    const ids = (q: string) => listSurgeries(params(q), noFilters).rows.map((r) => r.id);
    expect(ids("joao conceicao")).toContain(mine);
    expect(ids("JOÃO")).not.toContain(other);
    expect(ids("descompressao")).toEqual([mine]);
    expect(ids("gx-778899")).toEqual([mine]);
    expect(ids("alvaro")).toEqual(expect.arrayContaining([mine, other]));
    expect(ids("paulistana")).toContain(mine);
    expect(ids("100%_ninguém")).toEqual([]);
  });

  it("filters by ?stage=, ?status= and ?doctor=, ignoring unknown values", () => {
    const approved = createSurgery(adminId, input({ currentStage: "aprovado", surgeryType: "Filtro etapa" }));
    const pending = createSurgery(adminId, input({ surgeryType: "Filtro etapa" }));
    const filtered = (query: string) =>
      listSurgeries(params("filtro etapa"), parseListState(new URL(`http://x/surgeries?${query}`), SURGERY_LIST).filters).rows.map((r) => r.id);
    expect(filtered("stage=aprovado")).toEqual([approved]);
    expect(filtered("stage=aguarda_docs")).toEqual([pending]);
    expect(filtered("stage=nao-existe").sort()).toEqual([approved, pending].sort());
    expect(filtered("status=completed")).toEqual([]);
    expect(filtered("status=bogus&doctor=abc")).toHaveLength(2);
    expect(filtered(`doctor=${inactiveDoctorId}`)).toEqual([]);
  });

  it("orders by scheduled date, newest first by default, and counts every match", () => {
    const older = createSurgery(adminId, input({ surgeryType: "Ordem teste", scheduledDate: new Date("2025-01-01T12:00:00Z") }));
    const newer = createSurgery(adminId, input({ surgeryType: "Ordem teste", scheduledDate: new Date("2027-01-01T12:00:00Z") }));
    const list = listSurgeries(params("ordem teste"), noFilters);
    expect(list.rows.map((r) => r.id)).toEqual([newer, older]);
    expect(list.total).toBe(2);
    const asc = listSurgeries({ ...params("ordem teste"), dir: "asc" }, noFilters);
    expect(asc.rows.map((r) => r.id)).toEqual([older, newer]);
  });
});

describe("the /surgeries loader and action", () => {
  it("answers an unknown ?stage= with the unfiltered list, not an error", async () => {
    const data = await loader(routeArgs(getRequest("/surgeries?stage=foo&status=bar&doctor=-1&page=abc", { cookie: staffCookie })));
    expect(data.filters).toEqual({ status: null, stage: null, doctorId: null });
    expect(data.total).toBeGreaterThan(0);
    expect(data.permissions).toEqual({ create: true, edit: true, delete: false });
  });

  it("opens the edit dialog with saved values; a typed hospital name matching Cadastros is offered as that hospital", async () => {
    const id = createSurgery(adminId, input({ hospitalId: "outro", hospitalName: "hospital sao lucas", payerId: "outro", payerName: "Particular", billedAmount: 123456 }));
    const data = await loader(routeArgs(getRequest(`/surgeries?edit=${id}`, { cookie: staffCookie })));
    expect(data.form?.defaults).toMatchObject({
      hospitalId: String(hospitalId),
      hospitalName: "",
      payerId: "outro",
      payerName: "Particular",
      billedAmount: "1234,56",
      scheduledDate: "2026-05-10T09:30",
      patientId: String(patientId),
    });
    expect(data.form?.patientOptions.map((o) => o.label)).toContain("João Conceição");
    expect(data.history.map((h) => [h.stage, h.movedByName])).toEqual([["aguarda_docs", "Ana Admin"]]);
  });

  it("refuses the delete dialog and a forged delete to staff (403), and keeps the row", async () => {
    const id = createSurgery(adminId, input());
    expect((await thrownResponse(loader(routeArgs(getRequest(`/surgeries?delete=${id}`, { cookie: staffCookie }))))).status).toBe(403);
    const forged = action(routeArgs(formRequest("/surgeries", { intent: "delete", id }, { cookie: staffCookie })));
    expect((await thrownResponse(forged)).status).toBe(403);
    expect(getSurgery(id)).not.toBeNull();
  });

  it("creates through the action with reais in cents, and answers bad ids with a 400 field error", async () => {
    const created = await action(routeArgs(formRequest("/surgeries?dialog=new&stage=aprovado", formFields({ surgeryType: "Via action", billedAmount: "1.234,56" }), { cookie: staffCookie })));
    expect(created).toBeInstanceOf(Response);
    expect((created as Response).status).toBe(302);
    expect((created as Response).headers.get("Location")).toBe("/surgeries?stage=aprovado");
    const row = db.select().from(surgeries).where(eq(surgeries.surgeryType, "Via action")).get()!;
    expect(row).toMatchObject({ billedAmountCents: 123456, createdBy: staffId, hospital: "Hospital São Lucas" });
    expect(row.scheduledDate.toISOString()).toBe("2026-06-01T10:30:00.000Z");

    const bad = await action(routeArgs(formRequest("/surgeries", formFields({ patientId: "987654" }), { cookie: staffCookie })));
    expect(statusOf(bad)).toBe(400);
    const body = (bad as unknown as { data: { result?: { error?: Record<string, string[]> } } }).data;
    expect(body.result?.error?.patientId?.[0]).toMatch(/Paciente não encontrado/);
  });

  it("refuses through the action to delete a surgery with money attached, with the clear message", async () => {
    const id = createSurgery(adminId, input());
    db.update(surgeries).set({ receivableStatus: "pago" }).where(eq(surgeries.id, id)).run();
    const result = await action(routeArgs(formRequest("/surgeries", { intent: "delete", id }, { cookie: adminCookie })));
    expect(statusOf(result)).toBe(400);
    const body = (result as unknown as { data: { toast?: { message: string } } }).data;
    expect(body.toast?.message).toBe("Não é possível excluir esta cirurgia: ela já foi paga. Para tirá-la da agenda, mova-a para a etapa Cancelado.");
    expect(getSurgery(id)).not.toBeNull();
  });
});
