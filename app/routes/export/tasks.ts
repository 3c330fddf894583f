import { assertCan, requirePermission } from "~/.server/auth";
import { csvExport } from "~/.server/csv-export";
import { routeUrl } from "~/.server/route-url";
import { formatIsoDate, todayIsoInClinic } from "~/lib/dates";
import { TASK_CATEGORY_LABELS, TASK_PRIORITY_LABELS, TASK_STATUS_LABELS, labelFor } from "~/lib/enums";
import { parseListState } from "~/lib/list-params";
import { TASK_LIST } from "~/lib/lists";
import { taskExport } from "~/models/task.server";
import type { Route } from "./+types/tasks";

/** GET /tasks/export.csv?q=&category=&status=&priority=&assignee=&dueFrom=&dueTo= — 'Relatório': the tasks as filtered (SPEC §7). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "tasks", "view");
  assertCan(user, "tasks", "export");
  const { page: _page, after: _after, before: _before, filters, ...state } = parseListState(routeUrl(request), TASK_LIST);
  return csvExport({
    user,
    entity: "task",
    filename: "tarefas",
    criteria: { ...state, ...filters },
    ...taskExport(state.dir, { q: state.q, filters, userId: user.id, today: todayIsoInClinic() }),
    columns: [
      { header: "Título", value: (t) => t.title },
      { header: "Categoria", value: (t) => labelFor(TASK_CATEGORY_LABELS, t.category) },
      { header: "Status", value: (t) => labelFor(TASK_STATUS_LABELS, t.status) },
      { header: "Prioridade", value: (t) => labelFor(TASK_PRIORITY_LABELS, t.priority) },
      { header: "Vencimento", value: (t) => (t.dueDate ? formatIsoDate(t.dueDate) : null) },
    ],
  });
}
