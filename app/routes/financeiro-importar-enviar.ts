import { assertCan, requirePermission } from "~/.server/auth";
import { withAuditRequest } from "~/.server/audit";
import { DomainError } from "~/.server/domain-error";
import { redirectWithToast } from "~/.server/toast";
import { UPLOAD_MESSAGES, UploadError, discardUpload, receiveUpload } from "~/.server/uploads";
import { IMPORT_MESSAGES, STATEMENT_MAX_BYTES, STATEMENT_MAX_MB, uploadErrorCode } from "~/lib/fee-statement";
import type { Toast } from "~/lib/toast";
import { holdStatement, storeStatementFile } from "~/models/fee-statement.server";
import type { Route } from "./+types/financeiro-importar-enviar";

const PAGE = "/financeiro/importar-honorarios";

/**
 * POST /financeiro/importar-honorarios/enviar (multipart): `intent=upload` keeps a PDF or image
 * statement; `intent=preview` holds a CSV statement and opens its preview (the page at
 * `?preview=<token>`). Admins only, checked before a byte of the body is read; the file streams to
 * disk and is cut off at 20 MB. A plain form gets a redirect (with the toast); the page's script,
 * which sends with `X-Requested-With: XMLHttpRequest` to show the upload's progress, gets JSON.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "feeImports", "view");
  assertCan(user, "feeImports", "create");
  const xhr = request.headers.get("X-Requested-With") === "XMLHttpRequest";

  const fail = (status: 400 | 409 | 413 | 415, message: string) => {
    const toast: Toast = { type: "error", message: IMPORT_MESSAGES.failure, description: message };
    if (xhr) return Response.json({ error: message, toast }, { status });
    return redirectWithToast(`${PAGE}?erro=${uploadErrorCode(message)}`, toast);
  };
  const done = (location: string, toast: Toast | null) => {
    if (xhr) return Response.json({ location, toast });
    return toast ? redirectWithToast(location, toast) : new Response(null, { status: 302, headers: { Location: location } });
  };

  let received;
  try {
    received = await receiveUpload(request, { maxBytes: STATEMENT_MAX_BYTES, maxMb: STATEMENT_MAX_MB, text: true });
  } catch (error) {
    if (error instanceof UploadError) return fail(error.status, error.message);
    throw error;
  }
  const file = received.file;
  const intent = received.fields.intent;
  if (intent !== "upload" && intent !== "preview") {
    discardUpload(file);
    return fail(400, "Ação desconhecida.");
  }
  if (!file) return fail(400, UPLOAD_MESSAGES.missing);
  const isText = file.mimeType === "text/csv";
  if (intent === "upload" && isText) {
    discardUpload(file);
    return fail(415, UPLOAD_MESSAGES.type);
  }
  if (intent === "preview" && !isText) {
    discardUpload(file);
    return fail(415, IMPORT_MESSAGES.notCsv);
  }
  try {
    if (intent === "upload") {
      await withAuditRequest(request, () => storeStatementFile(user.id, file));
      return done(PAGE, { type: "success", message: IMPORT_MESSAGES.success });
    }
    const { pending } = holdStatement(file);
    return done(`${PAGE}?preview=${pending.token}`, null);
  } catch (error) {
    discardUpload(file);
    if (error instanceof DomainError) return fail(409, error.message);
    throw error;
  }
}
