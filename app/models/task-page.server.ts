import type { SessionUser } from "~/.server/auth";
import { type Intent, crudIntents, intent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { sentAsJson } from "~/.server/sent-as-json";
import { formatDate, formatIsoDate } from "~/lib/dates";
import { draftFromUrl, parseId } from "~/lib/list-params";
import { can } from "~/lib/permissions";
import { cleanQueryText } from "~/lib/text";
import {
  TASK_FORM_FIELDS,
  subtaskAddSchema,
  subtaskMoveSchema,
  subtaskRemoveSchema,
  subtaskRenameSchema,
  subtaskToggleSchema,
  taskSchema,
} from "~/validation/task";
import { patientPickerOptions, surgeryPickerOptions } from "./task-options.server";
import {
  addSubtask,
  completeTask,
  createTask,
  deleteTask,
  duplicateTask,
  type getTask,
  moveSubtask,
  removeSubtask,
  renameSubtask,
  toggleSubtask,
  updateTask,
} from "./task.server";

/** What the /tasks screen shows of a task beyond its columns: dates as text and where its links go. */

type TaskWithChecklist = NonNullable<ReturnType<typeof getTask>>;
type ListedTask = Omit<TaskWithChecklist, "createdAt" | "completedAt">;

/** A task as its card shows it: due date dd/MM/yyyy (SPEC §9), the surgery's label, links the user may follow. */
export function presentTask<Task extends ListedTask>(task: Task, user: SessionUser) {
  const patientHref =
    task.patientId === null
      ? null
      : can(user, "patients", "edit")
        ? `/patients?edit=${task.patientId}`
        : `/patients?q=${encodeURIComponent(task.patientName ?? "")}`;
  const surgeryHref =
    task.surgeryId === null
      ? null
      : can(user, "surgeries", "edit")
        ? `/surgeries?edit=${task.surgeryId}`
        : `/surgeries?q=${encodeURIComponent(task.surgeryType ?? "")}`;
  return {
    ...task,
    dueLabel: task.dueDate ? formatIsoDate(task.dueDate) : null,
    surgeryLabel: task.surgeryId === null ? null : `${task.surgeryType} · ${formatDate(task.surgeryDate)}`,
    patientHref,
    surgeryHref,
  };
}

/** Presented pages (`presentTasks`), per kept page of rows and per the links the viewer may follow. */
const presentedPages = new WeakMap<object, Map<string, object[]>>();

/**
 * A page's tasks as their cards show them (`presentTask`), made once per kept page (`listTasks`) and
 * per what the viewer may edit, so the cards' kept markup finds its key by the same array
 * (`cacheKeyOf`); sent as JSON made once.
 */
export function presentTasks<Task extends ListedTask>(rows: Task[], user: SessionUser): ReturnType<typeof presentTask<Task>>[] {
  const rights = `${can(user, "patients", "edit")}:${can(user, "surgeries", "edit")}`;
  let byRights = presentedPages.get(rows);
  if (!byRights) presentedPages.set(rows, (byRights = new Map()));
  let presented = byRights.get(rights) as ReturnType<typeof presentTask<Task>>[] | undefined;
  if (!presented) {
    presented = sentAsJson(rows.map((row) => presentTask(row, user)));
    byRights.set(rights, presented);
  }
  return presented;
}

type FormDefaults = Partial<Record<(typeof TASK_FORM_FIELDS)[number], string>>;

/** The create/edit dialog's defaults and picker options (the pickers search in SQL, a page of matches at a time). */
export function taskDialogData(url: URL, editing: TaskWithChecklist | null, userId: number) {
  const draft = draftFromUrl(url, TASK_FORM_FIELDS);
  const base: FormDefaults = editing
    ? {
        title: editing.title,
        description: editing.description ?? "",
        taskCategory: editing.category,
        taskPriority: editing.priority,
        taskStatus: editing.status,
        dueDate: editing.dueDate ?? "",
        patientId: editing.patientId ? String(editing.patientId) : "",
        surgeryId: editing.surgeryId ? String(editing.surgeryId) : "",
        assigneeId: editing.assigneeId ? String(editing.assigneeId) : "",
      }
    : { taskCategory: "general", taskPriority: "medium", taskStatus: "pending", assigneeId: String(userId) };
  const defaults: FormDefaults = { ...base, ...draft };
  const patientQ = cleanQueryText(url.searchParams.get("patientQ"));
  const surgeryQ = cleanQueryText(url.searchParams.get("surgeryQ"));
  return {
    defaults,
    patientQ,
    surgeryQ,
    patientOptions: patientPickerOptions(patientQ, parseId(defaults.patientId)),
    surgeryOptions: surgeryPickerOptions(surgeryQ, parseId(defaults.surgeryId)),
  };
}

/** Where a checklist change returns: the page it was made on, with its dialog, minus the rename/remove step. */
function sameScreen({ request }: { request: Request }) {
  const url = routeUrl(request);
  for (const param of ["rename", "remove", "index"]) url.searchParams.delete(param);
  return url.pathname + url.search;
}

const SUBTASK_SAVED = "Subtarefa atualizada";
const SAVE_FAILED = "Erro ao atualizar tarefa";

/** The /tasks action's intents: the CRUD three, 'duplicate', 'complete' and the checklist's changes (which return to the same screen). */
export function taskIntents(): Record<string, Intent> {
  const crud = crudIntents({
    area: "tasks",
    schema: taskSchema,
    messages: {
      created: "Tarefa criada com sucesso",
      updated: "Tarefa atualizada com sucesso",
      deleted: "Tarefa excluída com sucesso",
      saveFailed: "Erro ao criar tarefa",
      deleteFailed: "Erro ao excluir tarefa",
    },
    create: createTask,
    update: updateTask,
    remove: deleteTask,
  });
  const subtaskIntent = <Input,>(schema: Parameters<typeof intent<Input>>[0]["schema"], run: (userId: number, taskId: number, input: Input) => unknown) =>
    intent<Input>({
      permission: ["tasks", "edit"],
      schema,
      record: true,
      run: ({ user, id, input }) => run(user.id, id, input),
      success: SUBTASK_SAVED,
      failure: SAVE_FAILED,
      back: sameScreen,
    });
  return {
    ...crud,
    update: { ...crud.update, failure: SAVE_FAILED },
    duplicate: intent({
      permission: ["tasks", "create"],
      record: true,
      run: ({ user, id }) => duplicateTask(user.id, id),
      success: "Tarefa duplicada com sucesso",
      failure: "Erro ao criar tarefa",
    }),
    complete: intent({
      permission: ["tasks", "edit"],
      record: true,
      run: ({ user, id }) => completeTask(user.id, id),
      success: "Tarefa concluída",
      failure: SAVE_FAILED,
      back: sameScreen,
    }),
    "subtask-add": subtaskIntent(subtaskAddSchema, (userId, taskId, input) => addSubtask(userId, taskId, input.subtaskTitle)),
    "subtask-toggle": subtaskIntent(subtaskToggleSchema, toggleSubtask),
    "subtask-rename": subtaskIntent(subtaskRenameSchema, renameSubtask),
    "subtask-move": subtaskIntent(subtaskMoveSchema, moveSubtask),
    "subtask-remove": subtaskIntent(subtaskRemoveSchema, (userId, taskId, input) => removeSubtask(userId, taskId, input.subtaskId)),
  };
}
