import type { SessionUser } from "~/.server/auth";
import { formatDate, formatIsoDate } from "~/lib/dates";
import { draftFromUrl, parseId } from "~/lib/list-params";
import { can } from "~/lib/permissions";
import { cleanQueryText } from "~/lib/text";
import { TASK_FORM_FIELDS } from "~/validation/task";
import { patientPickerOptions, surgeryPickerOptions } from "./task-options.server";
import type { getTask } from "./task.server";

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
