import { recordAudit } from "~/.server/audit";
import { requirePermission } from "~/.server/auth";
import { csvResponse } from "~/.server/csv";
import { toCsv } from "~/lib/csv";
import { todayIsoInClinic } from "~/lib/dates";
import { NEURO_CSV_HEADERS, filterNeuroGroups, neuroCsvRows, parseNeuroArea } from "~/lib/neurosurgery";
import { db } from "~/.server/db";
import { routeUrl } from "~/.server/route-url";
import type { Route } from "./+types/neurosurgery-export";

/**
 * GET /cirurgico/grupos/neurocirurgia/export.csv?q=&area= — the catalogue's 'Relatório' as the
 * screen shows it, in the Excel-BR form of the CSV writer (BOM, ';', decimal comma, formula guard).
 * Twelve static rows: built whole, no streaming needed. The export is audited like every other.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "procedures", "view");
  const url = routeUrl(request);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const area = parseNeuroArea(url.searchParams.get("area"));
  const groups = filterNeuroGroups(q, area);
  recordAudit(db, { userId: user.id, action: "export", entity: "neurosurgery_catalogue", changes: { format: "csv", q, area } });
  return csvResponse(`neurocirurgia-grupos-${todayIsoInClinic()}.csv`, toCsv(NEURO_CSV_HEADERS, neuroCsvRows(groups)));
}
