import { data } from "react-router";
import { requirePermission } from "~/.server/auth";
import { attachmentHeaders, storedStream } from "~/.server/uploads";
import { parseId } from "~/lib/list-params";
import { prepareDownload } from "~/models/document.server";
import type { Route } from "./+types/files.download";

/**
 * GET /files/:id/download: the stored file, only after the permission check, a check that the
 * bytes on disk are still those uploaded (size and SHA-256) and an audit entry. Always an
 * attachment with its sniffed type and `nosniff`, so no browser renders it as a page.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "files", "view");
  const id = parseId(params.id);
  if (!id) throw data({ error: "Documento não encontrado." }, { status: 404 });
  const download = await prepareDownload(request, user, id);
  if (download.status === "not-found") throw data({ error: "Documento não encontrado." }, { status: 404 });
  if (download.status === "missing") {
    throw data({ error: "O arquivo deste documento não foi encontrado no armazenamento. Avise o administrador." }, { status: 410 });
  }
  if (download.status === "corrupt") {
    throw data(
      { error: "O arquivo deste documento está diferente do que foi enviado (soma de verificação não confere) e não será entregue. Avise o administrador." },
      { status: 409 },
    );
  }
  if (download.status !== "ok") throw data({ error: "Documento não encontrado." }, { status: 404 });
  const { doc } = download;
  return new Response(storedStream(download.path), {
    headers: attachmentHeaders(doc),
  });
}
