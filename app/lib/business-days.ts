import { getHolidays } from "@brazilian-utils/brazilian-utils/get-holidays";

/**
 * Brazilian business days (dias úteis) on calendar dates written as ISO `YYYY-MM-DD`, so no time
 * zone can shift a day. A day is not a business day on Saturday, Sunday, a national holiday or
 * ponto facultativo of `@brazilian-utils/brazilian-utils` (Sexta-feira Santa, Carnaval, Corpus
 * Christi …), Carnaval Monday (the library lists only the Tuesday; DOMAIN.md §7) or one of the
 * clinic's own extra days (`clinic_holidays`, passed in as `extra`).
 */

const DAY_MS = 86_400_000;
const yearCache = new Map<number, ReadonlySet<string>>();

function isoOf(date: Date): string {
  // The library builds its dates at local midnight: read them back in local components.
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${date.getFullYear()}-${m}-${d}`;
}

/** National non-business days of a year (ISO dates), memoized. */
export function nationalHolidays(year: number): ReadonlySet<string> {
  let days = yearCache.get(year);
  if (!days) {
    const set = new Set<string>();
    for (const holiday of year >= 1900 && year <= 2099 ? getHolidays({ year }) : []) {
      if (holiday.type === "state") continue;
      set.add(isoOf(holiday.date));
      if (holiday.name.startsWith("Carnaval")) {
        const monday = new Date(holiday.date);
        monday.setDate(monday.getDate() - 1);
        set.add(isoOf(monday));
      }
    }
    days = set;
    yearCache.set(year, days);
  }
  return days;
}

function toUtc(iso: string): number {
  return Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
}

function fromUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function isBusinessDay(iso: string, extra: ReadonlySet<string> = new Set()): boolean {
  const weekday = new Date(toUtc(iso)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !nationalHolidays(Number(iso.slice(0, 4))).has(iso) && !extra.has(iso);
}

/** The day `amount` (≥ 0) business days after `iso`: day 1 is the first business day after it. */
export function addBusinessDays(iso: string, amount: number, extra?: ReadonlySet<string>): string {
  let ms = toUtc(iso);
  for (let left = amount; left > 0; ) {
    ms += DAY_MS;
    if (isBusinessDay(fromUtc(ms), extra)) left--;
  }
  return fromUtc(ms);
}

/** Weekdays (Monday to Friday) in the calendar days after `startMs` up to and including `endMs`. */
function weekdaysAfter(startMs: number, endMs: number): number {
  const days = Math.round((endMs - startMs) / DAY_MS);
  const whole = Math.floor(days / 7);
  let n = whole * 5;
  for (let ms = startMs + whole * 7 * DAY_MS + DAY_MS; ms <= endMs; ms += DAY_MS) {
    const weekday = new Date(ms).getUTCDay();
    if (weekday !== 0 && weekday !== 6) n++;
  }
  return n;
}

/**
 * Business days from `from` to `to`: how many business days lie after `from` up to and including
 * `to`, negative when `to` is before `from` (0 on the same day). Counted arithmetically, so a clock
 * overdue for years costs what a fresh one does.
 */
export function businessDaysBetween(from: string, to: string, extra: ReadonlySet<string> = new Set()): number {
  if (from === to) return 0;
  const [start, end, sign] = from < to ? [from, to, 1] : [to, from, -1];
  const startMs = toUtc(start);
  const endMs = toUtc(end);
  let n = weekdaysAfter(startMs, endMs);
  const closed = new Set<string>(extra);
  for (let year = Number(start.slice(0, 4)); year <= Number(end.slice(0, 4)); year++) {
    for (const day of nationalHolidays(year)) closed.add(day);
  }
  for (const day of closed) {
    if (day <= start || day > end) continue;
    const weekday = new Date(toUtc(day)).getUTCDay();
    if (weekday !== 0 && weekday !== 6) n--;
  }
  return sign * n;
}
