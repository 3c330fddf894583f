import { requirePermission } from "~/.server/auth";
import { patientExportResponse } from "~/.server/lgpd-export";
import { notFound } from "~/.server/responses";
import { parseId } from "~/lib/list-params";
import { getClinicSettings } from "~/models/settings.server";
import type { Route } from "./+types/patient-export";

/** GET /patients/:id/export.zip — the patient's complete data (LGPD art. 18), admins only, audited. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "patients", "export");
  const id = parseId(params.id) ?? notFound("Paciente não encontrado.");
  return patientExportResponse(request, user, id, getClinicSettings().clinicName) ?? notFound("Paciente não encontrado.");
}
