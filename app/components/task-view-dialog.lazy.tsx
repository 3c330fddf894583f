import { ArrowDown, ArrowUp, Pencil, Plus, Trash2 } from "~/components/icons";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Link } from "~/components/ui/link";
import { useHrefWithParams } from "~/components/data-table";
import { DialogFooter, UrlDialog } from "~/components/dialog";
import { SubtaskCheck, TaskBadges, TaskFacts, TaskProgress, type TaskRights, type TaskView } from "~/components/task-card";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useToastEffect } from "~/lib/use-toast-effect";
import { MAX_SUBTASKS, TASK_TITLE_MAX } from "~/validation/task";

/**
 * A task's details (`?view=ID`) and its checklist: tick, add, rename (`&rename=SID`), move up or
 * down, remove (`&remove=SID` asks first). Every change is a small POST form, so it all works
 * without JavaScript; with it the forms are fetchers and the page does not reload.
 */

type Subtask = TaskView["subtasks"][number];
type FetcherData = { toast?: { type: "success" | "error" | "info"; message: string } } | undefined;

const ICON_BUTTON = "size-8 px-0";

function SubtaskForm({
  taskId,
  intent,
  children,
  className,
  fields = {},
  onDone,
}: {
  taskId: number;
  intent: string;
  children: React.ReactNode;
  className?: string;
  fields?: Record<string, string | number>;
  onDone?: () => void;
}) {
  const fetcher = useFetcher<FetcherData>();
  const data = fetcher.data;
  useToastEffect(data?.toast);
  const busy = fetcher.state !== "idle";
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy && !data?.toast) onDone?.();
    wasBusy.current = busy;
  }, [busy, data, onDone]);
  return (
    <fetcher.Form method="post" preventScrollReset className={className} aria-busy={busy || undefined}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={taskId} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      {data?.toast?.type === "error" ? (
        <p role="alert" className="basis-full text-sm text-destructive">
          {data.toast.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

function SubtaskRow({
  task,
  subtask,
  index,
  step,
  canEdit,
}: {
  task: TaskView;
  subtask: Subtask;
  index: number;
  step: { rename: number | null; remove: number | null };
  canEdit: boolean;
}) {
  const hrefWith = useHrefWithParams();
  const cancel = hrefWith({ rename: null, remove: null });
  if (step.rename === subtask.id) {
    return (
      <SubtaskForm taskId={task.id} intent="subtask-rename" fields={{ subtaskId: subtask.id }} className="flex flex-wrap items-center gap-2">
        <Label htmlFor={`subtask-${subtask.id}-title`} className="sr-only">
          Novo nome da subtarefa
        </Label>
        <Input
          id={`subtask-${subtask.id}-title`}
          name="subtaskTitle"
          defaultValue={subtask.title}
          required
          maxLength={TASK_TITLE_MAX}
          autoFocus
          autoComplete="off"
          className="min-w-0 flex-1"
        />
        <Button type="submit" size="sm">
          Salvar
        </Button>
        <ButtonLink to={cancel} size="sm" variant="ghost" preventScrollReset>
          Cancelar
        </ButtonLink>
      </SubtaskForm>
    );
  }
  if (step.remove === subtask.id) {
    return (
      <SubtaskForm taskId={task.id} intent="subtask-remove" fields={{ subtaskId: subtask.id }} className="flex flex-wrap items-center gap-2 rounded-md border border-destructive/40 p-2">
        <p role="alert" className="min-w-0 flex-1 text-sm">
          Remover a subtarefa <strong>{subtask.title}</strong>?
        </p>
        <Button type="submit" size="sm" variant="destructive">
          Remover
        </Button>
        <ButtonLink to={cancel} size="sm" variant="ghost" preventScrollReset>
          Cancelar
        </ButtonLink>
      </SubtaskForm>
    );
  }
  return (
    <div className="flex items-start gap-1">
      <SubtaskCheck taskId={task.id} subtask={subtask} disabled={!canEdit} />
      {canEdit ? (
        <div className="flex shrink-0 items-center">
          <ButtonLink to={hrefWith({ rename: subtask.id, remove: null })} variant="ghost" className={ICON_BUTTON} aria-label={`Renomear ${subtask.title}`} preventScrollReset>
            <Pencil aria-hidden />
          </ButtonLink>
          <SubtaskForm taskId={task.id} intent="subtask-move" fields={{ subtaskId: subtask.id, direction: "up" }}>
            <Button type="submit" variant="ghost" className={ICON_BUTTON} aria-label={`Mover ${subtask.title} para cima`} disabled={index === 0}>
              <ArrowUp aria-hidden />
            </Button>
          </SubtaskForm>
          <SubtaskForm taskId={task.id} intent="subtask-move" fields={{ subtaskId: subtask.id, direction: "down" }}>
            <Button
              type="submit"
              variant="ghost"
              className={ICON_BUTTON}
              aria-label={`Mover ${subtask.title} para baixo`}
              disabled={index === task.subtasks.length - 1}
            >
              <ArrowDown aria-hidden />
            </Button>
          </SubtaskForm>
          <ButtonLink
            to={hrefWith({ remove: subtask.id, rename: null })}
            variant="ghost"
            className={`${ICON_BUTTON} text-destructive`}
            aria-label={`Remover ${subtask.title}`}
            preventScrollReset
          >
            <Trash2 aria-hidden />
          </ButtonLink>
        </div>
      ) : null}
    </div>
  );
}

function AddSubtask({ taskId, error }: { taskId: number; error?: string }) {
  const form = useRef<HTMLDivElement>(null);
  const clear = () => {
    const input = form.current?.querySelector<HTMLInputElement>("input[name=subtaskTitle]");
    if (input) {
      input.value = "";
      input.focus();
    }
  };
  return (
    <div ref={form}>
      <SubtaskForm taskId={taskId} intent="subtask-add" className="flex flex-wrap items-end gap-2" onDone={clear}>
        <div className="grid min-w-0 flex-1 gap-1.5">
          <Label htmlFor={`task-${taskId}-new-subtask`}>Nova subtarefa</Label>
          <Input
            id={`task-${taskId}-new-subtask`}
            name="subtaskTitle"
            required
            maxLength={TASK_TITLE_MAX}
            autoComplete="off"
            placeholder="Ex.: Conferir carteirinha do convênio"
            aria-invalid={error ? true : undefined}
          />
        </div>
        <Button type="submit" variant="outline">
          <Plus aria-hidden />
          Adicionar
        </Button>
        {error ? (
          <p role="alert" className="basis-full text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </SubtaskForm>
    </div>
  );
}

export function TaskViewDialog({
  task,
  step,
  permissions,
  closeTo,
  error,
}: {
  task: TaskView;
  step: { rename: number | null; remove: number | null } | null;
  permissions: TaskRights;
  closeTo: string;
  /** A refused checklist change without JavaScript (the action's message). */
  error?: string;
}) {
  const hrefWith = useHrefWithParams();
  const current = step ?? { rename: null, remove: null };
  return (
    <UrlDialog title={task.title} closeTo={closeTo} maxWidth="2xl">
      <div className="grid gap-4">
        <TaskBadges task={task} />
        {task.description ? <p className="text-sm whitespace-pre-line">{task.description}</p> : null}
        <TaskFacts task={task} />
        <section aria-labelledby={`task-${task.id}-checklist`} className="grid gap-3 rounded-md border p-3">
          <h3 id={`task-${task.id}-checklist`} className="font-medium">
            Subtarefas
          </h3>
          {task.subtasks.length ? (
            <>
              <TaskProgress task={task} />
              <ol aria-label="Subtarefas" className="grid gap-1">
                {task.subtasks.map((subtask, index) => (
                  <li key={subtask.id}>
                    <SubtaskRow task={task} subtask={subtask} index={index} step={current} canEdit={permissions.edit} />
                  </li>
                ))}
              </ol>
            </>
          ) : (
            <p className="text-sm text-muted-foreground">Nenhuma subtarefa ainda.</p>
          )}
          {permissions.edit && task.subtasks.length < MAX_SUBTASKS ? <AddSubtask taskId={task.id} error={error} /> : null}
        </section>
        <DialogFooter>
          <ButtonLink to={closeTo} variant="outline" preventScrollReset>
            Fechar
          </ButtonLink>
          {permissions.edit ? (
            <ButtonLink to={hrefWith({ view: null, rename: null, remove: null, edit: task.id })} preventScrollReset>
              <Pencil aria-hidden />
              Editar tarefa
            </ButtonLink>
          ) : null}
        </DialogFooter>
      </div>
    </UrlDialog>
  );
}
