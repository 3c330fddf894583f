import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { payerReportParams } from "~/lib/fees/report-params";
import { payerSummary } from "~/models/honorarios.server";
import type { Route } from "./+types/honorarios-pagador";

/**
 * GET /api/honorarios/pagador?from&to&payer_id → `{ payers: [{ id, name, type, qty, total, avg_payment_days }] }`,
 * `avg_payment_days` in seconds (SPEC §3). What the clinic is owed: admins and staff (ADR 0018).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "payerReports", "view");
  const params = payerReportParams(routeUrl(request).searchParams);
  if (!params.ok) return Response.json({ error: params.error }, { status: 400 });
  return Response.json({ payers: payerSummary(params.value) });
}
