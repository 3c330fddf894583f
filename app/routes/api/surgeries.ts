import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { searchSurgeryOptions } from "~/models/task-options.server";
import type { Route } from "./+types/surgeries";

/** GET /api/surgeries?q=&limit= — `{ surgeries: [{ id, label }] }`, for the task dialog's surgery picker. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "surgeries", "view");
  const url = routeUrl(request);
  const limit = Math.min(Math.max(Number(url.searchParams.get("limit")) || 20, 1), 100);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  return Response.json({ surgeries: searchSurgeryOptions(q, limit) });
}
