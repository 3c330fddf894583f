import { type ReactNode, useEffect, useRef } from "react";
import { Form, useFetcher, useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { useHrefWithParams } from "~/components/data-table";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import {
  TASK_CATEGORY_LABELS,
  TASK_PRIORITY_LABELS,
  TASK_STATUS_LABELS,
  type TaskPriority,
  type TaskStatus,
  labelFor,
} from "~/lib/enums";
import { cn } from "~/lib/utils";
import type { Route } from "../routes/+types/tasks";

/** A task as the /tasks screen lists it: badges, dates, links, progress and the checklist, with its menu. */

export type TaskView = Route.ComponentProps["loaderData"]["rows"][number];
/** What the user may do with tasks (SPEC §6: every role, everything). */
export interface TaskRights {
  create: boolean;
  edit: boolean;
  delete: boolean;
}

const STATUS_BADGES: Record<TaskStatus, BadgeVariant> = { pending: "secondary", in_progress: "info", completed: "success" };
const PRIORITY_BADGES: Record<TaskPriority, BadgeVariant> = { low: "outline", medium: "secondary", high: "warning" };

export function TaskBadges({ task }: { task: Pick<TaskView, "category" | "priority" | "status" | "overdue"> }) {
  return (
    <div className="flex flex-wrap gap-1.5">
      <Badge variant="outline">{labelFor(TASK_CATEGORY_LABELS, task.category)}</Badge>
      <Badge variant={PRIORITY_BADGES[task.priority]}>Prioridade {labelFor(TASK_PRIORITY_LABELS, task.priority)}</Badge>
      <Badge variant={STATUS_BADGES[task.status]}>{labelFor(TASK_STATUS_LABELS, task.status)}</Badge>
      {task.overdue ? <Badge variant="destructive">Atrasada</Badge> : null}
    </div>
  );
}

/** Due date, assignee, patient and surgery (links to them). */
export function TaskFacts({ task }: { task: TaskView }) {
  return (
    <dl className="task-facts">
      <Fact icon="ico-calendar" term="Vencimento">
        <span className={cn("tabular-nums", task.overdue && "font-medium text-destructive")}>{task.dueLabel ?? "Sem vencimento"}</span>
      </Fact>
      <Fact icon="ico-user" term="Responsável">
        {task.assigneeName ?? "Sem responsável"}
      </Fact>
      {task.patientHref ? (
        <Fact term="Paciente">
          <Link to={task.patientHref} className="task-link">
            {task.patientName}
          </Link>
        </Fact>
      ) : null}
      {task.surgeryHref ? (
        <Fact term="Cirurgia">
          <Link to={task.surgeryHref} className="task-link">
            {task.surgeryLabel}
          </Link>
        </Fact>
      ) : null}
    </dl>
  );
}

/** A fact of the card: its term (with a decorative icon drawn by CSS, `ico-*`) and its value. */
function Fact({ term, icon, children }: { term: string; icon?: string; children: ReactNode }) {
  return (
    <div className="task-fact">
      <dt className={icon}>{`${term}:`}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The checklist's progress bar: ticked share as a whole percentage. */
export function TaskProgress({ task }: { task: Pick<TaskView, "progress" | "subtasks"> }) {
  const done = task.subtasks.filter((s) => s.completed).length;
  const label = `${done} de ${task.subtasks.length} subtarefas concluídas`;
  return (
    <div className="task-progress">
      <p>
        <span>{label}</span>
        <span>{`${task.progress}%`}</span>
      </p>
      <div role="progressbar" aria-label="Progresso das subtarefas" aria-valuemin={0} aria-valuemax={100} aria-valuenow={task.progress} aria-valuetext={`${task.progress}% — ${label}`}>
        <div style={{ width: `${task.progress}%` }} />
      </div>
    </div>
  );
}

/**
 * Ticks or unticks a subtask: a small POST form (works without JavaScript); with it, a fetcher
 * that shows the new state at once while the server saves it.
 */
export function SubtaskCheck({ taskId, subtask, disabled }: { taskId: number; subtask: { id: number; title: string; completed: boolean }; disabled?: boolean }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get("completed");
  const checked = pending ? pending === "true" : subtask.completed;
  return (
    <fetcher.Form method="post" preventScrollReset className="min-w-0 flex-1">
      <input type="hidden" name="intent" value="subtask-toggle" />
      <input type="hidden" name="id" value={taskId} />
      <input type="hidden" name="subtaskId" value={subtask.id} />
      <input type="hidden" name="completed" value={String(!checked)} />
      <button
        type="submit"
        role="checkbox"
        aria-checked={checked}
        disabled={disabled}
        className="task-check"
      >
        <span aria-hidden className={checked ? "task-check-box task-check-box-on ico-check" : "task-check-box"} />
        <span>{subtask.title}</span>
      </button>
    </fetcher.Form>
  );
}

/** The card's menu, a <details> that opens without JavaScript: view, edit, duplicate, mark complete, delete. */
function TaskMenu({ task, permissions }: { task: TaskView; permissions: TaskRights }) {
  const hrefWith = useHrefWithParams();
  const menu = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  // A choice navigates (or posts and comes back): the menu closes, as it would after a page load.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [key]);
  // With JavaScript, a click elsewhere or Escape closes it too.
  useEffect(() => {
    const close = (event: Event) => {
      const details = menu.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  const open = (changes: Record<string, string | number | null>) => hrefWith({ dialog: null, edit: null, delete: null, view: null, rename: null, remove: null, ...changes });
  return (
    <details ref={menu} className="task-menu-details">
      <summary aria-label={`Ações da tarefa ${task.title}`} className="task-menu-trigger ico-more-horizontal" />
      <div className="task-menu">
        <Link to={open({ view: task.id })} preventScrollReset className="ico-eye">
          Visualizar
        </Link>
        {permissions.edit ? (
          <Link to={open({ edit: task.id })} preventScrollReset className="ico-pencil">
            Editar
          </Link>
        ) : null}
        {permissions.create ? (
          <Form method="post" preventScrollReset discover="none">
            <input type="hidden" name="intent" value="duplicate" />
            <input type="hidden" name="id" value={task.id} />
            <button type="submit" className="ico-copy">
              Duplicar
            </button>
          </Form>
        ) : null}
        {permissions.edit && task.status !== "completed" ? (
          <Form method="post" preventScrollReset discover="none">
            <input type="hidden" name="intent" value="complete" />
            <input type="hidden" name="id" value={task.id} />
            <button type="submit" className="ico-check-circle-2">
              Marcar como concluída
            </button>
          </Form>
        ) : null}
        {permissions.delete ? (
          <Link to={open({ delete: task.id })} preventScrollReset className="task-menu-item-destructive ico-trash-2">
            Excluir
          </Link>
        ) : null}
      </div>
    </details>
  );
}

export function TaskCard({ task, permissions }: { task: TaskView; permissions: TaskRights }) {
  const hrefWith = useHrefWithParams();
  const titleId = `task-${task.id}-title`;
  return (
    <article aria-labelledby={titleId} className="task-card">
      <header>
        <div>
          <h3 id={titleId}>
            <Link to={hrefWith({ view: task.id, dialog: null, edit: null, delete: null })} preventScrollReset>
              {task.title}
            </Link>
          </h3>
          <TaskBadges task={task} />
        </div>
        <TaskMenu task={task} permissions={permissions} />
      </header>
      {task.description ? <p className="line-clamp-3 text-sm break-words text-muted-foreground">{task.description}</p> : null}
      <TaskFacts task={task} />
      {task.subtasks.length ? (
        <div className="task-checklist">
          <TaskProgress task={task} />
          <ul aria-label={`Subtarefas de ${task.title}`}>
            {task.subtasks.map((subtask) => (
              <li key={subtask.id}>
                <SubtaskCheck taskId={task.id} subtask={subtask} disabled={!permissions.edit} />
              </li>
            ))}
          </ul>
        </div>
      ) : permissions.edit ? (
        <Link to={hrefWith({ view: task.id })} preventScrollReset className="task-link mt-auto text-sm">
          Adicionar subtarefas
        </Link>
      ) : null}
    </article>
  );
}
