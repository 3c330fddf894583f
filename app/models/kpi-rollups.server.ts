/**
 * Reading the KPI screens' maintained aggregates (docs/decisions/0024-kpi-aggregates-surgical-financial.md).
 *
 * Triggers keep `kpi_rollups` (sums per São Paulo calendar year and month) and the fact tables
 * `kpi_surgery_facts` / `kpi_stage_stays` (one row per surgery / completed stay, instants already
 * turned into São Paulo days) right in the same transaction as every write. A period of any
 * length is cut into whole years and whole months, read from `kpi_rollups` (at most ~40 rows per
 * key for ten years), and at most ~60 loose days at its ends, read from the fact tables' day
 * indexes. No figure scans a big table.
 */
import { prepared } from "~/.server/db";
import { type KpiPeriod, addDaysIso } from "~/lib/kpi-period";

export type DayRange = [from: string, to: string];

/** A period cut into calendar units, every range inclusive. */
export interface PeriodUnits {
  /** Whole years 'YYYY'. */
  years: DayRange | null;
  /** Whole months 'YYYY-MM' outside the whole years (before and after them). */
  months: DayRange[];
  /** Loose days 'YYYY-MM-DD' outside the whole months (before and after them). */
  days: DayRange[];
}

const MONTH_DAYS = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();

function addMonths(month: string, n: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

const lastDayOf = (month: string) => `${month}-${String(MONTH_DAYS(month)).padStart(2, "0")}`;

/** Cuts a period into whole years, whole months and loose days (see `PeriodUnits`). */
export function periodUnits(period: KpiPeriod): PeriodUnits {
  const { from, to } = period;
  const firstMonth = from.endsWith("-01") ? from.slice(0, 7) : addMonths(from.slice(0, 7), 1);
  const lastMonth = to === lastDayOf(to.slice(0, 7)) ? to.slice(0, 7) : addMonths(to.slice(0, 7), -1);
  if (firstMonth > lastMonth) return { years: null, months: [], days: [[from, to]] };

  const days: DayRange[] = [];
  if (from < `${firstMonth}-01`) days.push([from, addDaysIso(`${firstMonth}-01`, -1)]);
  if (to > lastDayOf(lastMonth)) days.push([addDaysIso(lastDayOf(lastMonth), 1), to]);

  const firstYear = firstMonth.endsWith("-01") ? Number(firstMonth.slice(0, 4)) : Number(firstMonth.slice(0, 4)) + 1;
  const lastYear = lastMonth.endsWith("-12") ? Number(lastMonth.slice(0, 4)) : Number(lastMonth.slice(0, 4)) - 1;
  if (firstYear > lastYear) return { years: null, months: [[firstMonth, lastMonth]], days };

  const year = (y: number) => String(y).padStart(4, "0");
  const months: DayRange[] = [];
  if (firstMonth < `${year(firstYear)}-01`) months.push([firstMonth, `${year(firstYear - 1)}-12`]);
  if (lastMonth > `${year(lastYear)}-12`) months.push([`${year(lastYear + 1)}-01`, lastMonth]);
  return { years: [year(firstYear), year(lastYear)], months, days };
}

export interface RollupRow {
  k1: string;
  k2: number;
  n: number;
  v1: number;
  v2: number;
  v3: number;
}

/**
 * Σ n, v1, v2, v3 of `metric` over the whole years and months of `units`, per (k1, k2), for one
 * scope: doctor and payer ids, 0 for all. Each range is a seek of the primary key
 * (metric, doctor_id, payer_id, level, unit, …).
 */
export function rollupSums(metric: string, scope: { doctorId: number; payerId: number }, units: PeriodUnits): RollupRow[] {
  const ranges: Array<{ level: "y" | "m"; range: DayRange }> = [
    ...(units.years ? [{ level: "y" as const, range: units.years }] : []),
    ...units.months.map((range) => ({ level: "m" as const, range })),
  ];
  if (ranges.length === 0) return [];
  const params: Record<string, string | number> = { metric, doctor: scope.doctorId, payer: scope.payerId };
  ranges.forEach(({ range }, i) => {
    params[`lo${i}`] = range[0];
    params[`hi${i}`] = range[1];
  });
  const sql = ROLLUP_SUMS_SQL(ranges.map((r) => r.level));
  return prepared(sql).all(params) as RollupRow[];
}

/** The SQL of `rollupSums` for ranges of these levels (params @metric, @doctor, @payer, @lo0, @hi0, …). */
export function ROLLUP_SUMS_SQL(levels: Array<"y" | "m">): string {
  const parts = levels.map(
    (level, i) => `select k1, k2, n, v1, v2, v3 from kpi_rollups
             where metric = @metric and doctor_id = @doctor and payer_id = @payer and level = '${level}' and unit between @lo${i} and @hi${i}`,
  );
  return `select k1, k2, sum(n) as n, sum(v1) as v1, sum(v2) as v2, sum(v3) as v3
                 from (${parts.join("\n union all ")})
                group by k1, k2`;
}

/** Adds rows into a map keyed by `key(row)`, summing n and v1..v3. */
export function addRows(into: Map<string, RollupRow>, rows: RollupRow[]): Map<string, RollupRow> {
  for (const row of rows) {
    const key = `${row.k1}\u0000${row.k2}`;
    const entry = into.get(key);
    if (entry) {
      entry.n += row.n;
      entry.v1 += row.v1;
      entry.v2 += row.v2;
      entry.v3 += row.v3;
    } else into.set(key, { ...row });
  }
  return into;
}

/** Every year 'YYYY' or month 'YYYY-MM' of an inclusive range (none for null). */
export function unitList(range: DayRange | null, level: "y" | "m"): string[] {
  if (!range) return [];
  const out: string[] = [];
  if (level === "y") for (let y = Number(range[0]); y <= Number(range[1]); y++) out.push(String(y).padStart(4, "0"));
  else for (let m = range[0]; m <= range[1]; m = addMonths(m, 1)) out.push(m);
  return out;
}
