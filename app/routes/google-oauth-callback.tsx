import { CircleCheck, CircleX, LoaderCircle } from "~/components/icons";
import { useEffect, useMemo } from "react";
import { data, useNavigate, useNavigation } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { GOOGLE_MESSAGES, completeAuthorization, googleConfig } from "~/.server/google";
import { routeUrl } from "~/.server/route-url";
import { sessionKey } from "~/.server/session";
import { useToastEffect } from "~/lib/use-toast-effect";
import type { Route } from "./+types/google-oauth-callback";

export const handle = { title: "Google", subtitle: "Conexão com a conta Google" };
export const meta: Route.MetaFunction = () => [{ title: "Conexão com o Google · Sinapse" }];

/** SPEC §9: back to the integration page 2 s after a success, 3 s after an error. */
const SUCCESS_DELAY_MS = 2000;
const ERROR_DELAY_MS = 3000;

/**
 * Google sends the browser back here with `code` and `state` (or `error`). The exchange happens in
 * the loader, so the page arrives already in its final state (success or error) and goes back by
 * itself: a meta refresh without JavaScript, a navigation with it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "googleCalendar", "view");
  const query = routeUrl(request).searchParams;
  const params = { code: query.get("code"), state: query.get("state"), error: query.get("error") };
  const config = googleConfig();
  const outcome = config
    ? await completeAuthorization(config, params, { userId: user.id, sessionKey: await sessionKey(request) })
    : ({ ok: false, status: 400, message: GOOGLE_MESSAGES.callbackFailed } as const);
  if (outcome.ok) {
    return { status: "success" as const, message: GOOGLE_MESSAGES.connected, returnTo: outcome.returnTo, delayMs: SUCCESS_DELAY_MS };
  }
  return data(
    { status: "error" as const, message: outcome.message, returnTo: "/google-calendar", delayMs: ERROR_DELAY_MS },
    { status: outcome.status },
  );
}

export default function GoogleOAuthCallbackPage({ loaderData }: Route.ComponentProps) {
  const { status, message, returnTo, delayMs } = loaderData;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const processing = navigation.state === "loading" && navigation.location.pathname === "/google/oauth/callback";
  useToastEffect(useMemo(() => ({ type: status === "success" ? ("success" as const) : ("error" as const), message }), [status, message]));
  useEffect(() => {
    const timer = setTimeout(() => navigate(returnTo, { replace: true }), delayMs);
    return () => clearTimeout(timer);
  }, [navigate, returnTo, delayMs]);
  const Icon = processing ? LoaderCircle : status === "success" ? CircleCheck : CircleX;
  return (
    <section
      aria-labelledby="oauth-title"
      className="mx-auto flex max-w-xl flex-col items-center gap-3 rounded-xl border bg-card px-6 py-12 text-center text-card-foreground"
    >
      <meta httpEquiv="refresh" content={`${delayMs / 1000};url=${returnTo}`} />
      <Icon aria-hidden className={status === "success" ? "size-12 text-success" : "size-12 text-destructive"} />
      <div role="status" className="grid gap-2">
        <h2 id="oauth-title" className="text-xl font-semibold">
          {processing ? "Processando autenticação..." : message}
        </h2>
        <p className="text-sm text-muted-foreground">Voltando em {delayMs / 1000} segundos.</p>
      </div>
      <ButtonLink to={returnTo} variant="outline">
        Voltar agora
      </ButtonLink>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
