import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { redirectWithToast } from "~/.server/toast";
import { parseId } from "~/lib/list-params";
import { TissRefusal, payerLoteXml } from "~/models/tiss-honorarios.server";
import type { Route } from "./+types/tiss-lote";

/**
 * GET /financeiro/cirurgias-receber/tiss.xml?payer_id&lote: a payer's billed ('faturado') surgeries
 * as one TISS lote of at most 100 Guias de Honorários (lote 1, 2, … in date order). Any guide with
 * data missing refuses the whole lote with a message naming the surgery and what is missing.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "tiss", "view");
  const url = routeUrl(request);
  const payerId = parseId(url.searchParams.get("payer_id"));
  const lote = url.searchParams.has("lote") ? parseId(url.searchParams.get("lote")) : 1;
  const back = payerId === null ? "/financeiro/cirurgias-receber" : `/financeiro/cirurgias-receber?payer=${payerId}&status=faturado`;
  if (payerId === null || lote === null) return redirectWithToast(back, { type: "error", message: "Escolha o pagador (convênio) e o número do lote." });
  try {
    const { xml, fileName } = await payerLoteXml(payerId, lote);
    return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Content-Disposition": `attachment; filename="${fileName}"`, "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof TissRefusal) return redirectWithToast(back, { type: "error", message: error.message });
    throw error;
  }
}
