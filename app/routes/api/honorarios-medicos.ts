import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { doctorReportParams } from "~/lib/fees/report-params";
import { feesByDoctor } from "~/models/honorarios.server";
import { feeViewerOf } from "~/models/surgery-fees.server";
import type { Route } from "./+types/honorarios-medicos";

/** GET /api/honorarios/medicos?from&to&doctor_id → `{ doctors: [{ id, name, specialty, qty, total_principal, total_auxiliar, total_anestesista, total }] }` (cents). A doctor gets only their own row. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "honorarios", "view");
  const params = doctorReportParams(routeUrl(request).searchParams);
  if (!params.ok) return Response.json({ error: params.error }, { status: 400 });
  return Response.json({ doctors: feesByDoctor(params.value, feeViewerOf(user)) });
}
