import { redirect } from "react-router";
import { recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import { destroyUserSession, getSessionUser } from "~/.server/session";
import { toastHeader } from "~/.server/toast";
import type { Route } from "./+types/logout";

export async function action({ request }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  const headers = new Headers();
  headers.append("Set-Cookie", await destroyUserSession(request));
  headers.append("Set-Cookie", await toastHeader({ type: "success", message: "Logged out successfully" }));
  if (user) recordAudit(db, { userId: user.id, action: "logout", entity: "session" });
  return redirect("/auth", { headers });
}

export function loader() {
  return redirect("/auth");
}
