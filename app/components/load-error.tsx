import { AlertTriangle } from "~/components/icons";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";

/**
 * The ErrorBoundary of a screen whose read failed: SPEC §8's 'Erro ao carregar …' for that screen;
 * 400/403/404 keep the shell's messages.
 */
export function loadErrorBoundary(message: string) {
  return function LoadErrorBoundary() {
    const error = useRouteError();
    if (isRouteErrorResponse(error) && error.status < 500) return <RouteErrorBoundary />;
    console.error(error);
    return (
      <div role="alert" className="mx-auto flex max-w-lg flex-col items-center gap-3 py-16 text-center">
        <AlertTriangle className="size-10 text-muted-foreground" aria-hidden />
        <h2 className="text-xl font-semibold">{message}</h2>
        <p className="text-muted-foreground">Tente novamente em instantes.</p>
      </div>
    );
  };
}
