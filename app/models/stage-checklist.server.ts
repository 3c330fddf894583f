import { and, asc, eq } from "drizzle-orm";
import { stageChecklistItems, stageChecklistRuns, stageChecklists, subtasks, surgeries, tasks, patients } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { type Tx, db } from "~/.server/db";
import { PIPELINE_STAGES, type PipelineStage, stageLabel } from "~/lib/pipeline";
import { buildSearchText } from "~/lib/search";
import type { ChecklistInput } from "~/validation/stage-checklist";

/**
 * The stage checklists (issue 9; ADR 0021): one per pipeline stage, edited by admins, turned into a
 * task with subtasks when a card enters the stage — once per surgery and stage, inside the move's
 * transaction.
 */

/** Every stage with its checklist (ten stages, at most 30 items each: read whole). */
export function listChecklists() {
  const templates = new Map(db.select().from(stageChecklists).all().map((row) => [row.stage, row]));
  const items = db.select().from(stageChecklistItems).orderBy(asc(stageChecklistItems.stage), asc(stageChecklistItems.position), asc(stageChecklistItems.id)).limit(1000).all();
  return PIPELINE_STAGES.map(({ id, label }) => ({
    stage: id,
    label,
    title: templates.get(id)?.title ?? "",
    active: templates.get(id)?.active ?? false,
    items: items.filter((item) => item.stage === id).map((item) => item.title),
  }));
}

/** Replaces a stage's checklist: title, active and its items in order (no items: no task on entry). */
export function saveChecklist(userId: number, input: ChecklistInput) {
  db.transaction((tx) => {
    const before = tx.select().from(stageChecklists).where(eq(stageChecklists.stage, input.stage)).get();
    const beforeItems = tx.select({ title: stageChecklistItems.title }).from(stageChecklistItems).where(eq(stageChecklistItems.stage, input.stage)).orderBy(asc(stageChecklistItems.position)).all().map((row) => row.title);
    tx.insert(stageChecklists)
      .values({ stage: input.stage, title: input.title, active: input.active })
      .onConflictDoUpdate({ target: stageChecklists.stage, set: { title: input.title, active: input.active, updatedAt: new Date() } })
      .run();
    tx.delete(stageChecklistItems).where(eq(stageChecklistItems.stage, input.stage)).run();
    if (input.items.length) tx.insert(stageChecklistItems).values(input.items.map((title, position) => ({ stage: input.stage, title, position }))).run();
    recordAudit(tx, {
      userId,
      action: before ? "update" : "create",
      entity: "stage_checklist",
      entityId: input.stage,
      changes: { title: [before?.title ?? null, input.title], active: [before?.active ?? null, input.active], items: [beforeItems, input.items] },
    });
  });
}

/**
 * Called by the move, in its transaction, once the card is in `stage`: when the stage has an active
 * checklist with items and this surgery never got it, creates the task (category surgery, linked
 * to the surgery and its patient, assigned to who moved the card, due on the ANS clock's last day
 * when one runs) with one subtask per item. Returns the task's id, or null.
 */
export function instantiateChecklist(tx: Tx, userId: number, surgeryId: number, stage: PipelineStage): number | null {
  const template = tx.select().from(stageChecklists).where(eq(stageChecklists.stage, stage)).get();
  if (!template?.active) return null;
  const items = tx.select({ title: stageChecklistItems.title }).from(stageChecklistItems).where(eq(stageChecklistItems.stage, stage)).orderBy(asc(stageChecklistItems.position), asc(stageChecklistItems.id)).all();
  if (items.length === 0) return null;
  const claimed = tx.insert(stageChecklistRuns).values({ surgeryId, stage }).onConflictDoNothing().returning({ surgeryId: stageChecklistRuns.surgeryId }).all();
  if (claimed.length === 0) return null;
  const surgery = tx
    .select({ patientId: surgeries.patientId, patientName: patients.name, surgeryType: surgeries.surgeryType, ansDueOn: surgeries.ansDueOn })
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .where(eq(surgeries.id, surgeryId))
    .get()!;
  const title = `${template.title}: ${surgery.patientName}`.slice(0, 200);
  const description = `Checklist da etapa ${stageLabel(stage)} (${surgery.surgeryType}).`;
  const task = tx
    .insert(tasks)
    .values({
      title,
      description,
      category: "surgery",
      priority: "medium",
      status: "pending",
      dueDate: surgery.ansDueOn,
      patientId: surgery.patientId,
      surgeryId,
      assigneeId: userId,
      createdBy: userId,
      searchText: buildSearchText(title, description),
    })
    .returning({ id: tasks.id })
    .get();
  tx.insert(subtasks).values(items.map((item, position) => ({ taskId: task.id, title: item.title, position }))).run();
  tx.update(stageChecklistRuns)
    .set({ taskId: task.id })
    .where(and(eq(stageChecklistRuns.surgeryId, surgeryId), eq(stageChecklistRuns.stage, stage)))
    .run();
  recordAudit(tx, { userId, action: "create", entity: "task", entityId: task.id, changes: { title, surgeryId, stage, subtasks: items.map((i) => i.title) } });
  return task.id;
}
