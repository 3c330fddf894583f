import { Download } from "~/components/icons";
import { Suspense, lazy, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { type KpiTableData, formatKpiValue } from "~/lib/kpi";
import { cn } from "~/lib/utils";
import type { KpiChartCanvasProps } from "./kpi-chart-canvas.lazy";

// recharts is loaded only here, on demand, in the browser: never in a page's first load.
const KpiChartCanvas = lazy(() => import("./kpi-chart-canvas.lazy").then((m) => ({ default: m.KpiChartCanvas })));


/** 'Exportar CSV' of one table: a plain link to the screen's export with the same query. */
export function KpiExportLink({ href, label = "Exportar CSV" }: { href: string; label?: string }) {
  return (
    <a href={href} download className={buttonVariants({ variant: "outline", size: "sm" })}>
      <Download aria-hidden />
      {label}
    </a>
  );
}

/** The data of a table, cell by cell in its units: the truth a chart draws. */
export function KpiTable({ table, className, caption = true }: { table: KpiTableData; className?: string; caption?: boolean }) {
  if (table.rows.length === 0) {
    return <p className={cn("text-sm text-muted-foreground", className)}>{table.empty ?? "Sem dados no período."}</p>;
  }
  return (
    <Table className={className} data-kpi-table={table.id}>
      {caption ? <TableCaption className="sr-only">{table.title}</TableCaption> : null}
      <TableHeader>
        <TableRow>
          {table.columns.map((column) => (
            <TableHead key={column.key} className={column.unit ? "text-right" : undefined}>
              {column.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {table.rows.map((row, i) => (
          <TableRow key={i}>
            {table.columns.map((column, j) =>
              j === 0 ? (
                <TableHead key={column.key} scope="row" className="font-normal">
                  {formatKpiValue(column.unit, row[column.key] ?? null)}
                </TableHead>
              ) : (
                <TableCell key={column.key} className={column.unit ? "text-right tabular-nums" : undefined}>
                  {formatKpiValue(column.unit, row[column.key] ?? null)}
                </TableCell>
              ),
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * A titled card with a table and, once the page runs JavaScript, a chart of it. The table is
 * rendered by the server and is the truth: without JavaScript it is what the user sees; with it,
 * the chart (hidden from assistive technology) is drawn and the table stays for screen readers,
 * shown on request ('Mostrar tabela').
 */
export function KpiChart({
  table,
  exportHref,
  ...chart
}: Omit<KpiChartCanvasProps, "table" | "height"> & { table: KpiTableData; exportHref?: string | null; height?: number }) {
  const hydrated = useHydrated();
  const [showTable, setShowTable] = useState(false);
  // An id from the table, not useId: the markup is kept between requests (KpiReportBody).
  const id = `kpi-table-${table.id}`;
  const drawn = hydrated && table.rows.length > 0;
  return (
    <Card className="gap-3" data-kpi-chart={table.id}>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle as="h3" id={`${id}-title`} className="text-base">
          {table.title}
        </CardTitle>
        <div className="flex flex-wrap gap-2">
          {drawn ? (
            <Button type="button" variant="ghost" size="sm" aria-expanded={showTable} aria-controls={`${id}-table`} onClick={() => setShowTable((v) => !v)}>
              {showTable ? "Ocultar tabela" : "Mostrar tabela"}
            </Button>
          ) : null}
          {exportHref ? <KpiExportLink href={exportHref} /> : null}
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {drawn ? (
          <div aria-hidden="true" className="w-full" style={{ height: chart.height ?? 280 }}>
            <Suspense fallback={<div className="h-full rounded-md bg-muted" />}>
              <KpiChartCanvas table={table} {...chart} />
            </Suspense>
          </div>
        ) : null}
        {/* Hidden for the eye only; its 1-pixel box must not make the table a scrollable region. */}
        <div id={`${id}-table`} className={drawn && !showTable ? "sr-only [&_[data-slot=table-container]]:overflow-visible" : undefined}>
          <KpiTable table={table} />
        </div>
      </CardContent>
    </Card>
  );
}
