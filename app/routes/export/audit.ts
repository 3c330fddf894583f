import { assertCan, requirePermission } from "~/.server/auth";
import { csvExport } from "~/.server/csv-export";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { parseListState } from "~/lib/list-params";
import { AUDIT_ACTION_LABELS, AUDIT_LIST, type AuditActionName } from "~/lib/lists";
import { auditExport } from "~/models/audit.server";
import type { Route } from "./+types/audit";

/**
 * GET /settings/audit/export.csv?user=&entity=&action=&from=&to= — the trail as filtered, oldest
 * first, with each entry's hashes so the file can be checked against the chain.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "audit", "view");
  assertCan(user, "audit", "export");
  const { filters } = parseListState(routeUrl(request), AUDIT_LIST);
  return csvExport({
    user,
    entity: "audit_log",
    filename: "auditoria",
    criteria: filters,
    ...auditExport(filters),
    columns: [
      { header: "#", value: (e) => e.id },
      { header: "Quando", value: (e) => formatDateTime(e.createdAt) },
      { header: "Usuário", value: (e) => e.userEmail ?? (e.userId === null ? null : `#${e.userId}`) },
      { header: "Ação", value: (e) => AUDIT_ACTION_LABELS[e.action as AuditActionName] ?? e.action },
      { header: "Entidade", value: (e) => e.entity },
      { header: "Id", value: (e) => e.entityId },
      { header: "IP", value: (e) => e.ip },
      { header: "Detalhes", value: (e) => e.changes },
      { header: "Hash anterior", value: (e) => e.prevHash },
      { header: "Hash", value: (e) => e.hash },
    ],
  });
}
