import { z } from "zod";
import { TASK_CATEGORIES, TASK_PRIORITIES, TASK_STATUSES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { optionalIsoDate, optionalText, requiredText } from "./common";

export const TASK_MESSAGES = {
  title: "Informe o título da tarefa",
  category: "Categoria inválida",
  priority: "Prioridade inválida",
  status: "Status inválido",
  patient: "Paciente inválido",
  surgery: "Cirurgia inválida",
  assignee: "Responsável inválido",
  dueDate: "Data de vencimento inválida",
  subtaskTitle: "Informe o nome da subtarefa",
  subtask: "Subtarefa inválida",
  direction: "Direção inválida",
} as const;

/** Longest task title and subtask name. */
export const TASK_TITLE_MAX = 200;
/** Most subtasks one task holds (a checklist, not a project plan). */
export const MAX_SUBTASKS = 50;
/** The selectors' 'no choice' value (SPEC §5: 'none' becomes null, as does an empty value). */
export const NONE = "none";

function fail(ctx: z.RefinementCtx, message: string, input: unknown): never {
  ctx.issues.push({ code: "custom", message, input });
  return z.NEVER;
}

/** An optional link to a row: an id, or empty / 'none' → null; anything else reports `message`. */
function optionalId(message: string) {
  return z
    .string({ error: message })
    .nullish()
    .transform((value, ctx) => {
      const text = value?.trim() ?? "";
      if (text === "" || text === NONE) return null;
      return parseId(text) ?? fail(ctx, message, value);
    });
}

/**
 * The create/edit dialog (SPEC §3, §5). Only the title is required. Category, priority and status
 * are posted as `taskCategory`, `taskPriority` and `taskStatus` so that the no-JavaScript picker
 * search, which resubmits the form as a GET, does not collide with the list's filters.
 */
export const taskSchema = z.object({
  title: requiredText(TASK_MESSAGES.title, TASK_TITLE_MAX),
  description: optionalText(5000, { multiline: true }),
  taskCategory: z.enum(TASK_CATEGORIES, { error: TASK_MESSAGES.category }).default("general"),
  taskPriority: z.enum(TASK_PRIORITIES, { error: TASK_MESSAGES.priority }).default("medium"),
  taskStatus: z.enum(TASK_STATUSES, { error: TASK_MESSAGES.status }).default("pending"),
  dueDate: optionalIsoDate({ invalid: TASK_MESSAGES.dueDate }),
  patientId: optionalId(TASK_MESSAGES.patient),
  surgeryId: optionalId(TASK_MESSAGES.surgery),
  assigneeId: optionalId(TASK_MESSAGES.assignee),
});

export type TaskInput = z.infer<typeof taskSchema>;

/** The dialog's field names, e.g. to refill them from a picker's GET round trip. */
export const TASK_FORM_FIELDS = [
  "title",
  "description",
  "taskCategory",
  "taskPriority",
  "taskStatus",
  "dueDate",
  "patientId",
  "surgeryId",
  "assigneeId",
] as const;

// ---------------------------------------------------------------------------- subtasks

/** A subtask's name: required, one line. */
const subtaskTitle = requiredText(TASK_MESSAGES.subtaskTitle, TASK_TITLE_MAX);

/** A posted subtask id (its form's hidden `subtaskId`). */
const subtaskId = z
  .string({ error: TASK_MESSAGES.subtask })
  .nullish()
  .transform((value, ctx) => parseId(value) ?? fail(ctx, TASK_MESSAGES.subtask, value));

/** 'Adicionar subtarefa' (the task is the form's `id`). */
export const subtaskAddSchema = z.object({ subtaskTitle });
/** Tick or untick: `completed` is the state asked for ('true' / 'false'), so a double submit is harmless. */
export const subtaskToggleSchema = z.object({
  subtaskId,
  completed: z.enum(["true", "false"], { error: TASK_MESSAGES.subtask }).transform((value) => value === "true"),
});
export const subtaskRenameSchema = z.object({ subtaskId, subtaskTitle });
export const subtaskMoveSchema = z.object({ subtaskId, direction: z.enum(["up", "down"], { error: TASK_MESSAGES.direction }) });
export const subtaskRemoveSchema = z.object({ subtaskId });

export type SubtaskToggleInput = z.infer<typeof subtaskToggleSchema>;
export type SubtaskRenameInput = z.infer<typeof subtaskRenameSchema>;
export type SubtaskMoveInput = z.infer<typeof subtaskMoveSchema>;
