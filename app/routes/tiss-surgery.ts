import { requirePermission } from "~/.server/auth";
import { redirectWithToast } from "~/.server/toast";
import { parseId } from "~/lib/list-params";
import { TissRefusal, surgeryGuideXml } from "~/models/tiss-honorarios.server";
import type { Route } from "./+types/tiss-surgery";

/**
 * GET /surgeries/:id/honorarios/tiss.xml: the surgery's Guia de Honorários as a TISS lote of one,
 * validated against the shipped schema. Missing data: back to the honorários page with a message
 * naming what is missing, never a file. Admins and staff (a download is a read; ADR 0019).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, "tiss", "view");
  const id = parseId(params.id);
  if (id === null) throw new Response("Cirurgia não encontrada", { status: 404 });
  try {
    const { xml, fileName } = await surgeryGuideXml(id);
    return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Content-Disposition": `attachment; filename="${fileName}"`, "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof TissRefusal) return redirectWithToast(`/surgeries/${id}/honorarios`, { type: "error", message: error.message });
    throw error;
  }
}
