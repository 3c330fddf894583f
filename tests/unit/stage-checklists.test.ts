import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { pipelineStages, stageChecklistRuns, subtasks, surgeries, tasks } from "~db/schema";
import { db } from "~/.server/db";
import { moveSurgery } from "~/models/pipeline.server";
import { listChecklists, saveChecklist } from "~/models/stage-checklist.server";
import { action, loader } from "~/routes/settings/checklists";
import { type SignedIn, formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "./helpers";

let admin: SignedIn;
let staff: SignedIn;
let pending: SignedIn;
let patientId: number;
let doctorId: number;

const move = (to: string) => ({ to, denialReason: null, denialAppeal: false, justification: null }) as never;

function addSurgery() {
  const id = db
    .insert(surgeries)
    .values({ patientId, doctorId, surgeryType: "Artrodese cervical", scheduledDate: new Date("2026-09-10T12:00:00Z"), currentStage: "enviado_pre_aut" })
    .returning({ id: surgeries.id })
    .get().id;
  db.insert(pipelineStages).values({ surgeryId: id, stage: "enviado_pre_aut" }).run();
  return id;
}

const tasksOf = (surgeryId: number) => db.select().from(tasks).where(eq(tasks.surgeryId, surgeryId)).all();
const subtasksOf = (taskId: number) => db.select().from(subtasks).where(eq(subtasks.taskId, taskId)).orderBy(subtasks.position).all().map((s) => [s.title, s.completed]);

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  pending = await loginAs(null);
  patientId = insertPatient("Paciente Checklist");
  doctorId = insertDoctor("Dr. Checklist");
});

describe("stage checklists", () => {
  it("ship with Portuguese defaults ('Aguarda Docs': exams, consent form, payer card)", () => {
    const docs = listChecklists().find((c) => c.stage === "aguarda_docs")!;
    expect(docs.active).toBe(true);
    expect(docs.items.join(" ")).toMatch(/exames/i);
    expect(docs.items.join(" ")).toMatch(/consentimento/i);
    expect(docs.items.join(" ")).toMatch(/carteirinha/i);
  });

  it("entering a stage creates its task with subtasks exactly once, even when the card re-enters the stage", () => {
    saveChecklist(admin.id, { stage: "aguarda_docs", title: "Coletar documentos", active: true, items: ["Exames de imagem", "Termo de consentimento", "Carteirinha do convênio"] });
    const id = addSurgery();
    moveSurgery(staff.id, id, move("aguarda_docs"));
    const [task] = tasksOf(id);
    expect(task).toMatchObject({ title: "Coletar documentos: Paciente Checklist", category: "surgery", status: "pending", patientId, surgeryId: id, assigneeId: staff.id });
    expect(subtasksOf(task.id)).toEqual([
      ["Exames de imagem", false],
      ["Termo de consentimento", false],
      ["Carteirinha do convênio", false],
    ]);
    moveSurgery(staff.id, id, move("enviado_pre_aut"));
    moveSurgery(staff.id, id, move("aguarda_docs"));
    expect(tasksOf(id).filter((t) => t.title.startsWith("Coletar documentos"))).toHaveLength(1);
    expect(db.select().from(stageChecklistRuns).where(and(eq(stageChecklistRuns.surgeryId, id), eq(stageChecklistRuns.stage, "aguarda_docs"))).get()?.taskId).toBe(task.id);
  });

  it("an inactive or empty checklist creates nothing; a refused move creates nothing", () => {
    saveChecklist(admin.id, { stage: "em_cirurgia", title: "Nada", active: false, items: ["Item"] });
    saveChecklist(admin.id, { stage: "cancelado", title: "Vazio", active: true, items: [] });
    const id = addSurgery();
    moveSurgery(staff.id, id, move("em_cirurgia"));
    moveSurgery(staff.id, id, move("cancelado"));
    expect(tasksOf(id)).toHaveLength(0);
  });

  it("the screen: admins save (JS off), bad input is a 400 beside the field, staff read, no role is 403", async () => {
    const post = (fields: Record<string, string>, who = admin) => action(routeArgs(formRequest("/settings/checklists", fields, { cookie: who.cookie })));
    const saved = await post({ intent: "save", stage: "agendado", title: "Pré-operatório", active: "on", items: "Orientar jejum\n\n  Confirmar internação  \n" });
    expect(statusOf(saved)).toBe(302);
    expect(listChecklists().find((c) => c.stage === "agendado")).toMatchObject({ title: "Pré-operatório", active: true, items: ["Orientar jejum", "Confirmar internação"] });
    expect(statusOf(await post({ intent: "save", stage: "agendado", title: " ", items: "x" }))).toBe(400);
    expect(statusOf(await post({ intent: "save", stage: "nao_existe", title: "X", items: "x" }))).toBe(400);
    expect(statusOf(await post({ intent: "save", stage: "agendado", title: "X", items: Array.from({ length: 31 }, (_, i) => `Item ${i}`).join("\n") }))).toBe(400);
    expect((await thrownResponse(post({ intent: "save", stage: "agendado", title: "X", items: "x" }, staff))).status).toBe(403);
    const data = await loader(routeArgs(getRequest("/settings/checklists", { cookie: staff.cookie })));
    expect(data.canEdit).toBe(false);
    expect(data.checklists).toHaveLength(10);
    expect((await thrownResponse(loader(routeArgs(getRequest("/settings/checklists", { cookie: pending.cookie }))))).status).toBe(403);
  });
});
