import { data } from "react-router";
import { requirePermission } from "~/.server/auth";
import { GOOGLE_MESSAGES, GoogleError, disconnect } from "~/.server/google";
import type { Route } from "./+types/google-auth-disconnect";

export function loader() {
  return data({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * POST /api/google/auth/disconnect (SPEC §7): revokes the token at Google, then deletes it →
 * `{ success: true }`; 502 `{ error: 'Falha ao desconectar' }` when Google cannot be reached.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "googleCalendar", "edit");
  try {
    await disconnect(user.id);
    return Response.json({ success: true });
  } catch (error) {
    if (error instanceof GoogleError) return data({ error: GOOGLE_MESSAGES.disconnectFailedPt }, { status: 502 });
    throw error;
  }
}
