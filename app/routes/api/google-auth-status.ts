import { requirePermission } from "~/.server/auth";
import { connectionStatus } from "~/.server/google";
import type { Route } from "./+types/google-auth-status";

/** GET /api/google/auth/status (SPEC §7) → `{ connected }`; 401 `{ error: 'Você precisa estar autenticado' }` when signed out. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "googleCalendar", "view");
  return Response.json({ connected: connectionStatus().connected });
}
