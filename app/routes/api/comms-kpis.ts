import { requirePermission } from "~/.server/auth";
import { commsKpis } from "~/models/comms.server";
import type { Route } from "./+types/comms-kpis";

/** GET /api/comms/kpis (SPEC §3, §7) → `{ optInPatients, sent30d, driveFolders, activeRules }`. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "communication", "view");
  return Response.json(commsKpis());
}
