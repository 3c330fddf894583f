import { ListTodo, UserCheck } from "~/components/icons";
import { useLocation } from "react-router";
import { ListPager, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { EmptyState } from "~/components/empty-state";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { ListToolbar } from "~/components/list-toolbar";
import { loadErrorBoundary } from "~/components/load-error";
import { TaskCard } from "~/components/task-card";
import { CATEGORY_OPTIONS, PRIORITY_OPTIONS, TaskDialog } from "~/components/task-dialog";
import { TaskViewDialog } from "~/components/task-view-dialog";
import { TaskStats } from "~/components/tasks/task-stats";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { todayIsoInClinic } from "~/lib/dates";
import { TASK_STATUS_LABELS } from "~/lib/enums";
import { listUrl, parseId, parseListState } from "~/lib/list-params";
import { TASK_LIST } from "~/lib/lists";
import { can, rightsIn } from "~/lib/permissions";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { useToastEffect } from "~/lib/use-toast-effect";
import { presentTask, presentTasks, taskDialogData, taskIntents } from "~/models/task-page.server";
import { getTask, listAssigneeOptions, listTasks } from "~/models/task.server";
import type { Route } from "./+types/tasks";

export const handle = { title: "Gestão de Tarefas", subtitle: "Acompanhe as tarefas da equipe, prazos e checklists" };
export const meta: Route.MetaFunction = () => [{ title: "Tarefas · Sinapse" }];

const NOT_FOUND = "Tarefa não encontrada.";
const STATUS_FILTER_OPTIONS = [
  ...Object.entries(TASK_STATUS_LABELS).map(([value, label]) => ({ value, label })),
  { value: "overdue", label: "Atrasada" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "tasks", "view");
  const url = routeUrl(request);
  const { filters, ...params } = parseListState(url, TASK_LIST);
  const today = todayIsoInClinic();
  const { dialog, editing, deleting } = resolveDialog(url, user, {
    area: "tasks",
    notFoundMessage: NOT_FOUND,
    loadEditing: (id) => getTask(id, today),
    loadDeleting: (id) => getTask(id, today),
  });
  // `?view=ID`: the task's details and its checklist, to add, rename, reorder and remove subtasks.
  const viewId = url.searchParams.has("view") ? (parseId(url.searchParams.get("view")) ?? notFound(NOT_FOUND)) : null;
  const viewing = viewId ? (getTask(viewId, today) ?? notFound(NOT_FOUND)) : null;
  const list = listTasks(params, { q: params.q, filters, userId: user.id, today });
  const assigneeOptions = listAssigneeOptions(editing?.assigneeId);

  return {
    ...list,
    rows: presentTasks(list.rows, user),
    params,
    filters,
    userId: user.id,
    assigneeOptions,
    dialog,
    editing,
    form: dialog === "new" || editing ? taskDialogData(url, editing, user.id) : null,
    viewing: viewing ? presentTask(viewing, user) : null,
    subtaskAction: viewing ? { rename: parseId(url.searchParams.get("rename")), remove: parseId(url.searchParams.get("remove")) } : null,
    deleting,
    closeTo: listUrl(url, TASK_LIST),
    permissions: rightsIn(user, "tasks"),
    canExport: can(user, "tasks", "export"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "tasks", "view");
  return dispatchIntent(request, user, {
    back: listUrl(routeUrl(request), TASK_LIST),
    notFoundMessage: NOT_FOUND,
    intents: taskIntents(),
  });
}

export default function TasksPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, stats, params, filters, permissions, dialog, editing, form, viewing, deleting, closeTo } = loaderData;
  const hrefWith = useHrefWithParams();
  const location = useLocation();
  useToastEffect(actionData?.toast);
  const mine = filters.assignee === "me" || filters.assignee === loaderData.userId;
  const filtered = Boolean(params.q) || Object.values(filters).some((value) => value !== null);

  return (
    <div className="space-y-4">
      <TaskStats stats={stats} />

      <ListToolbar
        search={{ placeholder: "Buscar por título ou descrição...", label: "Buscar tarefas" }}
        listHref={closeTo}
        canExport={loaderData.canExport}
        exportLink={{ label: "Relatório", successToast: "Relatório exportado com sucesso" }}
        create={permissions.create ? { label: "Nova Tarefa", href: hrefWith({ dialog: "new", edit: null, delete: null, view: null }) } : null}
      />

      <div className="flex flex-wrap items-end gap-3">
        <ButtonLink
          to={hrefWith({ assignee: mine ? null : "me", page: null, after: null, before: null })}
          variant={mine ? "default" : "outline"}
          aria-current={mine ? "true" : undefined}
          preventScrollReset
        >
          <UserCheck aria-hidden />
          Minhas tarefas
        </ButtonLink>
        <FilterBar
          keep={keptListParams(params, TASK_LIST)}
          fields={[
            { name: "category", label: "Categoria", all: "Todas as categorias", options: CATEGORY_OPTIONS, value: filters.category, width: "w-44" },
            { name: "status", label: "Status", all: "Todos os status", options: STATUS_FILTER_OPTIONS, value: filters.status, width: "w-40" },
            { name: "priority", label: "Prioridade", all: "Todas as prioridades", options: PRIORITY_OPTIONS, value: filters.priority, width: "w-44" },
            {
              name: "assignee",
              label: "Responsável",
              all: "Todos os responsáveis",
              options: [{ value: "me", label: "Eu" }, ...loaderData.assigneeOptions],
              value: filters.assignee,
              width: "w-48",
            },
            { type: "date", name: "dueFrom", label: "Vencimento de", value: filters.dueFrom },
            { type: "date", name: "dueTo", label: "Vencimento até", value: filters.dueTo },
          ]}
        />
      </div>

      {rows.length === 0 ? (
        <EmptyState
          icon={ListTodo}
          title="Nenhuma tarefa encontrada"
          description={filtered ? "Nenhuma tarefa corresponde à busca e aos filtros. Tente outros critérios." : "Crie a primeira tarefa da equipe."}
          action={
            !filtered && permissions.create ? (
              <ButtonLink to={hrefWith({ dialog: "new" })} preventScrollReset>
                Nova Tarefa
              </ButtonLink>
            ) : null
          }
        />
      ) : (
        // The cards' markup kept per page of tasks (kept until a task, a checklist or a name it shows
        // is written): it reads the tasks, what the viewer may do and the URL (the cards' links keep
        // the list's params; their forms post to it).
        <CachedElement
          as="ul"
          id="task-cards"
          aria-label="Tarefas"
          className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
          cacheKey={cacheKeyOf(["task-cards", permissions, location.pathname + location.search], rows)}
        >
          {() =>
            rows.map((task) => (
              <li key={task.id} className="min-w-0">
                <TaskCard task={task} permissions={permissions} />
              </li>
            ))
          }
        </CachedElement>
      )}
      <ListPager total={loaderData.total} page={loaderData.page} pageSize={loaderData.pageSize} keyset={loaderData} />

      {(dialog === "new" || editing) && form ? (
        <TaskDialog
          // A picker's 'Buscar' reloads the page with new options and the typed values: start afresh.
          key={`${editing?.id ?? "new"}:${location.search}`}
          task={editing}
          form={form}
          assigneeOptions={loaderData.assigneeOptions}
          closeTo={closeTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {viewing ? (
        <TaskViewDialog
          task={viewing}
          step={loaderData.subtaskAction}
          permissions={permissions}
          closeTo={closeTo}
          error={actionData?.intent?.startsWith("subtask-") ? actionData.toast?.message : undefined}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir tarefa"
          message={
            <>
              Tem certeza de que deseja excluir esta tarefa? <strong>{deleting.title}</strong>
              {deleting.subtasks.length ? ` e suas ${deleting.subtasks.length} subtarefa(s) serão removidas` : " será removida"} permanentemente.
            </>
          }
          id={deleting.id}
          closeTo={closeTo}
          error={deleteErrorOf(actionData)}
        />
      ) : null}
    </div>
  );
}

/** SPEC §8: a list that cannot be read says 'Erro ao carregar tarefas'; 403/404 keep the shell's messages. */
export const ErrorBoundary = loadErrorBoundary("Erro ao carregar tarefas");
