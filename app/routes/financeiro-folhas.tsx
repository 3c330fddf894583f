import { FileText, Upload } from "~/components/icons";
import { useLocation } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import type { Route } from "./+types/financeiro-folhas";

const SHEETS = {
  "/financeiro/folhas-sala": {
    title: "Folhas de Sala",
    text: "A folha de sala (ou o demonstrativo do hospital) chega como PDF ou foto. Guarde-a com os honorários, ou importe o demonstrativo em CSV para dar baixa nos recebíveis.",
  },
  "/financeiro/folhas-unimed": {
    title: "Folhas Unimed",
    text: "Os demonstrativos de pagamento da Unimed chegam em PDF ou CSV. O CSV dá baixa nas cirurgias pagas e abre as glosas de uma vez, linha a linha.",
  },
} as const;

export const handle = { title: "Folhas", subtitle: "Demonstrativos de honorários" };
export const meta: Route.MetaFunction = ({ location }) => [
  { title: `${SHEETS[location.pathname as keyof typeof SHEETS]?.title ?? "Folhas"} · Sinapse` },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "receivables", "view");
  return null;
}

/** /financeiro/folhas-sala and /financeiro/folhas-unimed (SPEC §2): both lead to the import page. */
export default function SheetsPage() {
  const { pathname } = useLocation();
  const sheet = SHEETS[pathname as keyof typeof SHEETS] ?? SHEETS["/financeiro/folhas-sala"];
  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <FileText aria-hidden className="size-5" />
          {sheet.title}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-muted-foreground">{sheet.text}</p>
        <ButtonLink to="/financeiro/importar-honorarios">
          <Upload aria-hidden className="size-4" />
          Ir para Importar Honorários
        </ButtonLink>
      </CardContent>
    </Card>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
