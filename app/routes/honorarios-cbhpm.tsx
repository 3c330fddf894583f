import { data } from "react-router";
import { SearchForm } from "~/components/data-table";
import { EmptyState } from "~/components/empty-state";
import { ReportError } from "~/components/honorarios/report-error";
import { RouteErrorBoundary } from "~/components/route-error";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { codeLookupParams } from "~/lib/fees/report-params";
import { formatBRL } from "~/lib/money";
import { cbhpmCodeLookup } from "~/models/honorarios.server";
import type { Route } from "./+types/honorarios-cbhpm";

export const handle = { title: "Códigos CBHPM", subtitle: "Valor de referência por edição e quantas cirurgias usaram cada código" };
export const meta: Route.MetaFunction = () => [{ title: "Códigos CBHPM · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "honorarios", "view");
  const url = routeUrl(request);
  // The screen's search box is `q`; the API's parameter is `code`.
  const params = new URLSearchParams({ code: url.searchParams.get("q") ?? url.searchParams.get("code") ?? "" });
  const parsed = codeLookupParams(params);
  if (!parsed.ok) return data({ rows: [], error: parsed.error }, { status: 400 });
  return { rows: cbhpmCodeLookup(parsed.value), error: null };
}

export default function CbhpmLookupPage({ loaderData }: Route.ComponentProps) {
  const { rows, error } = loaderData;
  return (
    <div className="space-y-4">
      <SearchForm placeholder="Código CBHPM (ex.: 3.07.15 ou 30715180)..." label="Buscar código CBHPM" className="w-full max-w-md" />
      <ReportError error={error} />
      {rows.length ? (
        <Table aria-label="Códigos CBHPM">
          <TableHeader>
            <TableRow>
              <TableHead>Código</TableHead>
              <TableHead>Descrição</TableHead>
              <TableHead>Edição</TableHead>
              <TableHead className="text-right">Valor de referência</TableHead>
              <TableHead className="text-right">Cirurgias</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={`${row.code}:${row.year}`}>
                <TableCell className="whitespace-nowrap font-medium">{row.code}</TableCell>
                <TableCell>{row.description}</TableCell>
                <TableCell>{row.year}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatBRL(row.base_value_cents)}</TableCell>
                <TableCell className="text-right tabular-nums">{row.usage_count}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <EmptyState title="Nenhum código encontrado" description="Busque pelo início do código, com ou sem pontuação." />
      )}
      {rows.length === 50 ? <p className="text-sm text-muted-foreground">Mostrando os 50 primeiros códigos: refine a busca.</p> : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
