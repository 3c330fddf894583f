import { can } from "~/lib/permissions";
import { type SessionUser, requireActiveUser } from "./auth";
import { redirectWithToast } from "./toast";

/** SPEC §8: what a non-admin is told when sent away from /financial. */
export const FINANCE_DENIED = "You don't have permission to access financial data";

/**
 * The guard of /financial and its export (loader and action alike): an admin passes; anyone else
 * with a role is sent to /dashboard with SPEC §8's message (ADR 0018). An account still awaiting a
 * role gets the usual 403, an anonymous visitor the usual trip to /auth.
 */
export async function requireFinanceAccess(request: Request): Promise<SessionUser> {
  const user = await requireActiveUser(request);
  if (can(user, "financial", "view")) return user;
  throw await redirectWithToast("/dashboard", { type: "error", message: FINANCE_DENIED });
}
