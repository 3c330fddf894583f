/**
 * Reading the maintained KPI aggregates (db/schema/kpi.ts, docs/decisions/0023-kpi-aggregates.md):
 * a period of São Paulo days is covered by whole months ('m' buckets 'YYYY-MM') and the days
 * ('d' buckets 'YYYY-MM-DD') of its partial first and last months, so ten years read about 120
 * month rows and at most 60 day rows per series.
 */
import { addDaysIso } from "~/lib/kpi-period";
import type { KpiPeriod } from "~/lib/kpi-period";

export type Grain = "d" | "m";

/** One range of buckets of one grain, both ends included. */
export interface BucketRange {
  grain: Grain;
  lo: string;
  hi: string;
}

const monthOf = (iso: string) => iso.slice(0, 7);
const firstOfMonth = (month: string) => `${month}-01`;
const lastOfMonth = (month: string) => addDaysIso(firstOfMonth(nextMonth(month)), -1);

function nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 12 ? `${String(y + 1).padStart(4, "0")}-01` : `${String(y).padStart(4, "0")}-${String(m + 1).padStart(2, "0")}`;
}

function previousMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 1 ? `${String(y - 1).padStart(4, "0")}-12` : `${String(y).padStart(4, "0")}-${String(m - 1).padStart(2, "0")}`;
}

/** The buckets that cover exactly the days of `period` (none when it is empty: to < from). */
export function bucketRanges(period: KpiPeriod): BucketRange[] {
  const { from, to } = period;
  if (to < from) return [];
  const fm = monthOf(from);
  const tm = monthOf(to);
  const startsMonth = from === firstOfMonth(fm);
  const endsMonth = to === lastOfMonth(tm);
  if (fm === tm) return startsMonth && endsMonth ? [{ grain: "m", lo: fm, hi: fm }] : [{ grain: "d", lo: from, hi: to }];
  const ranges: BucketRange[] = [];
  if (!startsMonth) ranges.push({ grain: "d", lo: from, hi: lastOfMonth(fm) });
  const firstFull = startsMonth ? fm : nextMonth(fm);
  const lastFull = endsMonth ? tm : previousMonth(tm);
  if (firstFull <= lastFull) ranges.push({ grain: "m", lo: firstFull, hi: lastFull });
  if (!endsMonth) ranges.push({ grain: "d", lo: firstOfMonth(tm), hi: to });
  return ranges;
}

/** Every bucket of `ranges` one by one (for seeks per bucket), as [grain, bucket]. */
export function eachBucket(ranges: BucketRange[]): [Grain, string][] {
  const out: [Grain, string][] = [];
  for (const { grain, lo, hi } of ranges) {
    if (grain === "d") for (let day = lo; day <= hi; day = addDaysIso(day, 1)) out.push(["d", day]);
    else for (let month = lo; month <= hi; month = nextMonth(month)) out.push(["m", month]);
  }
  return out;
}

/**
 * Every day of `period` as ['YYYY-MM-DD', 'dd/mm/aaaa'], by calendar arithmetic on numbers (a
 * ten-year table has 3 653 rows; this costs a fraction of a millisecond, Date objects would not).
 */
export function eachDayLabelled(period: KpiPeriod): [iso: string, shown: string][] {
  const out: [string, string][] = [];
  let [y, m, d] = period.from.split("-").map(Number);
  const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
  for (;;) {
    const yyyy = String(y).padStart(4, "0");
    const iso = `${yyyy}-${pad(m)}-${pad(d)}`;
    if (iso > period.to) return out;
    out.push([iso, `${pad(d)}/${pad(m)}/${yyyy}`]);
    if (d < daysInMonth(y, m)) d += 1;
    else if (m < 12) [m, d] = [m + 1, 1];
    else [y, m, d] = [y + 1, 1, 1];
  }
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export { firstOfMonth, monthOf };
