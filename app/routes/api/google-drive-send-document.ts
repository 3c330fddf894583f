import { data } from "react-router";
import { requirePermission } from "~/.server/auth";
import { GOOGLE_MESSAGES, GoogleError } from "~/.server/google";
import { sendDocumentToDrive } from "~/.server/google-drive";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { redirectWithToast } from "~/.server/toast";
import { safeReturnTo } from "~/lib/list-params";
import type { Route } from "./+types/google-drive-send-document";

export function loader() {
  return data({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * POST /api/google/drive/send-document?returnTo=… (`intent=send`, `id` the document): a patient's
 * document to the patient's Drive folder, from the patient record; back to `returnTo` with a toast.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "googleDrive", "create");
  const back = safeReturnTo(routeUrl(request).searchParams.get("returnTo")) ?? "/google-drive";
  return dispatchIntent(request, user, {
    back,
    notFoundMessage: "Documento não encontrado.",
    intents: {
      send: intent({
        permission: ["googleDrive", "create"],
        record: true,
        run: async ({ user: sender, id }) => {
          try {
            await sendDocumentToDrive(sender.id, id);
          } catch (error) {
            if (error instanceof GoogleError) return redirectWithToast(back, { type: "error", message: GOOGLE_MESSAGES.uploadFailed });
            throw error;
          }
        },
        success: GOOGLE_MESSAGES.uploaded,
        failure: GOOGLE_MESSAGES.uploadFailed,
      }),
    },
  });
}
