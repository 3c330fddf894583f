import { data } from "react-router";
import { requirePermission } from "~/.server/auth";
import { driveFileJson, handleDriveUpload } from "~/.server/google-drive";
import type { Route } from "./+types/google-drive-upload";

export function loader() {
  return data({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * POST /api/google/drive/upload (SPEC §7): multipart/form-data with the field `file` (PDF or image,
 * up to 20 MB, streamed) → 201 with the stored google_drive_files row; `{ error }` with 400, 413,
 * 415, 409 (not connected) or 502 ('Failed to upload file').
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "googleDrive", "create");
  const outcome = await handleDriveUpload(request, user.id);
  if (!outcome.ok) return data({ error: outcome.message }, { status: outcome.status });
  return Response.json(driveFileJson(outcome.row), { status: 201 });
}
