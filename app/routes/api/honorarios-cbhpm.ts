import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { codeLookupParams } from "~/lib/fees/report-params";
import { cbhpmCodeLookup } from "~/models/honorarios.server";
import type { Route } from "./+types/honorarios-cbhpm";

/** GET /api/honorarios/cbhpm?code → `{ codes: [{ code, description, year, base_value_cents, usage_count }] }`. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "honorarios", "view");
  const params = codeLookupParams(routeUrl(request).searchParams);
  if (!params.ok) return Response.json({ error: params.error }, { status: 400 });
  return Response.json({ codes: cbhpmCodeLookup(params.value) });
}
