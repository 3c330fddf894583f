import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { TASK_CATEGORIES, TASK_PRIORITIES, TASK_STATUSES } from "../../app/lib/enums";
import { users } from "./auth";
import { patients } from "./clinical";
import { bool, id, instant, timestamps } from "./columns";
import { enumCheck, isoDateCheck, searchText } from "./helpers";
import { surgeries } from "./surgery";

/** SPEC §3 tasks. Linked patient/surgery are optional and cleared when those rows go. */
export const tasks = sqliteTable(
  "tasks",
  {
    id: id(),
    title: text("title").notNull(),
    description: text("description"),
    priority: text("priority", { enum: TASK_PRIORITIES }).notNull().default("medium"),
    status: text("status", { enum: TASK_STATUSES }).notNull().default("pending"),
    category: text("category", { enum: TASK_CATEGORIES }).notNull().default("general"),
    /** ISO YYYY-MM-DD. */
    dueDate: text("due_date"),
    /** The list's order key: the due date, or '9999-12-31' for none (no-date tasks last; keyset cursors need a value). */
    dueSort: text("due_sort").generatedAlwaysAs(sql`coalesce(due_date, '9999-12-31')`, { mode: "virtual" }),
    patientId: integer("patient_id").references(() => patients.id, { onDelete: "set null" }),
    surgeryId: integer("surgery_id").references(() => surgeries.id, { onDelete: "set null" }),
    assigneeId: integer("assignee_id").references(() => users.id, { onDelete: "set null" }),
    completedAt: instant("completed_at"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("tasks_priority_check", t.priority, TASK_PRIORITIES),
    enumCheck("tasks_status_check", t.status, TASK_STATUSES),
    enumCheck("tasks_category_check", t.category, TASK_CATEGORIES),
    isoDateCheck("tasks_due_date_check", t.dueDate),
    check("tasks_title_check", sql`length(trim(${t.title})) > 0`),
    index("tasks_due_date_idx").on(t.dueDate),
    // The page walks this index in order; the stat cards count through the covering ones below,
    // one per filter, grouped by status with the due date at hand for 'Atrasadas'.
    index("tasks_due_sort_idx").on(t.dueSort),
    index("tasks_status_due_idx").on(t.status, t.dueDate),
    index("tasks_priority_status_due_idx").on(t.priority, t.status, t.dueDate),
    index("tasks_category_status_due_idx").on(t.category, t.status, t.dueDate),
    index("tasks_assignee_status_due_idx").on(t.assigneeId, t.status, t.dueDate),
    // The stat cards of a search: a LIKE over every task's key, read from this index (no table rows).
    index("tasks_search_status_due_idx").on(t.searchText, t.status, t.dueDate),
    index("tasks_patient_idx").on(t.patientId),
    // A patient's record lists their tasks newest first.
    index("tasks_patient_created_idx").on(t.patientId, t.createdAt),
    index("tasks_surgery_idx").on(t.surgeryId),
  ],
);

/** Checklist items of a task, in `position` order. */
export const subtasks = sqliteTable(
  "subtasks",
  {
    id: id(),
    taskId: integer("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    completed: bool("completed").notNull().default(false),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("subtasks_task_position_idx").on(t.taskId, t.position)],
);
