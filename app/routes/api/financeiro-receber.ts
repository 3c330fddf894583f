import { requirePermission } from "~/.server/auth";
import { pagingParams, payerParam, searchParam, statusParam } from "~/.server/receivables-api";
import { routeUrl } from "~/.server/route-url";
import { receivableItems, receivableScope } from "~/models/receivable.server";
import type { Route } from "./+types/financeiro-receber";

/**
 * GET /api/financeiro/cirurgias-a-receber?search&status&payer_id (SPEC §7) → `{ items }`, newest
 * surgery first; `limit` (≤ 500, default 100) and `offset` page further. A bad parameter is a 400
 * `{ error }`. A doctor gets only the surgeries they performed (ADR 0019).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "receivables", "view");
  const url = routeUrl(request);
  const query = { q: searchParam(url), status: statusParam(url), payerId: payerParam(url) };
  const { limit, offset } = pagingParams(url);
  return Response.json({ items: receivableItems(query, receivableScope(user), limit, offset) });
}
