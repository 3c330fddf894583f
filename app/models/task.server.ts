import { type SQL, and, asc, desc, eq, inArray, max, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { patients, profiles, subtasks, surgeries, tasks, userRoles, users } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { type DB, type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { type KeysetOrder, keysetList, pageUntilWrite } from "~/.server/pagination";
import { type VersionedTable, cachedUntilWrite, tablesWriteCache } from "~/.server/data-cache";
import { optionsOf } from "./filter-options.server";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import { isForeignKeyViolation } from "~/.server/sql-errors";
import { todayIsoInClinic } from "~/lib/dates";
import type { TaskStatus } from "~/lib/enums";
import type { ListParams } from "~/lib/list-params";
import type { TaskFilters, TaskSort } from "~/lib/lists";
import { buildSearchText } from "~/lib/search";
import {
  MAX_SUBTASKS,
  type SubtaskMoveInput,
  type SubtaskRenameInput,
  type SubtaskToggleInput,
  TASK_TITLE_MAX,
  type TaskInput,
} from "~/validation/task";

export { TASK_LIST, TASK_SORTS } from "~/lib/lists";

/** A rule of the domain the user can fix (unknown patient, surgery of another patient …). */
export class TaskError extends DomainError<keyof TaskInput & string> {}

/** Most users the assignee select offers. */
const ASSIGNEE_OPTIONS_LIMIT = 500;

// ---------------------------------------------------------------------------- rules

/**
 * SPEC §4: overdue when the task has a due date, is not completed and the date is before today in
 * São Paulo (whatever the server's time zone: `today` comes from todayIsoInClinic).
 */
export function isOverdue(task: { dueDate: string | null; status: string }, today: string = todayIsoInClinic()): boolean {
  return task.dueDate !== null && task.status !== "completed" && task.dueDate < today;
}

/** SPEC §9: the ticked share of a checklist as a whole percentage, clamped to 0–100 (0 without subtasks). */
export function subtaskProgress(items: ReadonlyArray<{ completed: boolean }>): number {
  if (items.length === 0) return 0;
  const done = items.filter((item) => item.completed).length;
  return Math.min(100, Math.max(0, Math.round((done / items.length) * 100)));
}

// ---------------------------------------------------------------------------- list

/** What a list, its stat cards and its export select by: search, filters, who 'me' is, and today. */
export interface TaskCriteria {
  q: string;
  filters: TaskFilters;
  /** The signed-in user, for `assignee=me` ('Minhas tarefas'). */
  userId: number;
  /** Today in São Paulo, 'YYYY-MM-DD'. */
  today: string;
}

/**
 * The criteria as SQL. `inOrder` writes them for the page query, which walks the order's index
 * (`tasks_due_sort_idx`) until a page is full: the filters' own indexes are disabled with a unary
 * plus and the due-date conditions are put on the order key, so no filter makes SQLite sort its
 * matches. The stat cards use the plain form, which counts through the covering indexes.
 */
export function taskWhere({ q, filters, userId, today }: TaskCriteria, { inOrder = false } = {}): SQL | undefined {
  const col = (column: AnySQLiteColumn) => (inOrder ? sql`+${column}` : sql`${column}`);
  const assignee = filters.assignee === "me" ? userId : filters.assignee;
  const status = filters.status;
  return and(
    matchAllWords(q, (word) => likeWord(tasks.searchText, word)),
    status === "overdue"
      ? inOrder
        ? sql`${col(tasks.status)} <> 'completed' and ${tasks.dueSort} < ${today}`
        : sql`${tasks.status} in ('pending', 'in_progress') and ${tasks.dueDate} < ${today}`
      : status
        ? sql`${col(tasks.status)} = ${status}`
        : undefined,
    filters.category ? sql`${col(tasks.category)} = ${filters.category}` : undefined,
    filters.priority ? sql`${col(tasks.priority)} = ${filters.priority}` : undefined,
    assignee ? sql`${col(tasks.assigneeId)} = ${assignee}` : undefined,
    filters.dueFrom
      ? inOrder
        ? sql`${tasks.dueSort} >= ${filters.dueFrom} and ${tasks.dueDate} is not null`
        : sql`${tasks.dueDate} >= ${filters.dueFrom}`
      : undefined,
    filters.dueTo ? sql`${inOrder ? tasks.dueSort : tasks.dueDate} <= ${filters.dueTo}` : undefined,
  );
}

export interface TaskStats {
  total: number;
  completed: number;
  /** Completed over total, as a whole percentage (0 for no tasks). */
  completedPercent: number;
  inProgress: number;
  pending: number;
  overdue: number;
}

/**
 * The five stat cards over the list's search and filters, in one pass over an index. Without a
 * search, grouped by status in the filter's own covering index, which holds the tasks in status
 * order. With one, summed by status in a single row: every task's key is tested in the key index
 * (`tasks_search_status_due_idx`, not the table's rows: 20 -> 6 ms on 60 000 tasks), where grouping
 * would sort every match first (or SQLite would read the rows in status order instead).
 */
export function taskStats(criteria: TaskCriteria, conn: DB | Tx = db): TaskStats {
  const where = taskWhere(criteria);
  const stats = { total: 0, completed: 0, completedPercent: 0, inProgress: 0, pending: 0, overdue: 0 };
  if (criteria.q.trim()) {
    const row = conn
      .select({
        total: sql<number>`count(*)`,
        completed: sql<number | null>`sum(${tasks.status} = 'completed')`,
        inProgress: sql<number | null>`sum(${tasks.status} = 'in_progress')`,
        overdue: sql<number | null>`sum(${tasks.status} <> 'completed' and ${tasks.dueDate} < ${criteria.today})`,
      })
      .from(tasks)
      .where(where)
      .get();
    stats.total = row?.total ?? 0;
    stats.completed = row?.completed ?? 0;
    stats.inProgress = row?.inProgress ?? 0;
    stats.pending = stats.total - stats.completed - stats.inProgress;
    stats.overdue = row?.overdue ?? 0;
  } else {
    const rows = conn
      .select({ status: tasks.status, n: sql<number>`count(*)`, overdue: sql<number | null>`sum(${tasks.dueDate} < ${criteria.today})` })
      .from(tasks)
      .where(where)
      .groupBy(tasks.status)
      .all();
    for (const row of rows) {
      stats.total += row.n;
      if (row.status === "completed") stats.completed = row.n;
      else {
        if (row.status === "in_progress") stats.inProgress = row.n;
        else stats.pending = row.n;
        stats.overdue += row.overdue ?? 0;
      }
    }
  }
  stats.completedPercent = stats.total ? Math.round((stats.completed / stats.total) * 100) : 0;
  return stats;
}

const TASK_ROW = {
  id: tasks.id,
  title: tasks.title,
  description: tasks.description,
  category: tasks.category,
  priority: tasks.priority,
  status: tasks.status,
  dueDate: tasks.dueDate,
  patientId: tasks.patientId,
  patientName: patients.name,
  surgeryId: tasks.surgeryId,
  surgeryType: surgeries.surgeryType,
  surgeryDate: surgeries.scheduledDate,
  assigneeId: tasks.assigneeId,
  assigneeName: profiles.name,
};

/** The subtasks of some tasks, each task's in checklist order. */
export function listSubtasks(taskIds: number[], conn: DB | Tx = db) {
  if (taskIds.length === 0) return [];
  return conn
    .select({ id: subtasks.id, taskId: subtasks.taskId, title: subtasks.title, completed: subtasks.completed })
    .from(subtasks)
    .where(inArray(subtasks.taskId, taskIds))
    .orderBy(asc(subtasks.taskId), asc(subtasks.position), asc(subtasks.id))
    .all();
}

/** Rows with their checklist, progress and overdue flag. */
function withChecklists<Row extends { id: number; dueDate: string | null; status: string }>(rows: Row[], today: string) {
  const byTask = new Map<number, Array<{ id: number; title: string; completed: boolean }>>();
  for (const { taskId, ...item } of listSubtasks(rows.map((row) => row.id))) {
    const list = byTask.get(taskId) ?? [];
    list.push(item);
    byTask.set(taskId, list);
  }
  return rows.map((row) => {
    const items = byTask.get(row.id) ?? [];
    return { ...row, subtasks: items, progress: subtaskProgress(items), overdue: isOverdue(row, today) };
  });
}

/**
 * One page of task cards (by due date, tasks without one last), with the stat cards of the same
 * criteria: kept until the tasks, their checklists or the names they show (patients, surgeries,
 * assignees) are written (`pageUntilWrite`, migration 0046). At a practice's 20 years (60 000 tasks)
 * the cards counted every task on each view (7-10 ms, 18 with a search). The viewer's id is part of
 * the key only for 'Minhas tarefas'.
 */
export function listTasks(state: ListParams<TaskSort>, criteria: TaskCriteria) {
  const shared = { ...criteria, userId: criteria.filters.assignee === "me" ? criteria.userId : null };
  return pageUntilWrite("tasks", [state, shared], () => readTasks(state, criteria), TASK_PAGE_TABLES);
}

/** What a page of tasks reads (`listTasks`). */
const TASK_PAGE_TABLES: readonly VersionedTable[] = ["tasks", "subtasks", "patients", "surgeries", "profiles"];

/**
 * The stat cards of a search and its filters (`taskStats`), kept until a task is written: they read
 * nothing else, so every page and order of the list shares them, and so does the next view after a
 * checklist is ticked (a write to the subtasks, which the page itself reads again). Counting them
 * was a third of a page's first view (6 of 19 ms on 60 000 tasks). The viewer's id is part of the
 * key only for 'Minhas tarefas', as in `listTasks`.
 */
function keptTaskStats(criteria: TaskCriteria): TaskStats {
  const key = JSON.stringify([criteria.q, criteria.filters, criteria.filters.assignee === "me" ? criteria.userId : null, criteria.today]);
  return statsUntilTasksChange(["tasks"], key, () => taskStats(criteria));
}
const statsUntilTasksChange = tablesWriteCache(64);

function readTasks(state: ListParams<TaskSort>, criteria: TaskCriteria) {
  const stats = keptTaskStats(criteria);
  const where = taskWhere(criteria, { inOrder: true });
  const order: KeysetOrder = { key: tasks.dueSort, id: tasks.id, dir: state.dir };
  // The total is the stat cards' (kept until a task is written), never counted again here; a typed
  // page finds the task before it in the due-date index, without the joins (keysetList's locateIn).
  const page = keysetList(
    tasks,
    where,
    state,
    order,
    (matching, orderBy, limit, offset) =>
      db
        .select({ ...TASK_ROW, cursorKey: tasks.dueSort })
        .from(tasks)
        .leftJoin(patients, eq(patients.id, tasks.patientId))
        .leftJoin(surgeries, eq(surgeries.id, tasks.surgeryId))
        .leftJoin(profiles, eq(profiles.id, tasks.assigneeId))
        .where(matching)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
    { total: stats.total, totalCapped: false },
  );
  return { ...page, rows: withChecklists(page.rows, criteria.today), stats };
}

const TASK_EXPORT_FIELDS = {
  title: tasks.title,
  category: tasks.category,
  status: tasks.status,
  priority: tasks.priority,
  dueDate: tasks.dueDate,
};

/** Every task the list's search and filters match, in the list's order (not paged: streamed). */
export function taskExport(dir: "asc" | "desc", criteria: TaskCriteria) {
  const direction = dir === "asc" ? asc : desc;
  const query = db
    .select(TASK_EXPORT_FIELDS)
    .from(tasks)
    .where(taskWhere(criteria, { inOrder: true }))
    .orderBy(direction(tasks.dueSort), direction(tasks.id));
  return { fields: TASK_EXPORT_FIELDS, query };
}

/** One task with the names its dialogs show, and its checklist. */
export function getTask(id: number, today: string = todayIsoInClinic()) {
  const row = db
    .select({ ...TASK_ROW, createdAt: tasks.createdAt, completedAt: tasks.completedAt })
    .from(tasks)
    .leftJoin(patients, eq(patients.id, tasks.patientId))
    .leftJoin(surgeries, eq(surgeries.id, tasks.surgeryId))
    .leftJoin(profiles, eq(profiles.id, tasks.assigneeId))
    .where(eq(tasks.id, id))
    .get();
  return row ? withChecklists([row], today)[0] : null;
}

/**
 * Users with a role, by name, for the assignee select and filter (plus `includeId`, the task's own):
 * read once until the next write (`cachedUntilWrite`), the options made once per read (`optionsOf`),
 * so the filter bar's kept markup knows them by identity.
 */
export function listAssigneeOptions(includeId?: number | null) {
  const { all, withRole } = cachedUntilWrite("task-assignees", readAssignees);
  const own = includeId == null || withRole.some((row) => row.id === includeId) ? null : all.find((row) => row.id === includeId);
  return own ? all.filter((row) => row.role !== null || row.id === includeId).map(assigneeOption) : optionsOf(withRole, assigneeOption);
}

function readAssignees() {
  const all = db
    .select({ id: users.id, name: profiles.name, email: users.email, role: userRoles.role })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .orderBy(sql`coalesce(${profiles.name}, ${users.email}) collate nocase`, asc(users.id))
    .limit(ASSIGNEE_OPTIONS_LIMIT)
    .all();
  return { all, withRole: all.filter((row) => row.role !== null) };
}

const assigneeOption = (row: { id: number; name: string | null; email: string }) => ({ value: String(row.id), label: row.name || row.email });

// ---------------------------------------------------------------------------- writes

/** Checks the links the form posted and turns the input into column values. */
function resolveColumns(conn: DB | Tx, input: TaskInput) {
  let patientId = input.patientId;
  if (input.surgeryId !== null) {
    const surgery = conn
      .select({ id: surgeries.id, patientId: surgeries.patientId })
      .from(surgeries)
      .where(eq(surgeries.id, input.surgeryId))
      .get();
    if (!surgery) throw new TaskError("Cirurgia não encontrada. Busque e selecione novamente.", "surgeryId");
    if (patientId !== null && patientId !== surgery.patientId) {
      throw new TaskError("Esta cirurgia é de outro paciente. Escolha a cirurgia do paciente selecionado.", "surgeryId");
    }
    // A surgery names its patient: the task is linked to both.
    patientId = surgery.patientId;
  }
  if (patientId !== null && !conn.select({ id: patients.id }).from(patients).where(eq(patients.id, patientId)).get()) {
    throw new TaskError("Paciente não encontrado. Busque e selecione novamente.", "patientId");
  }
  if (input.assigneeId !== null) {
    const assignee = conn
      .select({ id: users.id, role: userRoles.role })
      .from(users)
      .leftJoin(userRoles, eq(userRoles.userId, users.id))
      .where(eq(users.id, input.assigneeId))
      .get();
    if (!assignee?.role) throw new TaskError("Responsável não encontrado. Escolha um usuário da lista.", "assigneeId");
  }
  return {
    title: input.title,
    description: input.description,
    category: input.taskCategory,
    priority: input.taskPriority,
    status: input.taskStatus,
    dueDate: input.dueDate,
    patientId,
    surgeryId: input.surgeryId,
    assigneeId: input.assigneeId,
    searchText: buildSearchText(input.title, input.description),
  };
}

/** When a task was completed: now when it becomes completed, kept while it stays so, cleared when reopened. */
function completedAtFor(status: TaskStatus, before?: { status: TaskStatus; completedAt: Date | null }) {
  if (status !== "completed") return null;
  return before?.status === "completed" ? before.completedAt : new Date();
}

function rethrowForeignKey(error: unknown): never {
  // A patient, surgery or user deleted between the check and the write.
  if (isForeignKeyViolation(error)) {
    throw new TaskError("Um dos registros escolhidos (paciente, cirurgia ou responsável) acabou de ser excluído. Revise e salve novamente.");
  }
  throw error;
}

function loadTask(conn: DB | Tx, id: number) {
  const task = conn.select().from(tasks).where(eq(tasks.id, id)).get();
  if (!task) throw new TaskError("Tarefa não encontrada.");
  return task;
}

export function createTask(userId: number, input: TaskInput): number {
  try {
    return db.transaction((tx) => {
      const columns = resolveColumns(tx, input);
      const values = { ...columns, completedAt: completedAtFor(columns.status), createdBy: userId };
      const row = tx.insert(tasks).values(values).returning({ id: tasks.id }).get();
      recordAudit(tx, { userId, action: "create", entity: "task", entityId: row.id, changes: columns });
      return row.id;
    });
  } catch (error) {
    if (error instanceof TaskError) throw error;
    rethrowForeignKey(error);
  }
}

export function updateTask(userId: number, id: number, input: TaskInput) {
  try {
    db.transaction((tx) => {
      const before = loadTask(tx, id);
      const columns = resolveColumns(tx, input);
      const after = { ...columns, completedAt: completedAtFor(columns.status, before) };
      tx.update(tasks).set(after).where(eq(tasks.id, id)).run();
      const { searchText: _search, ...audited } = diffChanges(before, after);
      recordAudit(tx, { userId, action: "update", entity: "task", entityId: id, changes: audited });
    });
  } catch (error) {
    if (error instanceof TaskError) throw error;
    rethrowForeignKey(error);
  }
}

/** Deletes a task with its subtasks (cascade). */
export function deleteTask(userId: number, id: number) {
  db.transaction((tx) => {
    const task = loadTask(tx, id);
    const items = listSubtasks([id], tx);
    tx.delete(tasks).where(eq(tasks.id, id)).run();
    recordAudit(tx, { userId, action: "delete", entity: "task", entityId: id, changes: { ...task, subtasks: items.map((s) => s.title) } });
  });
}

/** 'Mark as complete' (SPEC §4); refused for a task that already is. */
export function completeTask(userId: number, id: number) {
  db.transaction((tx) => {
    const task = loadTask(tx, id);
    if (task.status === "completed") throw new TaskError("Esta tarefa já está concluída.");
    const completedAt = new Date();
    tx.update(tasks).set({ status: "completed", completedAt }).where(eq(tasks.id, id)).run();
    recordAudit(tx, { userId, action: "update", entity: "task", entityId: id, changes: { status: [task.status, "completed"] } });
  });
}

/** The copy's title: '… (cópia)', cut to fit. */
export function copyTitle(title: string): string {
  const suffix = " (cópia)";
  return title.length + suffix.length <= TASK_TITLE_MAX ? `${title}${suffix}` : `${title.slice(0, TASK_TITLE_MAX - suffix.length).trimEnd()}${suffix}`;
}

/** A new pending task like `id`, with the same checklist, all unticked. Returns the copy's id. */
export function duplicateTask(userId: number, id: number): number {
  return db.transaction((tx) => {
    const task = loadTask(tx, id);
    const title = copyTitle(task.title);
    const copy = tx
      .insert(tasks)
      .values({
        title,
        description: task.description,
        category: task.category,
        priority: task.priority,
        status: "pending",
        dueDate: task.dueDate,
        patientId: task.patientId,
        surgeryId: task.surgeryId,
        assigneeId: task.assigneeId,
        completedAt: null,
        createdBy: userId,
        searchText: buildSearchText(title, task.description),
      })
      .returning({ id: tasks.id })
      .get();
    const items = listSubtasks([id], tx);
    if (items.length) {
      tx.insert(subtasks)
        .values(items.map((item, position) => ({ taskId: copy.id, title: item.title, completed: false, position })))
        .run();
    }
    recordAudit(tx, { userId, action: "create", entity: "task", entityId: copy.id, changes: { duplicatedFrom: id, title } });
    return copy.id;
  });
}

// ---------------------------------------------------------------------------- subtasks

function loadSubtask(tx: Tx, taskId: number, subtaskId: number) {
  const item = tx
    .select()
    .from(subtasks)
    .where(and(eq(subtasks.id, subtaskId), eq(subtasks.taskId, taskId)))
    .get();
  if (!item) throw new TaskError("Subtarefa não encontrada. Ela pode ter sido removida.");
  return item;
}

function auditSubtask(tx: Tx, userId: number, taskId: number, changes: Record<string, unknown>) {
  recordAudit(tx, { userId, action: "update", entity: "task", entityId: taskId, changes: { subtask: changes } });
}

/** Adds a subtask at the end of the task's checklist. */
export function addSubtask(userId: number, taskId: number, title: string): number {
  return db.transaction((tx) => {
    loadTask(tx, taskId);
    const { n, last } = tx
      .select({ n: sql<number>`count(*)`, last: max(subtasks.position) })
      .from(subtasks)
      .where(eq(subtasks.taskId, taskId))
      .get()!;
    if (n >= MAX_SUBTASKS) throw new TaskError(`Uma tarefa pode ter no máximo ${MAX_SUBTASKS} subtarefas.`);
    const row = tx
      .insert(subtasks)
      .values({ taskId, title, position: (last ?? -1) + 1 })
      .returning({ id: subtasks.id })
      .get();
    auditSubtask(tx, userId, taskId, { added: title, id: row.id });
    return row.id;
  });
}

export function toggleSubtask(userId: number, taskId: number, { subtaskId, completed }: SubtaskToggleInput) {
  db.transaction((tx) => {
    const item = loadSubtask(tx, taskId, subtaskId);
    if (item.completed === completed) return;
    tx.update(subtasks).set({ completed }).where(eq(subtasks.id, subtaskId)).run();
    auditSubtask(tx, userId, taskId, { id: subtaskId, completed: [item.completed, completed] });
  });
}

export function renameSubtask(userId: number, taskId: number, { subtaskId, subtaskTitle }: SubtaskRenameInput) {
  db.transaction((tx) => {
    const item = loadSubtask(tx, taskId, subtaskId);
    if (item.title === subtaskTitle) return;
    tx.update(subtasks).set({ title: subtaskTitle }).where(eq(subtasks.id, subtaskId)).run();
    auditSubtask(tx, userId, taskId, { id: subtaskId, title: [item.title, subtaskTitle] });
  });
}

/** Moves a subtask one place up or down the checklist (positions are rewritten 0…n−1). */
export function moveSubtask(userId: number, taskId: number, { subtaskId, direction }: SubtaskMoveInput) {
  db.transaction((tx) => {
    loadSubtask(tx, taskId, subtaskId);
    const items = listSubtasks([taskId], tx);
    const from = items.findIndex((item) => item.id === subtaskId);
    const to = direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= items.length) return;
    [items[from], items[to]] = [items[to], items[from]];
    items.forEach((item, position) => tx.update(subtasks).set({ position }).where(eq(subtasks.id, item.id)).run());
    auditSubtask(tx, userId, taskId, { id: subtaskId, moved: direction });
  });
}

export function removeSubtask(userId: number, taskId: number, subtaskId: number) {
  db.transaction((tx) => {
    const item = loadSubtask(tx, taskId, subtaskId);
    tx.delete(subtasks).where(eq(subtasks.id, subtaskId)).run();
    auditSubtask(tx, userId, taskId, { removed: item.title, id: subtaskId });
  });
}
