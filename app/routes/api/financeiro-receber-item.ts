import { data } from "react-router";
import { withAuditRequest } from "~/.server/audit";
import { assertCan, requirePermission } from "~/.server/auth";
import { readBytes } from "~/.server/form-body";
import { parseId } from "~/lib/list-params";
import {
  ReceivableError,
  getReceivable,
  moveReceivable,
  receivableScope,
  removeReceivable,
} from "~/models/receivable.server";
import { receivableMoveBodySchema } from "~/validation/receivable";
import type { Route } from "./+types/financeiro-receber-item";

const NOT_FOUND = "Recebível não encontrado.";

/** GET /api/financeiro/cirurgias-a-receber/{id} → `{ item }` (404 when it is not a receivable the user may see). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "receivables", "view");
  const id = parseId(params.id);
  const item = id ? getReceivable(id, receivableScope(user)) : null;
  if (!item) return data({ error: NOT_FOUND }, { status: 404 });
  return Response.json({ item: { id: item.id, status: item.status, billed_amount_cents: item.billedAmountCents } });
}

async function readJson(request: Request): Promise<unknown> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") throw data({ error: "Envie JSON (Content-Type: application/json)." }, { status: 415 });
  const bytes = await readBytes(request, 64 * 1024);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw data({ error: "JSON inválido." }, { status: 400 });
  }
}

/**
 * PUT `{ status }` moves the receivable (only the allowed moves; anything else 400 `{ error }`),
 * with `paid_on`/`amount_cents` for pago and `glosa: { tiss_code, reason, denied_cents | lines }`
 * for glosa. DELETE removes it from the receivables (ADR 0019: the surgery stays). Admins only.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, "receivables", "view");
  const method = request.method.toUpperCase();
  if (method !== "PUT" && method !== "DELETE") {
    return data({ error: "Use PUT ou DELETE." }, { status: 405, headers: { Allow: "GET, PUT, DELETE" } });
  }
  assertCan(user, "receivables", method === "PUT" ? "edit" : "delete");
  const id = parseId(params.id);
  if (!id || !getReceivable(id)) return data({ error: NOT_FOUND }, { status: 404 });
  try {
    if (method === "DELETE") {
      withAuditRequest(request, () => removeReceivable(user.id, id));
      return Response.json({ message: "Registro excluído com sucesso" });
    }
    const parsed = receivableMoveBodySchema.safeParse(await readJson(request));
    if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Dados inválidos." }, { status: 400 });
    const body = parsed.data;
    const glosa = body.glosa && {
      tissCode: body.glosa.tiss_code,
      reason: body.glosa.reason,
      deniedCents: body.glosa.denied_cents,
      lines: body.glosa.lines?.map((line) => ({ feeLineId: line.fee_line_id, deniedCents: line.denied_cents })),
    };
    const status = withAuditRequest(request, () =>
      moveReceivable(user.id, id, body.status, {
        glosa,
        payment: { paidOn: body.paid_on, amountCents: body.amount_cents, glosa: glosa && { tissCode: glosa.tissCode, reason: glosa.reason } },
      }),
    );
    return Response.json({ item: { id, status } });
  } catch (error) {
    if (error instanceof ReceivableError) return data({ error: error.message }, { status: 400 });
    throw error;
  }
}
