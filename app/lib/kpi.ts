/**
 * The data of a KPI screen: figures and tables, how each unit is shown and exported. Browser-safe.
 *
 * A model (app/models/kpi-*.server.ts) computes a `KpiReport` for a period; the screen draws its
 * figures with <KpiFigure>, its tables with <KpiChart>/<KpiTable>, and the CSV export writes the
 * very same values (`kpiTableCsvRows`, `kpiFiguresCsvRows`), so the file and the screen agree.
 *
 * Units: `count` (integer), `ratio` (an average count, one decimal: 1,5 quotes per request), `cents` (integer cents, shown as BRL), `percent` (percentage points,
 * 12.5 = 12,5 %), `days` and `minutes` (one decimal). A figure that cannot be computed has
 * `value: null` and a one-line `reason`; it is shown as '—', never as an invented number.
 */
import { type FigureComparison, compareFigures } from "./kpi-period";
import { formatBRL } from "./money";
import type { CsvCell } from "./csv";

export type KpiUnit = "count" | "ratio" | "cents" | "percent" | "days" | "minutes";

export const KPI_NO_VALUE = "—";

export interface KpiFigureData extends FigureComparison {
  id: string;
  label: string;
  unit: KpiUnit;
  /** How the figure is computed, in Portuguese, shown on hover/focus. */
  formula: string;
  /** Why there is no value (shown under '—'); only when `current` is null. */
  reason?: string;
  /** A short line under the value (what it counts), optional. */
  note?: string;
}

/** A figure of the current period compared with the previous one; `reason` is kept only when there is no value. */
export function kpiFigure(options: {
  id: string;
  label: string;
  unit: KpiUnit;
  formula: string;
  current: number | null;
  previous: number | null;
  reason?: string;
  note?: string;
}): KpiFigureData {
  const { current, previous, reason, note, ...rest } = options;
  const figure: KpiFigureData = { ...rest, ...compareFigures(current, previous) };
  if (figure.current === null) figure.reason = reason ?? "Sem dados no período";
  if (note) figure.note = note;
  return figure;
}

/** A figure that cannot be computed from the data there is (the reason says why). */
export function unavailableFigure(options: { id: string; label: string; unit: KpiUnit; formula: string; reason: string }): KpiFigureData {
  return kpiFigure({ ...options, current: null, previous: null });
}

export interface KpiColumn {
  key: string;
  header: string;
  /** Omitted for text columns (the first column, usually). */
  unit?: KpiUnit;
}

export type KpiCell = string | number | null;

export interface KpiTableData {
  /** The `tabela` parameter of its CSV export. */
  id: string;
  title: string;
  columns: KpiColumn[];
  rows: Array<Record<string, KpiCell>>;
  /** Shown instead of an empty table. */
  empty?: string;
}

/** An option of a KPI screen's doctor or payer select. */
export interface KpiFilterOption {
  value: string;
  label: string;
}

export interface KpiReport {
  figures: KpiFigureData[];
  tables: KpiTableData[];
}

const integer = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Rounds to one decimal (percent, days, minutes); counts and cents are integers. */
export function roundKpi(unit: KpiUnit, value: number): number {
  return unit === "count" || unit === "cents" ? Math.round(value) : Math.round(value * 10) / 10;
}

/**
 * part ÷ whole × 100 rounded half up (SPEC §9 'rounded') to one decimal, or to a whole percent with
 * `decimals` 0; null when whole is 0. Exact for integer counts and cents (BigInt), so ties round up:
 * 23/80 → 28.8 and 201/400 → 50.3, where the float product `part / whole * 1000` lands just below
 * the tie.
 */
export function kpiPercent(part: number, whole: number, decimals: 0 | 1 = 1): number | null {
  if (whole === 0) return null;
  const scale = decimals === 1 ? 10 : 1;
  if (!Number.isInteger(part) || !Number.isInteger(whole)) return Math.round((part / whole) * 100 * scale) / scale;
  const sign = whole < 0 ? -1n : 1n;
  // floor((2 · 100 · scale · part + whole) / (2 · whole)), with the whole made positive.
  const numerator = (2n * 100n * BigInt(scale) * BigInt(part) + BigInt(whole)) * sign;
  const denominator = 2n * BigInt(whole) * sign;
  const quotient = numerator / denominator - (numerator < 0n && numerator % denominator !== 0n ? 1n : 0n);
  return Number(quotient) / scale;
}

/** pt-BR text of a value: '1.234', 'R$ 1.234,56', '12,5%', '3,2 dias', '120,0 min'; '—' when missing. */
export function formatKpiValue(unit: KpiUnit | undefined, value: KpiCell): string {
  if (value === null || value === undefined) return KPI_NO_VALUE;
  if (typeof value === "string") return value;
  if (!Number.isFinite(value)) return KPI_NO_VALUE;
  switch (unit) {
    case "cents":
      return formatBRL(value);
    case "percent":
      return `${oneDecimal.format(value)}%`;
    case "days":
      return `${oneDecimal.format(value)} ${value === 1 ? "dia" : "dias"}`;
    case "minutes":
      return `${oneDecimal.format(value)} min`;
    case "ratio":
      return oneDecimal.format(value);
    case "count":
    default:
      return integer.format(value);
  }
}

/** '↑ 12,5%', '↓ 3,0%', '= 0,0%'; null without a base to compare with. */
export function formatDelta(deltaPercent: number | null): string | null {
  if (deltaPercent === null) return null;
  const rounded = Math.round(deltaPercent * 10) / 10;
  const arrow = rounded > 0 ? "↑" : rounded < 0 ? "↓" : "=";
  return `${arrow} ${oneDecimal.format(Math.abs(rounded))}%`;
}

/** A CSV header with its unit, so numbers can stay numbers: 'Receita (R$)', 'Taxa (%)'. */
function csvHeader(column: KpiColumn): string {
  const suffix = { cents: " (R$)", percent: " (%)", days: " (dias)", minutes: " (min)", count: "", ratio: "" }[column.unit ?? "count"];
  return `${column.header}${suffix}`;
}

/** A value as a CSV cell: numbers stay numbers (cents become reais), so Excel can sum them. */
export function kpiCsvCell(unit: KpiUnit | undefined, value: KpiCell): CsvCell {
  if (value === null || typeof value === "string") return value;
  return unit === "cents" ? value / 100 : value;
}

/** A table's CSV: its headers and its rows, cell by cell the values the screen shows. */
export function kpiTableCsvRows(table: KpiTableData): { headers: string[]; rows: CsvCell[][] } {
  return {
    headers: table.columns.map(csvHeader),
    rows: table.rows.map((row) => table.columns.map((column) => kpiCsvCell(column.unit, row[column.key] ?? null))),
  };
}

/** The figures as CSV: one line each with the current and previous values, the change and the formula. */
export function kpiFiguresCsvRows(figures: KpiFigureData[]): { headers: string[]; rows: CsvCell[][] } {
  return {
    headers: ["Indicador", "Unidade", "Período", "Período anterior", "Variação (%)", "Fórmula", "Observação"],
    rows: figures.map((f) => [
      f.label,
      { count: "quantidade", ratio: "média", cents: "R$", percent: "%", days: "dias", minutes: "min" }[f.unit],
      kpiCsvCell(f.unit, f.current),
      kpiCsvCell(f.unit, f.previous),
      f.deltaPercent === null ? null : Math.round(f.deltaPercent * 10) / 10,
      f.formula,
      f.reason ?? f.note ?? null,
    ]),
  };
}

/** The `tabela` value exporting the figures themselves. */
export const KPI_FIGURES_TABLE = "indicadores";

/** The link of one table's CSV: `<screen>/export.csv?<query>&tabela=<id>`. */
export function kpiExportHref(screenPath: string, query: string, tableId: string): string {
  const params = new URLSearchParams(query);
  params.set("tabela", tableId);
  return `${screenPath}/export.csv?${params}`;
}

/**
 * The export links of a KPI screen's tables: `exportQuery` is the loader's (null when the user may
 * not export, and then every link is null, so no 'Exportar CSV' is shown).
 */
export function kpiExportLinks(screenPath: string, exportQuery: string | null): (tableId: string) => string | null {
  return (tableId) => (exportQuery === null ? null : kpiExportHref(screenPath, exportQuery, tableId));
}
