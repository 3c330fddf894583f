import { data } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { FilterBar, dateRangeFields } from "~/components/filter-bar";
import { ReportError } from "~/components/honorarios/report-error";
import { RouteErrorBoundary } from "~/components/route-error";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { PAYER_TYPE_LABELS, labelFor } from "~/lib/enums";
import { payerReportParams } from "~/lib/fees/report-params";
import { formatBRL } from "~/lib/money";
import { payerSummary } from "~/models/honorarios.server";
import { listPayerOptions } from "~/models/surgery.server";
import type { Route } from "./+types/honorarios-pagador";
import { registryOption } from "~/lib/form-options";
import { optionsOf } from "~/models/filter-options.server";

export const handle = { title: "Honorários por pagador", subtitle: "Cirurgias realizadas, total faturado e prazo médio de pagamento" };
export const meta: Route.MetaFunction = () => [{ title: "Honorários por pagador · Sinapse" }];

const DAY_FORMAT = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** SPEC §9: average payment days = seconds / 86400. */
function paymentDays(seconds: number | null) {
  return seconds === null ? "-" : `${DAY_FORMAT.format(seconds / 86_400)} dias`;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "payerReports", "view");
  const url = routeUrl(request);
  const parsed = payerReportParams(url.searchParams);
  const filters = { from: url.searchParams.get("from"), to: url.searchParams.get("to"), payerId: url.searchParams.get("payer_id") };
  const payerOptions = optionsOf(listPayerOptions(), registryOption);
  if (!parsed.ok) return data({ rows: [], error: parsed.error, filters, payerOptions }, { status: 400 });
  return { rows: payerSummary(parsed.value), error: null, filters, payerOptions };
}

export default function FeesByPayerPage({ loaderData }: Route.ComponentProps) {
  const { rows, error, filters, payerOptions } = loaderData;
  return (
    <div className="space-y-4">
      <FilterBar
        fields={[
          ...dateRangeFields(filters),
          { name: "payer_id", label: "Pagador", all: "Todos os pagadores", options: payerOptions, value: filters.payerId, width: "w-60" },
        ]}
        keep={{}}
      />
      <ReportError error={error} />
      {rows.length ? (
        <Table aria-label="Honorários por pagador">
          <TableHeader>
            <TableRow>
              <TableHead>Pagador</TableHead>
              <TableHead>Tipo</TableHead>
              <TableHead className="text-right">Cirurgias</TableHead>
              <TableHead className="text-right">Total faturado</TableHead>
              <TableHead className="text-right">Prazo médio de pagamento</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell className="font-medium">{row.name}</TableCell>
                <TableCell>{labelFor(PAYER_TYPE_LABELS, row.type)}</TableCell>
                <TableCell className="text-right tabular-nums">{row.qty}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatBRL(row.total)}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{paymentDays(row.avg_payment_days)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <EmptyState title="Nenhuma cirurgia realizada no período" description="Ajuste as datas ou o pagador." />
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
