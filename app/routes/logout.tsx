import { LogOut } from "~/components/icons";
import { Form, redirect } from "react-router";
import { Link } from "~/components/ui/link";
import { recordAuthEvent } from "~/.server/audit";
import { assertSameOrigin } from "~/.server/auth";
import { destroyUserSession, getSessionUser } from "~/.server/session";
import { toastHeader } from "~/.server/toast";
import { Button, buttonVariants } from "~/components/ui/button";
import type { Route } from "./+types/logout";

export const meta: Route.MetaFunction = () => [{ title: "Sair · Sinapse" }];

/** Ends the session on the server. Only a POST from our own pages: another site cannot sign anyone out. */
export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  const headers = new Headers();
  headers.append("Set-Cookie", await destroyUserSession(request));
  headers.append("Set-Cookie", await toastHeader({ type: "success", message: "Logged out successfully" }));
  if (user) recordAuthEvent(request, { action: "logout", userId: user.id });
  return redirect("/auth", { headers });
}

/**
 * A GET (a typed URL, a bookmark, a link) does not sign out, since any page could make one; while
 * the session is valid it asks to confirm with a POST, and only an ended session goes to /auth.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) throw redirect("/auth");
  return { name: user.name || user.email };
}

export default function LogoutPage({ loaderData }: Route.ComponentProps) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted p-4">
      <div className="w-full max-w-sm space-y-4 rounded-xl border bg-card p-6 text-center shadow">
        <h1 className="text-xl font-semibold">Sair do Sinapse?</h1>
        <p className="text-sm text-muted-foreground">Você está conectado como {loaderData.name}.</p>
        <Form method="post" className="flex justify-center gap-2">
          <Link to="/dashboard" className={buttonVariants({ variant: "outline" })}>
            Cancelar
          </Link>
          <Button type="submit">
            <LogOut className="size-4" aria-hidden />
            Sair
          </Button>
        </Form>
      </div>
    </main>
  );
}
