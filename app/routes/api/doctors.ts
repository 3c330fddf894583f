import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { searchDoctorOptions } from "~/models/doctor-options.server";
import type { Route } from "./+types/doctors";

/** GET /api/doctors?q=&limit= — `{ doctors: [{ id, name, specialty }] }`, for pickers. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "doctors", "view");
  const url = routeUrl(request);
  const limit = Math.min(Math.max(Number(url.searchParams.get("limit")) || 20, 1), 100);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  return Response.json({ doctors: searchDoctorOptions(q, limit) });
}
