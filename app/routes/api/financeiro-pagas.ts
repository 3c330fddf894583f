import { data } from "react-router";
import { requirePermission } from "~/.server/auth";
import { dateParam, pagingParams, payerParam } from "~/.server/receivables-api";
import { routeUrl } from "~/.server/route-url";
import { paidItems, receivableScope } from "~/models/receivable.server";
import type { Route } from "./+types/financeiro-pagas";

/**
 * GET /api/financeiro/cirurgias-pagas?from&to&payer_id (SPEC §7) → `{ items }`: surgeries paid
 * between the two days (inclusive, clinic time), most recently paid first; `limit`/`offset` page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "receivables", "view");
  const url = routeUrl(request);
  const filters = { from: dateParam(url, "from"), to: dateParam(url, "to"), payerId: payerParam(url) };
  if (filters.from && filters.to && filters.from > filters.to) return data({ error: "from deve ser anterior ou igual a to." }, { status: 400 });
  const { limit, offset } = pagingParams(url);
  return Response.json({ items: paidItems(filters, receivableScope(user), limit, offset) });
}
