import { Info } from "~/components/icons";
import { KpiExportLink } from "~/components/kpi/kpi-chart";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { KPI_NO_VALUE, type KpiFigureData, formatDelta, formatKpiValue } from "~/lib/kpi";
import { cn } from "~/lib/utils";

/**
 * One KPI: label, value in its unit (pt-BR), the change against the previous period of the same
 * length, and the formula, shown on hover and on keyboard focus of the 'i' button (a CSS tooltip
 * that is also the button's description, so it works without JavaScript and is read aloud).
 * Without a value: '—' and the one-line reason.
 */
export function KpiFigure({ figure, className }: { figure: KpiFigureData; className?: string }) {
  // Ids from the report, not useId: the markup is kept between requests (KpiReportBody).
  const formulaId = `kpi-figure-${figure.id}-formula`;
  const delta = formatDelta(figure.deltaPercent);
  const previous =
    figure.previous === null ? "sem dados no período anterior" : `anterior: ${formatKpiValue(figure.unit, figure.previous)}`;
  return (
    <Card className={cn("gap-2", className)} data-kpi={figure.id}>
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <CardTitle as="h3" className="text-sm font-medium text-muted-foreground">
          {figure.label}
        </CardTitle>
        <span className="group relative">
          <button
            type="button"
            aria-describedby={formulaId}
            className="rounded-sm text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            onKeyDown={(event) => {
              if (event.key === "Escape") event.currentTarget.blur();
            }}
          >
            <Info aria-hidden className="size-4" />
            <span className="sr-only">Fórmula de {figure.label}</span>
          </button>
          <span
            id={formulaId}
            role="tooltip"
            className="invisible absolute right-0 top-6 z-20 w-64 rounded-md border bg-popover p-2 text-xs text-popover-foreground shadow-md group-hover:visible group-focus-within:visible"
          >
            {figure.formula}
          </span>
        </span>
      </CardHeader>
      <CardContent className="grid gap-1">
        <div className="text-2xl font-bold tracking-tight tabular-nums" data-kpi-value>
          {figure.current === null ? KPI_NO_VALUE : formatKpiValue(figure.unit, figure.current)}
        </div>
        {figure.current === null ? (
          <p className="text-xs text-muted-foreground">{figure.reason}</p>
        ) : (
          <>
            {figure.note ? <p className="text-xs text-muted-foreground">{figure.note}</p> : null}
            <p className="text-xs text-muted-foreground" data-kpi-delta>
              {delta ? <span className="font-medium text-foreground">{delta}</span> : null}
              {delta ? " vs período anterior · " : null}
              {previous}
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The figures of a screen in a responsive grid, under a heading. */
export function KpiFigureGrid({ title, figures, exportHref }: { title: string; figures: KpiFigureData[]; exportHref?: string | null }) {
  const id = `kpi-figures-${title.normalize("NFD").replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {exportHref ? <KpiExportLink href={exportHref} /> : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {figures.map((figure) => (
          <KpiFigure key={figure.id} figure={figure} />
        ))}
      </div>
    </section>
  );
}
