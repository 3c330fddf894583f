import { Construction } from "~/components/icons";
import { data } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import type { Route } from "./+types/ia";

const ASSISTANTS: Record<string, string> = {
  dashboard: "Dashboard IA",
  triagem: "Triagem",
  mensagens: "Mensagens",
  "opme-copilot": "OPME Copilot",
  aprovacoes: "Aprovações",
  rag: "Base de Conhecimento",
};

export const handle = { title: "Assistentes IA", subtitle: "Recursos de inteligência artificial" };

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.title ?? "Assistentes IA"} · Sinapse` }];

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "assistants", "view");
  const title = ASSISTANTS[routeUrl(request).pathname.replace(/^\/ia\//, "")];
  if (!title) throw data(null, { status: 404 });
  return { title };
}

export default function AssistantPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-3 rounded-xl border bg-card py-16 text-center">
      <Construction className="size-12 text-primary" aria-hidden />
      <h2 className="text-sm font-medium text-muted-foreground">{loaderData.title}</h2>
      <p className="text-2xl font-semibold">Funcionalidade em Desenvolvimento</p>
      <p className="max-w-sm text-muted-foreground">Este assistente ainda está sendo construído e estará disponível em uma próxima versão.</p>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
