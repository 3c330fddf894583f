import { redirect } from "react-router";
import { getSessionUser } from "~/.server/session";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  throw redirect(user ? "/dashboard" : "/auth");
}
