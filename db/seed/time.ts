import { TZDate } from "@date-fns/tz";

/** Calendar arithmetic for the seed, in the clinic's zone (America/Sao_Paulo). */
export const CLINIC_TZ = "America/Sao_Paulo";

const isoFormatter = new Intl.DateTimeFormat("en-CA", { timeZone: CLINIC_TZ, year: "numeric", month: "2-digit", day: "2-digit" });
const brDateFormatter = new Intl.DateTimeFormat("pt-BR", { timeZone: CLINIC_TZ, day: "2-digit", month: "2-digit", year: "numeric" });
const brTimeFormatter = new Intl.DateTimeFormat("pt-BR", { timeZone: CLINIC_TZ, hour: "2-digit", minute: "2-digit", hour12: false });

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The São Paulo calendar day of an instant, as YYYY-MM-DD. */
export function isoDay(instant: Date | number): string {
  return isoFormatter.format(instant);
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(isoDate: string): number {
  return new Date(`${isoDate}T12:00:00Z`).getUTCDay();
}

export function isWeekend(isoDate: string): boolean {
  const day = weekday(isoDate);
  return day === 0 || day === 6;
}

/** The instant of a São Paulo wall-clock time on a calendar day. */
export function at(isoDate: string, minutesFromMidnight: number): Date {
  const [year, month, day] = isoDate.split("-").map(Number);
  const hours = Math.floor(minutesFromMidnight / 60);
  const minutes = minutesFromMidnight % 60;
  return new Date(new TZDate(year, month - 1, day, hours, minutes, 0, 0, CLINIC_TZ).getTime());
}

export function formatBrDate(instant: Date | number): string {
  return brDateFormatter.format(instant);
}

export function formatBrTime(instant: Date | number): string {
  return brTimeFormatter.format(instant);
}
