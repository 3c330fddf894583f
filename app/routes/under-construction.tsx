import { Construction, LayoutDashboard } from "lucide-react";
import { Link, data } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { buttonVariants } from "~/components/ui/button";
import { requireActiveUser } from "~/.server/auth";
import { SCREEN_TITLES } from "~/lib/navigation";
import type { Route } from "./+types/under-construction";

/**
 * The page of a screen the navigation names but that is not built yet (app/routes.ts mounts it
 * on each such path): the shell stays, and the page says so in plain Portuguese.
 */
export const handle = { title: "Em construção" };

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.pageTitle ?? "Em construção"} · Sinapse` }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireActiveUser(request);
  const pageTitle = SCREEN_TITLES.get(new URL(request.url).pathname.replace(/\/+$/, ""));
  if (!pageTitle) throw data(null, { status: 404 });
  // `pageTitle` is also what the shell's header shows as this page's title.
  return { pageTitle };
}

export default function UnderConstructionPage({ loaderData }: Route.ComponentProps) {
  return (
    <section
      aria-labelledby="under-construction-title"
      className="mx-auto flex max-w-xl flex-col items-center gap-3 rounded-xl border bg-card px-6 py-16 text-center text-card-foreground"
    >
      <Construction className="size-12 text-primary" aria-hidden />
      <h2 id="under-construction-title" className="text-2xl font-semibold">
        Tela em construção
      </h2>
      <p className="max-w-sm text-muted-foreground">
        A tela <strong className="font-medium text-foreground">{loaderData.pageTitle}</strong> está sendo construída e
        estará disponível em uma próxima versão do Sinapse.
      </p>
      <Link to="/dashboard" className={buttonVariants({ variant: "outline", className: "mt-2" })}>
        <LayoutDashboard aria-hidden />
        Voltar ao Dashboard
      </Link>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
