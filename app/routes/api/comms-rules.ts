import { requirePermission } from "~/.server/auth";
import { listRules } from "~/models/automation.server";
import type { Route } from "./+types/comms-rules";

/** GET /api/comms/rules (SPEC §7) → `{ rules: [{ id, name, template_title, enabled, … }] }`. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "communication", "view");
  const rules = listRules().map((r) => ({
    id: r.id,
    name: r.name,
    template_title: r.templateTitle,
    enabled: r.enabled,
    trigger: r.trigger,
    offset_minutes: r.offsetMinutes,
    description: r.description,
  }));
  return Response.json({ rules });
}
