import { redirect } from "react-router";
import { requirePermission } from "~/.server/auth";
import { GOOGLE_MESSAGES, googleConfig, startAuthorization } from "~/.server/google";
import { routeUrl } from "~/.server/route-url";
import { sessionKey } from "~/.server/session";
import { redirectWithToast } from "~/.server/toast";
import type { Route } from "./+types/google-auth-start";

/**
 * GET /api/google/auth/start (SPEC §7): the browser navigates here and is sent on to Google's
 * consent page, with a fresh single-use `state` bound to this session. `?returnTo=` names the
 * integration page to come back to. Connecting the clinic's account is an administrator's act.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "googleCalendar", "edit");
  const returnTo = routeUrl(request).searchParams.get("returnTo") ?? "/google-calendar";
  const config = googleConfig();
  const key = await sessionKey(request);
  if (!config || !key) return redirectWithToast("/google-calendar", { type: "error", message: GOOGLE_MESSAGES.startFailed });
  try {
    return redirect(await startAuthorization(config, { userId: user.id, sessionKey: key, returnTo }));
  } catch (error) {
    console.error("Google authorisation could not start", error);
    return redirectWithToast("/google-calendar", { type: "error", message: GOOGLE_MESSAGES.startFailed });
  }
}
