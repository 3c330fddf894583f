import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { recentMessages } from "~/models/message.server";
import type { Route } from "./+types/comms-messages";

/** GET /api/comms/messages?limit=10 (SPEC §7) → `{ messages }`, newest first (at most 100). */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "communication", "view");
  const limit = Math.min(Math.max(Number(routeUrl(request).searchParams.get("limit")) || 10, 1), 100);
  const messages = recentMessages(limit).map((m) => ({
    id: m.id,
    patient_name: m.patientName,
    template_title: m.templateTitle,
    status: m.status,
    direction: m.direction,
    preview: m.preview,
    created_at: Math.floor(m.createdAt.getTime() / 1000),
  }));
  return Response.json({ messages });
}
