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
    index("tasks_status_due_idx").on(t.status, t.dueDate),
    index("tasks_priority_idx").on(t.priority),
    index("tasks_category_idx").on(t.category),
    index("tasks_patient_idx").on(t.patientId),
    index("tasks_surgery_idx").on(t.surgeryId),
    index("tasks_assignee_idx").on(t.assigneeId),
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
