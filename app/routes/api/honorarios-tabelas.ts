import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { scheduleParams } from "~/lib/fees/report-params";
import { listSchedules } from "~/models/honorarios.server";
import type { Route } from "./+types/honorarios-tabelas";

/** GET /api/honorarios/tabelas?kind&year&search → `{ schedules: [{ kind, year, version, code, description, base_value_cents }] }` (at most 200). */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "honorarios", "view");
  const params = scheduleParams(routeUrl(request).searchParams);
  if (!params.ok) return Response.json({ error: params.error }, { status: 400 });
  return Response.json({ schedules: listSchedules(params.value) });
}
