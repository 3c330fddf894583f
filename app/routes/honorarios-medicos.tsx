import { data } from "react-router";
import { ReportError } from "~/components/honorarios/report-error";
import { FilterBar, dateRangeFields } from "~/components/filter-bar";
import { RouteErrorBoundary } from "~/components/route-error";
import { EmptyState } from "~/components/empty-state";
import { KeptTableBody, Table, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { cacheKeyOf } from "~/lib/markup-cache";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { doctorReportParams } from "~/lib/fees/report-params";
import { formatBRL } from "~/lib/money";
import { feesByDoctor } from "~/models/honorarios.server";
import { listDoctorFilterOptions } from "~/models/doctor-options.server";
import { optionsOf } from "~/models/filter-options.server";
import { feeViewerOf } from "~/models/surgery-fees.server";
import type { Route } from "./+types/honorarios-medicos";
import { registryOption } from "~/lib/form-options";

export const handle = { title: "Honorários por médico", subtitle: "Cirurgias e totais como cirurgião principal, auxiliar e anestesista" };
export const meta: Route.MetaFunction = () => [{ title: "Honorários por médico · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "honorarios", "view");
  const url = routeUrl(request);
  const viewer = feeViewerOf(user);
  const parsed = doctorReportParams(url.searchParams);
  const filters = { from: url.searchParams.get("from"), to: url.searchParams.get("to"), doctorId: url.searchParams.get("doctor_id") };
  const doctorOptions = viewer.ownDoctorOnly ? [] : optionsOf(listDoctorFilterOptions(), registryOption);
  if (!parsed.ok) return data({ rows: [], error: parsed.error, filters, doctorOptions, ownOnly: viewer.ownDoctorOnly }, { status: 400 });
  return { rows: feesByDoctor(parsed.value, viewer), error: null, filters, doctorOptions, ownOnly: viewer.ownDoctorOnly };
}

export default function FeesByDoctorPage({ loaderData }: Route.ComponentProps) {
  const { rows, error, filters, doctorOptions, ownOnly } = loaderData;
  const sum = (key: "qty" | "total_principal" | "total_auxiliar" | "total_anestesista" | "total") => rows.reduce((total, row) => total + row[key], 0);
  return (
    <div className="space-y-4">
      <FilterBar
        fields={[
          ...dateRangeFields(filters),
          ...(ownOnly ? [] : [{ name: "doctor_id", label: "Médico", all: "Todos os médicos", options: doctorOptions, value: filters.doctorId, width: "w-60" }]),
        ]}
        keep={{}}
      />
      <ReportError error={error} />
      {rows.length ? (
        <Table aria-label="Honorários por médico">
          <TableHeader>
            <TableRow>
              <TableHead>Médico</TableHead>
              <TableHead>Especialidade</TableHead>
              <TableHead className="text-right">Cirurgias</TableHead>
              <TableHead className="text-right">Principal</TableHead>
              <TableHead className="text-right">Auxiliar</TableHead>
              <TableHead className="text-right">Anestesista</TableHead>
              <TableHead className="text-right">Total</TableHead>
            </TableRow>
          </TableHeader>
          {/* The rows are the report the data cache keeps until a write (feesByDoctor): their markup is kept with it. */}
          <KeptTableBody id="fees-by-doctor-rows" cacheKey={cacheKeyOf(["fees-by-doctor"], rows)}>
            {() => rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell className="font-medium">{row.name}</TableCell>
                <TableCell>{row.specialty}</TableCell>
                <TableCell className="text-right tabular-nums">{row.qty}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatBRL(row.total_principal)}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatBRL(row.total_auxiliar)}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatBRL(row.total_anestesista)}</TableCell>
                <TableCell className="whitespace-nowrap text-right font-medium tabular-nums">{formatBRL(row.total)}</TableCell>
              </TableRow>
            ))}
          </KeptTableBody>
          {rows.length > 1 ? (
            <TableFooter>
              <TableRow>
                <TableCell colSpan={2} className="font-medium">
                  Total
                </TableCell>
                <TableCell className="text-right tabular-nums">{sum("qty")}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatBRL(sum("total_principal"))}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatBRL(sum("total_auxiliar"))}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatBRL(sum("total_anestesista"))}</TableCell>
                <TableCell className="whitespace-nowrap text-right font-medium tabular-nums">{formatBRL(sum("total"))}</TableCell>
              </TableRow>
            </TableFooter>
          ) : null}
        </Table>
      ) : (
        <EmptyState title="Nenhum honorário no período" description={ownOnly ? "Seus honorários aparecem aqui quando calculados." : "Ajuste as datas ou o médico."} />
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
