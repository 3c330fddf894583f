import { requirePermission } from "~/.server/auth";
import { receivableScope, receivableSummary } from "~/models/receivable.server";
import type { Route } from "./+types/financeiro-resumo";

/** GET /api/financeiro/resumo (SPEC §7) → `{ realizadas, faturadas }`: how many surgeries are in each status. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "receivables", "view");
  return Response.json(receivableSummary(receivableScope(user)));
}
