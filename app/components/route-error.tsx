import { ShieldAlert, SearchX, TriangleAlert } from "~/components/icons";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { Link } from "~/components/ui/link";

function messageOf(data: unknown): string | null {
  if (data && typeof data === "object" && typeof (data as { error?: unknown }).error === "string") {
    return (data as { error: string }).error;
  }
  return null;
}

/**
 * Errors of a page inside the shell: the sidebar and header stay, the page says what happened.
 * Route modules re-export it as their ErrorBoundary.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  let Icon = TriangleAlert;
  let title = "Unexpected Application Error!";
  let text = "Algo deu errado ao carregar esta página. Tente novamente.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) {
      Icon = ShieldAlert;
      title = "Acesso negado";
      text = messageOf(error.data) ?? "Você não tem permissão para acessar esta página.";
    } else if (error.status === 404) {
      Icon = SearchX;
      title = "Não encontrado";
      text = messageOf(error.data) ?? "O registro procurado não existe ou foi excluído.";
    } else if (error.status === 400) {
      title = "Requisição inválida";
      text = messageOf(error.data) ?? "Os dados enviados não são válidos.";
    }
  } else {
    console.error(error);
  }
  return (
    <div role="alert" className="mx-auto flex max-w-lg flex-col items-center gap-3 py-16 text-center">
      <Icon className="size-10 text-muted-foreground" aria-hidden />
      <h2 className="text-xl font-semibold">{title}</h2>
      <p className="text-muted-foreground">{text}</p>
      <Link to="/dashboard" className="text-primary underline underline-offset-4">
        Ir para o Dashboard
      </Link>
    </div>
  );
}
