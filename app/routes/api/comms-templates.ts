import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { TEMPLATE_STATUSES, type TemplateStatus } from "~/lib/enums";
import { listTemplates } from "~/models/template.server";
import type { Route } from "./+types/comms-templates";

/** GET /api/comms/templates[?status=aprovado] (SPEC §7) → `{ templates }`. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "communication", "view");
  const raw = routeUrl(request).searchParams.get("status");
  if (raw && !(TEMPLATE_STATUSES as readonly string[]).includes(raw)) {
    return Response.json({ error: "Status inválido (aprovado, rascunho ou inativo)." }, { status: 400 });
  }
  return Response.json({ templates: listTemplates(raw as TemplateStatus | null) });
}
