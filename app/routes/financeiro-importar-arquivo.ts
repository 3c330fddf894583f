import { data } from "react-router";
import { recordDownload } from "~/.server/audit";
import { requirePermission } from "~/.server/auth";
import { attachmentHeaders, storedStream, verifyStored } from "~/.server/uploads";
import { parseId } from "~/lib/list-params";
import { getImport } from "~/models/fee-statement.server";
import type { Route } from "./+types/financeiro-importar-arquivo";

/**
 * GET /financeiro/importar-honorarios/:id/arquivo: a received statement (PDF, image or the CSV
 * applied), for admins and staff, once its bytes are checked against the hash taken on upload;
 * always an attachment, audited.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "feeImports", "view");
  const id = parseId(params.id);
  const row = id ? getImport(id) : null;
  if (!row?.storageName || !row.sha256) throw data({ error: "Arquivo não encontrado." }, { status: 404 });
  const check = await verifyStored(row.storageName, { sizeBytes: row.sizeBytes, sha256: row.sha256 });
  if (!check.ok) {
    console.error(`Fee statement ${row.id}: stored file ${check.reason} (${row.storageName})`);
    throw data({ error: "O arquivo deste demonstrativo não está íntegro no armazenamento. Avise o administrador." }, { status: 410 });
  }
  recordDownload(request, user, "fee_statement_import", row.id);
  return new Response(storedStream(check.path), { headers: attachmentHeaders(row) });
}
