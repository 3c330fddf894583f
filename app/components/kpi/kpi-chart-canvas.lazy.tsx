/**
 * The drawing of a <KpiChart> with recharts. Loaded on demand (React.lazy in kpi-chart.tsx), only
 * in the browser: recharts stays out of every page's first load. Colours are the theme's CSS
 * variables, so the chart follows light and dark themes.
 */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { type KpiTableData, formatKpiValue } from "~/lib/kpi";

const COLORS = ["var(--chart-1)", "var(--chart-2)", "var(--chart-3)", "var(--chart-4)", "var(--chart-5)"];
const AXIS = { fill: "var(--muted-foreground)", fontSize: 12 };

export interface KpiChartCanvasProps {
  table: KpiTableData;
  kind: "bar" | "line";
  /** Column key of the categories (the x axis). */
  x: string;
  /** Column keys of the plotted series (same unit). */
  series: string[];
  stacked?: boolean;
  height?: number;
}

export function KpiChartCanvas({ table, kind, x, series, stacked, height = 280 }: KpiChartCanvasProps) {
  const columns = series.map((key) => table.columns.find((c) => c.key === key)).filter((c) => c !== undefined);
  const unit = columns[0]?.unit;
  const format = (value: unknown) => formatKpiValue(unit, typeof value === "number" ? value : null);
  const Chart = kind === "line" ? LineChart : BarChart;
  return (
    <ResponsiveContainer width="100%" height={height}>
      <Chart data={table.rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} accessibilityLayer={false}>
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey={x} tick={AXIS} stroke="var(--border)" />
        <YAxis tick={AXIS} stroke="var(--border)" tickFormatter={(value: number) => format(value)} width={80} allowDecimals={unit !== "count"} />
        <Tooltip
          formatter={(value) => format(value)}
          contentStyle={{ background: "var(--popover)", color: "var(--popover-foreground)", border: "1px solid var(--border)", borderRadius: 6 }}
          labelStyle={{ color: "var(--popover-foreground)" }}
          cursor={{ fill: "var(--muted)", opacity: 0.4 }}
        />
        {columns.length > 1 ? <Legend wrapperStyle={{ color: "var(--foreground)", fontSize: 12 }} /> : null}
        {columns.map((column, i) =>
          kind === "line" ? (
            <Line key={column.key} type="monotone" dataKey={column.key} name={column.header} stroke={COLORS[i % COLORS.length]} strokeWidth={2} dot={false} isAnimationActive={false} />
          ) : (
            <Bar key={column.key} dataKey={column.key} name={column.header} fill={COLORS[i % COLORS.length]} stackId={stacked ? "stack" : undefined} isAnimationActive={false} />
          ),
        )}
      </Chart>
    </ResponsiveContainer>
  );
}
