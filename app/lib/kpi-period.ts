/**
 * The period of a KPI screen, read from the URL. Browser-safe.
 *
 * A period is a pair of São Paulo calendar dates, both inclusive. Presets end today (the month so
 * far, the year so far, the last 90 days) except 'mes-anterior', the whole previous month. Every
 * figure is compared with the previous period: the same number of days immediately before.
 *
 * URL: `?periodo=<preset>`; with `periodo=personalizado`, `de` and `ate` ('YYYY-MM-DD', or
 * 'dd/mm/aaaa'). Anything missing, malformed or inverted falls back to the default preset with a
 * field message: a KPI screen never answers a bad URL with an error page.
 */
import { formatIsoDate, isValidIsoDate, startOfIsoDateInClinic, todayIsoInClinic } from "~/lib/dates";

/** São Paulo calendar dates 'YYYY-MM-DD', both inclusive. */
export interface KpiPeriod {
  from: string;
  to: string;
}

export const KPI_PRESETS = ["mes", "mes-anterior", "90-dias", "ano", "personalizado"] as const;
export type KpiPreset = (typeof KPI_PRESETS)[number];
export const DEFAULT_KPI_PRESET: KpiPreset = "mes";

export const KPI_PRESET_LABELS: Record<KpiPreset, string> = {
  mes: "Este mês",
  "mes-anterior": "Mês anterior",
  "90-dias": "Últimos 90 dias",
  ano: "Este ano",
  personalizado: "Personalizado",
};

/** The longest custom range accepted (10 years of days, leap days included). */
export const KPI_MAX_RANGE_DAYS = 3653;
/** Custom dates outside these years are refused as 'Data inválida' (keeps all arithmetic in range). */
const KPI_MIN_YEAR = 1900;
const KPI_MAX_YEAR = 2999;

export const KPI_PERIOD_MESSAGES = {
  presetInvalid: "Período inválido",
  dateRequired: "Informe a data",
  dateInvalid: "Data inválida",
  inverted: "A data final deve ser igual ou posterior à data inicial",
  tooLong: "Escolha um período de no máximo 10 anos",
} as const;

export interface KpiPeriodErrors {
  periodo?: string;
  de?: string;
  ate?: string;
}

export interface ParsedKpiPeriod {
  preset: KpiPreset;
  period: KpiPeriod;
  previous: KpiPeriod;
  /** What the user typed for a custom range, echoed back into the form even when rejected. */
  input: { de: string; ate: string };
  errors?: KpiPeriodErrors;
}

type SearchParamsLike = Pick<URLSearchParams, "get">;

export function isKpiPreset(value: unknown): value is KpiPreset {
  return typeof value === "string" && (KPI_PRESETS as readonly string[]).includes(value);
}

/** Reads `periodo`, `de`, `ate`; never throws. `now` is injectable for tests. */
export function parseKpiPeriod(searchParams: SearchParamsLike, now: Date = new Date()): ParsedKpiPeriod {
  const today = todayIsoInClinic(now);
  const rawPreset = (searchParams.get("periodo") ?? "").trim();
  const input = { de: (searchParams.get("de") ?? "").trim(), ate: (searchParams.get("ate") ?? "").trim() };
  const errors: KpiPeriodErrors = {};

  let preset: KpiPreset = DEFAULT_KPI_PRESET;
  if (rawPreset === "" && (input.de !== "" || input.ate !== "")) preset = "personalizado";
  else if (isKpiPreset(rawPreset)) preset = rawPreset;
  else if (rawPreset !== "") errors.periodo = KPI_PERIOD_MESSAGES.presetInvalid;

  let period: KpiPeriod | null = null;
  if (preset === "personalizado") {
    const from = readDate(input.de);
    const to = readDate(input.ate);
    if (from === null) errors.de = input.de === "" ? KPI_PERIOD_MESSAGES.dateRequired : KPI_PERIOD_MESSAGES.dateInvalid;
    if (to === null) errors.ate = input.ate === "" ? KPI_PERIOD_MESSAGES.dateRequired : KPI_PERIOD_MESSAGES.dateInvalid;
    if (from !== null && to !== null) {
      if (to < from) errors.ate = KPI_PERIOD_MESSAGES.inverted;
      else if (daysInPeriod({ from, to }) > KPI_MAX_RANGE_DAYS) errors.ate = KPI_PERIOD_MESSAGES.tooLong;
      else period = { from, to };
    }
    if (period === null) preset = DEFAULT_KPI_PRESET;
  }
  period ??= presetPeriod(preset, today);

  const result: ParsedKpiPeriod = { preset, period, previous: previousPeriod(period), input };
  if (Object.keys(errors).length > 0) result.errors = errors;
  return result;
}

/** The period a preset stands for on `today` ('YYYY-MM-DD' in São Paulo). */
export function presetPeriod(preset: Exclude<KpiPreset, "personalizado"> | KpiPreset, today: string): KpiPeriod {
  const [year, month] = today.split("-");
  switch (preset) {
    case "mes-anterior": {
      const firstOfThisMonth = `${year}-${month}-01`;
      const lastOfPrevious = addDaysIso(firstOfThisMonth, -1);
      return { from: `${lastOfPrevious.slice(0, 7)}-01`, to: lastOfPrevious };
    }
    case "90-dias":
      return { from: addDaysIso(today, -89), to: today };
    case "ano":
      return { from: `${year}-01-01`, to: today };
    case "mes":
    case "personalizado":
    default:
      return { from: `${year}-${month}-01`, to: today };
  }
}

/** The period of the same number of days ending the day before `period` starts. */
export function previousPeriod(period: KpiPeriod): KpiPeriod {
  const to = addDaysIso(period.from, -1);
  return { from: addDaysIso(to, -(daysInPeriod(period) - 1)), to };
}

/** Number of calendar days in the period, both ends included. */
export function daysInPeriod(period: KpiPeriod): number {
  return Math.round((isoDayNumber(period.to) - isoDayNumber(period.from)) / DAY_MS) + 1;
}

/** Every calendar date of the period, in order ('YYYY-MM-DD'). */
export function eachDateOfPeriod(period: KpiPeriod): string[] {
  const dates: string[] = [];
  for (let date = period.from; date <= period.to; date = addDaysIso(date, 1)) dates.push(date);
  return dates;
}

/**
 * The period as epoch milliseconds [start, end): midnight in São Paulo of `from` to midnight of
 * the day after `to`. For columns holding instants (created_at, start_time, scheduled_date).
 */
export function instantRange(period: KpiPeriod): [start: number, end: number] {
  const start = startOfIsoDateInClinic(period.from);
  const end = startOfIsoDateInClinic(addDaysIso(period.to, 1));
  if (!start || !end) throw new RangeError(`Invalid KPI period: ${period.from}..${period.to}`);
  return [start.getTime(), end.getTime()];
}

/**
 * The period as calendar-date text [from, toExclusive) for columns holding 'YYYY-MM-DD…' text
 * (financial transaction_date): `col >= from AND col < toExclusive` also catches timestamps.
 */
export function dateTextRange(period: KpiPeriod): [from: string, toExclusive: string] {
  return [period.from, addDaysIso(period.to, 1)];
}

/** '01/11/2026 a 23/11/2026' (one date when from = to). */
export function describePeriod(period: KpiPeriod): string {
  return period.from === period.to
    ? formatIsoDate(period.from)
    : `${formatIsoDate(period.from)} a ${formatIsoDate(period.to)}`;
}

/** The URL query of a period (and any extra filters), for links and CSV exports. */
export function kpiPeriodQuery(parsed: Pick<ParsedKpiPeriod, "preset" | "period">, extra: Record<string, string | null | undefined> = {}): string {
  const params = new URLSearchParams({ periodo: parsed.preset });
  if (parsed.preset === "personalizado") {
    params.set("de", parsed.period.from);
    params.set("ate", parsed.period.to);
  }
  for (const [key, value] of Object.entries(extra)) if (value) params.set(key, value);
  return params.toString();
}

export interface FigureComparison {
  current: number | null;
  previous: number | null;
  /** (current − previous) / previous × 100; null when either is missing or previous is 0. */
  deltaPercent: number | null;
}

export function compareFigures(current: number | null, previous: number | null): FigureComparison {
  const valid = (value: number | null) => (value !== null && Number.isFinite(value) ? value : null);
  const cur = valid(current);
  const prev = valid(previous);
  const deltaPercent = cur === null || prev === null || prev === 0 ? null : ((cur - prev) / Math.abs(prev)) * 100;
  return { current: cur, previous: prev, deltaPercent };
}

// ---------------------------------------------------------------------------------------------
// Calendar-date arithmetic on 'YYYY-MM-DD' text: dates carry no time zone, so UTC days are exact.

const DAY_MS = 86_400_000;

function isoDayNumber(iso: string): number {
  return Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
}

/** Adds calendar days to a 'YYYY-MM-DD' date. */
export function addDaysIso(iso: string, days: number): string {
  return new Date(isoDayNumber(iso) + days * DAY_MS).toISOString().slice(0, 10);
}

function readDate(text: string): string | null {
  const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const iso = br ? `${br[3]}-${br[2]}-${br[1]}` : text;
  if (!isValidIsoDate(iso)) return null;
  const year = Number(iso.slice(0, 4));
  return year >= KPI_MIN_YEAR && year <= KPI_MAX_YEAR ? iso : null;
}
