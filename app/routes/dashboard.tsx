import { RouteErrorBoundary } from "~/components/route-error";
import { requirePermission } from "~/.server/auth";
import type { Route } from "./+types/dashboard";

export const handle = { title: "Dashboard", subtitle: "Visão geral da clínica" };
export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "patients", "view");
  return { name: user.name };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <section className="space-y-2">
      <h2 className="text-2xl font-semibold">Olá, {loaderData.name || "Usuário"}</h2>
      <p className="text-muted-foreground">Bem-vindo ao Sinapse.</p>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
