import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { PIPELINE_STAGE_IDS } from "../../app/lib/pipeline";
import { bool, id, instant, timestamps } from "./columns";
import { enumCheck } from "./helpers";
import { surgeries } from "./surgery";
import { tasks } from "./tasks";

/**
 * Per pipeline stage, the clinic's checklist (issue 9; ADR 0021): when a card enters the stage,
 * its items become a task with subtasks, once per surgery and stage (`stage_checklist_runs`).
 * Default lists are inserted by migration 0018; admins edit them in Configurações → Checklists.
 */
export const stageChecklists = sqliteTable(
  "stage_checklists",
  {
    stage: text("stage", { enum: PIPELINE_STAGE_IDS }).primaryKey(),
    title: text("title").notNull(),
    active: bool("active").notNull().default(true),
    ...timestamps(),
  },
  (t) => [enumCheck("stage_checklists_stage_check", t.stage, PIPELINE_STAGE_IDS)],
);

export const stageChecklistItems = sqliteTable(
  "stage_checklist_items",
  {
    id: id(),
    stage: text("stage", { enum: PIPELINE_STAGE_IDS })
      .notNull()
      .references(() => stageChecklists.stage, { onDelete: "cascade" }),
    title: text("title").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [index("stage_checklist_items_stage_position_idx").on(t.stage, t.position)],
);

/** A checklist already turned into a task for a surgery and stage: a card re-entering the stage gets no second one. */
export const stageChecklistRuns = sqliteTable(
  "stage_checklist_runs",
  {
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "cascade" }),
    stage: text("stage", { enum: PIPELINE_STAGE_IDS }).notNull(),
    taskId: integer("task_id").references(() => tasks.id, { onDelete: "set null" }),
    createdAt: instant("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [primaryKey({ columns: [t.surgeryId, t.stage] }), index("stage_checklist_runs_task_idx").on(t.taskId)],
);
