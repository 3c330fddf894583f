import { recordView } from "~/.server/audit";
import { requirePermission } from "~/.server/auth";
import { parseId } from "~/lib/list-params";
import { getPatient } from "~/models/patient.server";
import type { Route } from "./+types/patient";

/** GET /api/patients/:id — SPEC §7: `{ patient: { name, phone } }`. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "patients", "view");
  const id = parseId(params.id);
  const patient = id ? getPatient(id) : null;
  if (!patient) return Response.json({ error: "Paciente não encontrado." }, { status: 404 });
  recordView(request, user, "patient", patient.id, { via: "api" });
  return Response.json({ patient: { id: patient.id, name: patient.name, phone: patient.phone } });
}
