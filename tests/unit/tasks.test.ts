/**
 * Task management (/tasks): the stat cards and the overdue rule (São Paulo's today, whatever the
 * server's time zone), filters, the create/edit rules, duplicate and complete, the checklist kept
 * in the database, the CSV report, permissions and the query plans at tens of thousands of tasks.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { auditLog, pipelineStages, subtasks, surgeries, tasks } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { todayIsoInClinic } from "~/lib/dates";
import { parseListState } from "~/lib/list-params";
import { TASK_LIST } from "~/lib/lists";
import { buildSearchText } from "~/lib/search";
import { copyTitle, getTask, isOverdue, listTasks, subtaskProgress, taskStats, taskWhere } from "~/models/task.server";
import { loader as exportLoader } from "~/routes/export/tasks";
import { action, loader } from "~/routes/tasks";
import { taskSchema } from "~/validation/task";
import { capturePrepared } from "../support/fixtures";
import {
  type SignedIn,
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
let doctor: SignedIn;
let patientId: number;
let otherPatientId: number;
let surgeryId: number;

beforeAll(async () => {
  admin = await loginAs("admin", { name: "Ana Admin" });
  staff = await loginAs("staff", { name: "Sérgio Equipe" });
  doctor = await loginAs("doctor", { name: "Dra. Márcia" });
  patientId = insertPatient("Joana Tarefa");
  otherPatientId = insertPatient("Carlos Outro");
  const doctorId = insertDoctor("Dr. Tarefas");
  surgeryId = db
    .insert(surgeries)
    .values({ patientId, doctorId, surgeryType: "Artrodese lombar", scheduledDate: new Date("2026-08-01T11:00:00Z") })
    .returning({ id: surgeries.id })
    .get().id;
  db.insert(pipelineStages).values({ surgeryId, stage: "aguarda_docs" }).run();
});

afterEach(() => {
  vi.useRealTimers();
});

type TaskRow = typeof tasks.$inferInsert;
function insertTask(title: string, extra: Partial<TaskRow> = {}, checklist: Array<[string, boolean]> = []) {
  const id = db
    .insert(tasks)
    .values({ title, searchText: buildSearchText(title, extra.description ?? null), ...extra })
    .returning({ id: tasks.id })
    .get().id;
  checklist.forEach(([name, completed], position) => db.insert(subtasks).values({ taskId: id, title: name, completed, position }).run());
  return id;
}

/** The rows of a loader's answer. */
async function load(path: string, who: SignedIn = admin) {
  return (await loader(routeArgs(getRequest(path, { cookie: who.cookie })))) as Awaited<ReturnType<typeof loader>>;
}

async function post(fields: Record<string, string | number | null>, who: SignedIn = admin, path = "/tasks") {
  return (await action(routeArgs(formRequest(path, fields, { cookie: who.cookie })))) as unknown;
}

function subtasksOf(taskId: number) {
  return db
    .select({ id: subtasks.id, title: subtasks.title, completed: subtasks.completed })
    .from(subtasks)
    .where(eq(subtasks.taskId, taskId))
    .orderBy(subtasks.position, subtasks.id)
    .all();
}

// ------------------------------------------------------------------------------------------------ rules

describe("rules", () => {
  it("overdue: a due date before today, not completed", () => {
    expect(isOverdue({ dueDate: "2026-03-08", status: "pending" }, "2026-03-09")).toBe(true);
    expect(isOverdue({ dueDate: "2026-03-08", status: "in_progress" }, "2026-03-09")).toBe(true);
    expect(isOverdue({ dueDate: "2026-03-08", status: "completed" }, "2026-03-09")).toBe(false);
    expect(isOverdue({ dueDate: "2026-03-09", status: "pending" }, "2026-03-09")).toBe(false);
    expect(isOverdue({ dueDate: null, status: "pending" }, "2026-03-09")).toBe(false);
  });

  it("progress is the ticked share, whole percent, 0 without subtasks", () => {
    expect(subtaskProgress([])).toBe(0);
    expect(subtaskProgress([{ completed: true }, { completed: false }, { completed: false }])).toBe(33);
    expect(subtaskProgress([{ completed: true }, { completed: true }, { completed: false }])).toBe(67);
    expect(subtaskProgress([{ completed: true }])).toBe(100);
  });

  it("the form: only the title is required; 'none' and empty become null; defaults medium / general / pending", () => {
    const parsed = taskSchema.parse({ title: "  Ligar para o convênio ", patientId: "none", surgeryId: "", assigneeId: "none", dueDate: "" });
    expect(parsed).toEqual({
      title: "Ligar para o convênio",
      description: null,
      taskCategory: "general",
      taskPriority: "medium",
      taskStatus: "pending",
      dueDate: null,
      patientId: null,
      surgeryId: null,
      assigneeId: null,
    });
    expect(taskSchema.safeParse({ title: "x", dueDate: "10/03/2026" }).data?.dueDate).toBe("2026-03-10");
    const bad = taskSchema.safeParse({ title: " ", dueDate: "2026-02-30", patientId: "abc", taskPriority: "urgent" });
    expect(bad.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["title", "Informe o título da tarefa"],
      ["taskPriority", "Prioridade inválida"],
      ["dueDate", "Data de vencimento inválida"],
      ["patientId", "Paciente inválido"],
    ]);
  });

  it("a copy's title says so and still fits", () => {
    expect(copyTitle("Enviar guia")).toBe("Enviar guia (cópia)");
    const long = "a".repeat(200);
    expect(copyTitle(long)).toHaveLength(200);
    expect(copyTitle(long).endsWith(" (cópia)")).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------ stats

describe("stat cards and the overdue rule in São Paulo", () => {
  const tag = "relogio";
  beforeAll(() => {
    insertTask(`Ontem em SP ${tag}`, { dueDate: "2026-03-08", status: "pending" });
    insertTask(`Hoje em SP ${tag}`, { dueDate: "2026-03-09", status: "in_progress" });
    insertTask(`Amanhã em SP ${tag}`, { dueDate: "2026-03-10", status: "pending" });
    insertTask(`Concluída ontem ${tag}`, { dueDate: "2026-03-08", status: "completed", completedAt: new Date("2026-03-08T15:00:00Z") });
    insertTask(`Sem prazo ${tag}`, { status: "pending" });
  });

  // 2026-03-10 01:30 UTC is still 2026-03-09 22:30 in São Paulo: 'today' is the 9th there.
  for (const zone of ["UTC", "Asia/Tokyo", "America/Sao_Paulo", "Pacific/Kiritimati"]) {
    it(`counts over the filter with today in São Paulo while the server runs in ${zone}`, async () => {
      const previous = process.env.TZ;
      process.env.TZ = zone;
      try {
        vi.useFakeTimers({ toFake: ["Date"] });
        vi.setSystemTime(new Date("2026-03-10T01:30:00Z"));
        const data = await load(`/tasks?q=${tag}`);
        expect(data.stats).toEqual({ total: 5, completed: 1, completedPercent: 20, inProgress: 1, pending: 3, overdue: 1 });
        const overdue = data.rows.filter((row) => row.overdue).map((row) => row.title);
        expect(overdue).toEqual([`Ontem em SP ${tag}`]);
        // By due date ascending, tasks without one last; dates shown dd/MM/yyyy.
        expect(data.rows.map((row) => row.dueLabel)).toEqual(["08/03/2026", "08/03/2026", "09/03/2026", "10/03/2026", null]);
        const onlyOverdue = await load(`/tasks?q=${tag}&status=overdue`);
        expect(onlyOverdue.rows.map((row) => row.title)).toEqual([`Ontem em SP ${tag}`]);
        expect(onlyOverdue.stats.total).toBe(1);
      } finally {
        process.env.TZ = previous;
      }
    });
  }

  it("once São Paulo's day turns, yesterday's task is overdue too", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-10T03:30:00Z")); // 00:30 on the 10th in São Paulo
    const data = await load(`/tasks?q=${tag}`);
    expect(data.stats.overdue).toBe(2);
  });
});

describe("filters", () => {
  const tag = "filtro";
  let mineId: number;
  beforeAll(() => {
    mineId = insertTask(`Minha cirurgia alta ${tag}`, { category: "surgery", priority: "high", status: "pending", assigneeId: staff.id, dueDate: "2030-01-05" });
    insertTask(`Agenda da equipe ${tag}`, { category: "scheduling", priority: "medium", status: "in_progress", assigneeId: admin.id, dueDate: "2030-01-10" });
    insertTask(`Administrativa baixa ${tag}`, { category: "administrative", priority: "low", status: "completed", assigneeId: staff.id, dueDate: "2030-02-01" });
    insertTask(`Geral sem prazo ${tag}`, { description: "Ligar para a Unimed", assigneeId: null });
  });

  const titles = async (query: string, who: SignedIn = admin) => (await load(`/tasks?q=${tag}&${query}`, who)).rows.map((row) => row.title);

  it("by category, status, priority, assignee and due range, each in the URL", async () => {
    expect(await titles("category=surgery")).toEqual([`Minha cirurgia alta ${tag}`]);
    expect(await titles("status=in_progress")).toEqual([`Agenda da equipe ${tag}`]);
    expect(await titles("priority=low")).toEqual([`Administrativa baixa ${tag}`]);
    expect(await titles(`assignee=${admin.id}`)).toEqual([`Agenda da equipe ${tag}`]);
    expect(await titles("dueFrom=2030-01-06&dueTo=2030-01-31")).toEqual([`Agenda da equipe ${tag}`]);
    expect(await titles("dueFrom=2030-01-06")).toEqual([`Agenda da equipe ${tag}`, `Administrativa baixa ${tag}`]);
    expect(await titles("dueTo=2030-01-05")).toEqual([`Minha cirurgia alta ${tag}`]);
    // Junk falls back to no filter.
    expect(await titles("category=nope&dueFrom=2030-02-30&assignee=abc")).toHaveLength(4);
  });

  it("'Minhas tarefas' (assignee=me) is the signed-in user's tasks, and the stat cards follow", async () => {
    const data = await load(`/tasks?q=${tag}&assignee=me`, staff);
    expect(data.rows.map((row) => row.id)[0]).toBe(mineId);
    expect(data.rows).toHaveLength(2);
    expect(data.stats).toMatchObject({ total: 2, completed: 1, completedPercent: 50, pending: 1, inProgress: 0 });
  });

  it("search matches title and description, without accents", async () => {
    expect(await titles("")).toHaveLength(4);
    const data = await load(`/tasks?q=unimed ${tag}`);
    expect(data.rows.map((row) => row.title)).toEqual([`Geral sem prazo ${tag}`]);
  });

  it("stat cards equal a count of the rows themselves for every filter", () => {
    const all = db.select().from(tasks).all();
    const today = "2030-01-07";
    const cases: Array<Record<string, string>> = [
      {},
      { category: "surgery" },
      { status: "pending" },
      { status: "overdue" },
      { priority: "high" },
      { assignee: String(staff.id) },
      { dueFrom: "2030-01-01", dueTo: "2030-01-31" },
    ];
    for (const query of cases) {
      const { filters } = parseListState(new URL(`http://x/tasks?${new URLSearchParams(query)}`), TASK_LIST);
      const stats = taskStats({ q: "", filters, userId: admin.id, today });
      const matches = all.filter(
        (t) =>
          (!query.category || t.category === query.category) &&
          (!query.status || (query.status === "overdue" ? isOverdue(t, today) : t.status === query.status)) &&
          (!query.priority || t.priority === query.priority) &&
          (!query.assignee || t.assigneeId === Number(query.assignee)) &&
          (!query.dueFrom || (t.dueDate !== null && t.dueDate >= query.dueFrom)) &&
          (!query.dueTo || (t.dueDate !== null && t.dueDate <= query.dueTo)),
      );
      expect(stats, JSON.stringify(query)).toEqual({
        total: matches.length,
        completed: matches.filter((t) => t.status === "completed").length,
        completedPercent: matches.length ? Math.round((matches.filter((t) => t.status === "completed").length / matches.length) * 100) : 0,
        inProgress: matches.filter((t) => t.status === "in_progress").length,
        pending: matches.filter((t) => t.status === "pending").length,
        overdue: matches.filter((t) => isOverdue(t, today)).length,
      });
    }
  });
});

// ------------------------------------------------------------------------------------------------ writes

describe("create, edit, duplicate, complete, delete", () => {
  it("creates a task: 'none' links become null, a surgery brings its patient, the write is audited", async () => {
    const response = await post({ intent: "create", title: "Enviar guia ao convênio", taskCategory: "surgery", taskPriority: "high", taskStatus: "pending", dueDate: "", patientId: "none", surgeryId: String(surgeryId), assigneeId: String(staff.id) });
    expect(statusOf(response)).toBe(302);
    const row = db.select().from(tasks).where(eq(tasks.title, "Enviar guia ao convênio")).get()!;
    expect(row).toMatchObject({ category: "surgery", priority: "high", dueDate: null, surgeryId, patientId, assigneeId: staff.id, createdBy: admin.id, completedAt: null });
    expect(db.select().from(auditLog).where(eq(auditLog.entityId, String(row.id))).all().some((a) => a.entity === "task" && a.action === "create")).toBe(true);
  });

  it("refuses bad input with field messages and writes nothing", async () => {
    const before = db.select().from(tasks).all().length;
    const blank = (await post({ intent: "create", title: "" })) as { init: { status: number }; data: { toast: { message: string }; result: { error: Record<string, string[]> } } };
    expect(statusOf(blank)).toBe(400);
    expect(blank.data.toast.message).toBe("Erro ao criar tarefa");
    expect(blank.data.result.error.title).toEqual(["Informe o título da tarefa"]);
    const mismatch = (await post({ intent: "create", title: "Cirurgia de outro", patientId: String(otherPatientId), surgeryId: String(surgeryId) })) as { data: { result: { error: Record<string, string[]> } } };
    expect(statusOf(mismatch)).toBe(400);
    expect(mismatch.data.result.error.surgeryId[0]).toMatch(/outro paciente/);
    const ghost = (await post({ intent: "create", title: "Fantasma", patientId: "999999" })) as { data: { result: { error: Record<string, string[]> } } };
    expect(ghost.data.result.error.patientId[0]).toMatch(/Paciente não encontrado/);
    const pendingUser = await loginAs(null);
    const noRole = (await post({ intent: "create", title: "Sem papel", assigneeId: String(pendingUser.id) })) as { data: { result: { error: Record<string, string[]> } } };
    expect(noRole.data.result.error.assigneeId[0]).toMatch(/Responsável não encontrado/);
    expect(db.select().from(tasks).all().length).toBe(before);
  });

  it("edits: completing stamps completed_at, reopening clears it; a failed update says 'Erro ao atualizar tarefa'", async () => {
    const id = insertTask("Editar-me", { dueDate: "2026-05-01" });
    const base = { intent: "update", id: String(id), title: "Editada", taskCategory: "general", taskPriority: "low", dueDate: "2026-05-02" };
    expect(statusOf(await post({ ...base, taskStatus: "completed" }, doctor))).toBe(302);
    const done = db.select().from(tasks).where(eq(tasks.id, id)).get()!;
    expect(done).toMatchObject({ title: "Editada", status: "completed", priority: "low", dueDate: "2026-05-02" });
    expect(done.completedAt).toBeInstanceOf(Date);
    expect(statusOf(await post({ ...base, taskStatus: "in_progress" }))).toBe(302);
    expect(db.select().from(tasks).where(eq(tasks.id, id)).get()!.completedAt).toBeNull();
    const failed = (await post({ ...base, title: "" })) as { data: { toast: { message: string } } };
    expect(failed.data.toast.message).toBe("Erro ao atualizar tarefa");
    expect(statusOf(await post({ ...base, id: "987654", taskStatus: "pending" }))).toBe(400);
  });

  it("duplicates a task with its subtasks, all unticked, as a new pending task", async () => {
    const id = insertTask("Checklist pré-operatório", { status: "completed", priority: "high", patientId }, [["Exames", true], ["Termo", true], ["Carteirinha", false]]);
    expect(statusOf(await post({ intent: "duplicate", id: String(id) }, staff))).toBe(302);
    const copy = db.select().from(tasks).where(eq(tasks.title, "Checklist pré-operatório (cópia)")).get()!;
    expect(copy).toMatchObject({ status: "pending", priority: "high", patientId, completedAt: null, createdBy: staff.id });
    expect(subtasksOf(copy.id)).toEqual([
      expect.objectContaining({ title: "Exames", completed: false }),
      expect.objectContaining({ title: "Termo", completed: false }),
      expect.objectContaining({ title: "Carteirinha", completed: false }),
    ]);
    expect(subtasksOf(id).map((s) => s.completed)).toEqual([true, true, false]);
  });

  it("marks complete once; the card hides the action for a completed task and the server refuses it", async () => {
    const id = insertTask("Concluir-me");
    expect(statusOf(await post({ intent: "complete", id: String(id) }))).toBe(302);
    expect(db.select().from(tasks).where(eq(tasks.id, id)).get()).toMatchObject({ status: "completed" });
    const again = (await post({ intent: "complete", id: String(id) })) as { data: { toast: { message: string } } };
    expect(statusOf(again)).toBe(400);
    expect(again.data.toast.message).toBe("Esta tarefa já está concluída.");
  });

  it("deletes a task with its subtasks; an unknown id is a 404 on the dialog", async () => {
    const id = insertTask("Excluir-me", {}, [["Um", false]]);
    expect((await load(`/tasks?delete=${id}`)).deleting?.title).toBe("Excluir-me");
    expect(statusOf(await post({ intent: "delete", id: String(id) }, doctor))).toBe(302);
    expect(db.select().from(tasks).where(eq(tasks.id, id)).get()).toBeUndefined();
    expect(subtasksOf(id)).toEqual([]);
    expect((await thrownResponse(load("/tasks?delete=99999"))).status).toBe(404);
    expect((await thrownResponse(load("/tasks?view=abc"))).status).toBe(404);
  });
});

// ------------------------------------------------------------------------------------------------ subtasks

describe("subtasks in the database", () => {
  it("added, ticked, renamed, reordered and removed; each kept across reloads", async () => {
    const id = insertTask("Preparar cirurgia");
    const at = `/tasks?view=${id}`;
    for (const title of ["Exames", "Termo de consentimento", "Carteirinha"]) {
      const response = (await post({ intent: "subtask-add", id: String(id), subtaskTitle: title }, staff, at)) as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(at);
    }
    let items = subtasksOf(id);
    expect(items.map((s) => s.title)).toEqual(["Exames", "Termo de consentimento", "Carteirinha"]);

    await post({ intent: "subtask-toggle", id: String(id), subtaskId: String(items[1].id), completed: "true" }, doctor, at);
    // Posting the same state twice changes nothing (a double click).
    await post({ intent: "subtask-toggle", id: String(id), subtaskId: String(items[1].id), completed: "true" }, doctor, at);
    const renamed = (await post({ intent: "subtask-rename", id: String(id), subtaskId: String(items[0].id), subtaskTitle: "Exames pré-operatórios" }, admin, `${at}&rename=${items[0].id}`)) as Response;
    expect(renamed.headers.get("Location")).toBe(at);
    await post({ intent: "subtask-move", id: String(id), subtaskId: String(items[2].id), direction: "up" }, admin, at);
    await post({ intent: "subtask-move", id: String(id), subtaskId: String(items[2].id), direction: "up" }, admin, at);
    // Already first: nothing moves.
    await post({ intent: "subtask-move", id: String(id), subtaskId: String(items[2].id), direction: "up" }, admin, at);
    items = subtasksOf(id);
    expect(items.map((s) => [s.title, s.completed])).toEqual([
      ["Carteirinha", false],
      ["Exames pré-operatórios", false],
      ["Termo de consentimento", true],
    ]);
    const view = await load(at);
    expect(view.viewing?.progress).toBe(33);
    expect(view.viewing?.subtasks.map((s) => s.title)).toEqual(["Carteirinha", "Exames pré-operatórios", "Termo de consentimento"]);

    await post({ intent: "subtask-remove", id: String(id), subtaskId: String(items[1].id) }, admin, `${at}&remove=${items[1].id}`);
    expect(subtasksOf(id).map((s) => s.title)).toEqual(["Carteirinha", "Termo de consentimento"]);
    expect(getTask(id)?.progress).toBe(50);
  });

  it("refuses a blank name, another task's subtask and a missing task, with a message and no write", async () => {
    const id = insertTask("Dona");
    const other = insertTask("Outra", {}, [["Alheia", false]]);
    const foreign = subtasksOf(other)[0].id;
    const blank = (await post({ intent: "subtask-add", id: String(id), subtaskTitle: "   " })) as { data: { result: { error: Record<string, string[]> } } };
    expect(statusOf(blank)).toBe(400);
    expect(blank.data.result.error.subtaskTitle).toEqual(["Informe o nome da subtarefa"]);
    const stolen = (await post({ intent: "subtask-toggle", id: String(id), subtaskId: String(foreign), completed: "true" })) as { data: { toast: { message: string } } };
    expect(statusOf(stolen)).toBe(400);
    expect(stolen.data.toast.message).toMatch(/Subtarefa não encontrada/);
    expect(statusOf(await post({ intent: "subtask-add", id: "999999", subtaskTitle: "x" }))).toBe(400);
    expect(statusOf(await post({ intent: "subtask-move", id: String(other), subtaskId: String(foreign), direction: "sideways" }))).toBe(400);
    expect(subtasksOf(id)).toEqual([]);
    expect(subtasksOf(other)).toEqual([expect.objectContaining({ title: "Alheia", completed: false })]);
  });

  it("holds at most 50 subtasks per task", async () => {
    const id = insertTask("Lista longa", {}, Array.from({ length: 50 }, (_, i) => [`Item ${i}`, false] as [string, boolean]));
    const refused = (await post({ intent: "subtask-add", id: String(id), subtaskTitle: "Mais um" })) as { data: { toast: { message: string } } };
    expect(statusOf(refused)).toBe(400);
    expect(refused.data.toast.message).toMatch(/no máximo 50/);
  });
});

// ------------------------------------------------------------------------------------------------ export

describe("the 'Relatório' CSV", () => {
  it("exports the filtered tasks with Portuguese labels, dd/MM/yyyy, BOM and tarefas-{date}.csv", async () => {
    insertTask("Relatório alta cirurgia", { category: "surgery", priority: "high", status: "in_progress", dueDate: "2031-04-09" });
    insertTask("Relatório normal geral", { category: "general", priority: "medium", status: "pending" });
    insertTask("=CMD() relatório", { category: "administrative", priority: "low", status: "completed", dueDate: "2031-04-01" });
    insertTask("Fora da lista", { category: "surgery" });
    const response = (await exportLoader(routeArgs(getRequest("/tasks/export.csv?q=relatorio", { cookie: doctor.cookie })))) as Response;
    // The file is named after today in São Paulo (csvExport), whatever the server's zone.
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="tarefas-${todayIsoInClinic()}.csv"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split("\r\n");
    expect(lines).toEqual([
      "Título;Categoria;Status;Prioridade;Vencimento",
      `'=CMD() relatório;Administrativo;Concluída;Baixa;01/04/2031`,
      "Relatório alta cirurgia;Cirurgia;Em andamento;Alta;09/04/2031",
      "Relatório normal geral;Geral;Pendente;Normal;",
      "",
    ]);
    const filtered = (await exportLoader(routeArgs(getRequest("/tasks/export.csv?q=relatorio&category=surgery", { cookie: staff.cookie })))) as Response;
    expect((await filtered.text()).split("\r\n").slice(1, -1)).toEqual(["Relatório alta cirurgia;Cirurgia;Em andamento;Alta;09/04/2031"]);
  });
});

// ------------------------------------------------------------------------------------------------ permissions

describe("permissions (SPEC §6: any signed-in user with a role has full access)", () => {
  it("every role opens the list, the dialogs and the export; an account without a role gets 403; no session goes to /auth", async () => {
    const id = insertTask("Permissões");
    for (const who of [admin, staff, doctor]) {
      const data = await load(`/tasks?edit=${id}`, who);
      expect(data.permissions).toEqual({ create: true, edit: true, delete: true });
      expect(data.canExport).toBe(true);
      expect(data.editing?.id).toBe(id);
    }
    const pending = await loginAs(null);
    expect((await thrownResponse(load("/tasks", pending))).status).toBe(403);
    expect((await thrownResponse(action(routeArgs(formRequest("/tasks", { intent: "create", title: "x" }, { cookie: pending.cookie })))))).toMatchObject({ status: 403 });
    expect((await thrownResponse(exportLoader(routeArgs(getRequest("/tasks/export.csv", { cookie: pending.cookie })))))).toMatchObject({ status: 403 });
    const anonymous = await thrownResponse(loader(routeArgs(getRequest("/tasks"))));
    expect(anonymous.headers.get("Location")).toBe("/auth?redirectTo=%2Ftasks");
  });
});

// ------------------------------------------------------------------------------------------------ scale

describe("a page kept between writes", () => {
  const today = "2031-03-03";
  const view = () => {
    const state = parseListState(new URL("http://x/tasks?q=guardada"), TASK_LIST);
    return listTasks(state, { q: state.q, filters: state.filters, userId: admin.id, today });
  };

  it("is read again only when a task, a checklist or a name it shows is written", () => {
    const id = insertTask("Tarefa guardada", { patientId, surgeryId, assigneeId: staff.id, dueDate: "2031-03-10" }, [["Primeiro passo", false]]);
    const first = view();
    expect(first.rows.map((row) => row.title)).toEqual(["Tarefa guardada"]);
    // Viewed again, or after a write elsewhere (a doctor): the same page, not read again.
    expect(view()).toBe(first);
    insertDoctor("Dr. Outra Escrita");
    expect(view()).toBe(first);

    const changed = (write: () => void) => {
      const before = view();
      write();
      const after = view();
      expect(after).not.toBe(before);
      return after.rows[0];
    };
    expect(changed(() => db.update(tasks).set({ status: "in_progress" }).where(eq(tasks.id, id)).run()).status).toBe("in_progress");
    expect(changed(() => db.update(subtasks).set({ completed: true }).where(eq(subtasks.taskId, id)).run()).progress).toBe(100);
    expect(changed(() => sqlite.prepare("update patients set name = 'Joana Renomeada' where id = ?").run(patientId)).patientName).toBe("Joana Renomeada");
    expect(changed(() => sqlite.prepare("update surgeries set surgery_type = 'Microdiscectomia' where id = ?").run(surgeryId)).surgeryType).toBe("Microdiscectomia");
    expect(changed(() => sqlite.prepare("update profiles set name = 'Sérgio Renomeado' where id = ?").run(staff.id)).assigneeName).toBe("Sérgio Renomeado");
    // A new task: the stat cards count it.
    const total = view().stats.total;
    insertTask("Outra tarefa guardada");
    expect(view().stats.total).toBe(total + 1);
    sqlite.prepare("update patients set name = 'Joana Tarefa' where id = ?").run(patientId);
    sqlite.prepare("update surgeries set surgery_type = 'Artrodese lombar' where id = ?").run(surgeryId);
    sqlite.prepare("update profiles set name = 'Sérgio Equipe' where id = ?").run(staff.id);
  });

  it("counts its stat cards once per search and filters: other orders and checklist ticks share them, a task written counts again", () => {
    const id = insertTask("Tarefa guardada nos cartões", { assigneeId: staff.id, dueDate: "2031-03-12" }, [["Passo", false]]);
    onTestFinished(() => void db.delete(tasks).where(eq(tasks.id, id)).run());
    const read = (query: string, userId = admin.id) => {
      const state = parseListState(new URL(`http://x/tasks?${query}`), TASK_LIST);
      return listTasks(state, { q: state.q, filters: state.filters, userId, today });
    };
    const first = read("q=guardada");
    // Another order of the same search is another page, with the same counts.
    const reversed = read("q=guardada&dir=desc");
    expect(reversed).not.toBe(first);
    expect(reversed.stats).toBe(first.stats);
    // A tick is a write to the checklists: the page is read again, its counts are not.
    db.update(subtasks).set({ completed: true }).where(eq(subtasks.taskId, id)).run();
    const ticked = read("q=guardada");
    expect(ticked).not.toBe(first);
    expect(ticked.rows.find((row) => row.id === id)?.progress).toBe(100);
    expect(ticked.stats).toBe(first.stats);
    // A task written: counted again, and right.
    db.update(tasks).set({ status: "completed" }).where(eq(tasks.id, id)).run();
    const completed = read("q=guardada");
    expect(completed.stats).not.toBe(first.stats);
    expect(completed.stats.completed).toBe(first.stats.completed + 1);
    expect(completed.stats).toEqual(taskStats({ q: "guardada", filters: parseListState(new URL("http://x/tasks"), TASK_LIST).filters, userId: admin.id, today }));
    // 'Minhas tarefas' are counted per viewer.
    expect(read("q=guardada&assignee=me", staff.id).stats.total).toBeGreaterThan(0);
    expect(read("q=guardada&assignee=me", admin.id).stats.total).toBe(0);
  });

  it("is the viewer's own only for 'Minhas tarefas', and the loader hands out the same cards to the same rights", async () => {
    const state = parseListState(new URL("http://x/tasks?q=guardada"), TASK_LIST);
    expect(listTasks(state, { q: state.q, filters: state.filters, userId: staff.id, today })).toBe(view());
    const mine = parseListState(new URL("http://x/tasks?q=guardada&assignee=me"), TASK_LIST);
    expect(listTasks(mine, { q: mine.q, filters: mine.filters, userId: staff.id, today }).rows).toHaveLength(1);
    expect(listTasks(mine, { q: mine.q, filters: mine.filters, userId: admin.id, today }).rows).toHaveLength(0);
    // The loader's cards: the same array while the page is kept, for users with the same rights.
    const first = (await load("/tasks?q=guardada")).rows;
    expect((await load("/tasks?q=guardada")).rows).toBe(first);
  });
});

describe("at tens of thousands of tasks", () => {
  beforeAll(() => {
    // Tens of thousands of tasks: the size the indexes are for.
    const insert = sqlite.prepare(
      "insert into tasks (title, search_text, status, priority, category, due_date, assignee_id) values (?, ?, ?, ?, ?, ?, ?)",
    );
    const statuses = ["pending", "in_progress", "completed"];
    const priorities = ["low", "medium", "high"];
    const categories = ["surgery", "administrative", "scheduling", "general"];
    sqlite.transaction(() => {
      for (let i = 0; i < 30_000; i += 1) {
        const day = i % 3 === 0 ? null : `2025-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`;
        insert.run(`Tarefa em massa ${i}`, ` tarefa em massa ${i} `, statuses[i % 3], priorities[i % 3], categories[i % 4], day, [admin.id, staff.id, doctor.id][i % 3]);
      }
    })();
    sqlite.exec("analyze");
  }, 60_000);

  /** The plan of every statement on tasks `run` prepares (`pages`: only those with a limit, the page queries). */
  function plans(run: () => void, { pages = false } = {}): string[] {
    return capturePrepared(run)
      .filter((statement) => /from "tasks"/.test(statement) && (!pages || /limit \?/.test(statement)))
      .map((statement) => {
        const params = (statement.match(/\?/g) ?? []).map(() => "2025-06-01");
        return (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      });
  }

  const criteriaFor = (query: string) => {
    const state = parseListState(new URL(`http://x/tasks?${query}`), TASK_LIST);
    return { state, criteria: { q: state.q, filters: state.filters, userId: staff.id, today: "2025-06-15" } };
  };

  it("the stat cards count through a covering index, without a temporary B-tree", () => {
    for (const query of ["", "assignee=me", "category=surgery", "priority=high", "status=pending", "status=overdue"]) {
      const [plan] = plans(() => taskStats(criteriaFor(query).criteria));
      expect(plan, `${query}: ${plan}`).toMatch(/USING COVERING INDEX tasks_/);
      expect(plan, `${query}: ${plan}`).not.toMatch(/TEMP B-TREE/);
    }
    // A search alone tests every task's key in the key index, not in the table's rows; with a
    // filter, the filter's index narrows the tasks first.
    const [search] = plans(() => taskStats(criteriaFor("q=massa").criteria));
    expect(search).toMatch(/USING COVERING INDEX tasks_search_status_due_idx/);
    for (const query of ["q=massa", "q=massa&status=pending", "q=massa&category=surgery"]) {
      const [plan] = plans(() => taskStats(criteriaFor(query).criteria));
      expect(plan, `${query}: ${plan}`).not.toMatch(/TEMP B-TREE|SCAN tasks$/);
    }
  });

  it("a page walks the due-date order's index whatever the filters: no sort of the matches", () => {
    for (const query of ["", "assignee=me", "category=surgery&priority=high", "status=overdue", "dueFrom=2025-03-01&dueTo=2025-04-01", "dir=desc"]) {
      const { state, criteria } = criteriaFor(query);
      const statements = plans(() => listTasks(state, criteria), { pages: true });
      expect(statements.length, query).toBeGreaterThan(0);
      for (const plan of statements) {
        expect(plan, `${query}: ${plan}`).toMatch(/tasks USING INDEX tasks_due_sort_idx/);
        expect(plan, `${query}: ${plan}`).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
    }
  });

  it("pages by cursor match the numbered pages, and a screen costs milliseconds", () => {
    const { state, criteria } = criteriaFor("category=general");
    const first = listTasks(state, criteria);
    const second = listTasks({ ...state, page: 2, after: JSON.parse(first.next!) }, criteria);
    const numbered = listTasks({ ...state, page: 2 }, criteria);
    expect(second.rows.map((r) => r.id)).toEqual(numbered.rows.map((r) => r.id));
    expect(first.stats.total).toBe(db.select().from(tasks).where(taskWhere(criteria)).all().length);
    // The list's total is the stat cards' own, and the last page (read from the far end) holds the rest.
    expect(first).toMatchObject({ total: first.stats.total, totalCapped: false });
    const lastPage = Math.ceil(first.total / first.pageSize);
    expect(lastPage).toBeGreaterThan(2);
    const last = listTasks({ ...state, page: lastPage }, criteria);
    expect(last.rows).toHaveLength(first.total - (lastPage - 1) * first.pageSize);
    expect(last.next).toBeNull();

    const unfiltered = criteriaFor("");
    // Each view the first after a write to the tasks (a title set to itself): the page is read afresh.
    const touch = sqlite.prepare("update tasks set title = title where id = (select min(id) from tasks)");
    const started = performance.now();
    for (let i = 0; i < 10; i += 1) {
      touch.run();
      listTasks(unfiltered.state, unfiltered.criteria);
    }
    const perScreen = (performance.now() - started) / 10;
    const count = db.select().from(tasks).all().length;
    console.info(`tasks: one unfiltered /tasks page with its stat cards over ${count} tasks, after a write: ${perScreen.toFixed(1)} ms`);
    // A loose ceiling (the machine may be busy): about 20–40 ms when idle.
    expect(perScreen).toBeLessThan(1_000);
  }, 60_000);
});
