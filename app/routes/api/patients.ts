import { recordView } from "~/.server/audit";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { searchPatientOptions } from "~/models/patient.server";
import type { Route } from "./+types/patients";

/** GET /api/patients?q=&limit= — SPEC §7: `{ patients: [{ id, name }] }`, for pickers and quick send. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "patients", "view");
  const url = routeUrl(request);
  const limit = Math.min(Math.max(Number(url.searchParams.get("limit")) || 20, 1), 100);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const patients = searchPatientOptions(q, limit);
  recordView(request, user, "patient", null, { via: "api", ids: patients.map((p) => p.id), ...(q ? { q } : {}) });
  return Response.json({ patients });
}
