import { at, DAY, HOUR, isoDay, MINUTE } from "../time";

/**
 * Calendar days as integers (days since 1970-01-01 of the São Paulo calendar date), with the
 * instant of each day's local midnight precomputed: the hot loops place a million appointments
 * and cannot afford a time-zone lookup per row. Brazil's old daylight-saving changes happened at
 * midnight, so one offset per day (taken at noon) is right for every clinic hour.
 */
export class Calendar {
  readonly firstDay: number;
  readonly lastDay: number;
  private readonly midnight: Float64Array;

  constructor(firstDay: number, lastDay: number) {
    this.firstDay = firstDay;
    this.lastDay = lastDay;
    this.midnight = new Float64Array(lastDay - firstDay + 2);
    for (let d = firstDay; d <= lastDay + 1; d++) {
      this.midnight[d - firstDay] = at(isoOfDay(d), 12 * 60).getTime() - 12 * HOUR;
    }
  }

  /** The instant of a wall-clock time (minutes after midnight) on day `d`. */
  instant(d: number, minutes: number): number {
    return this.midnight[d - this.firstDay] + minutes * MINUTE;
  }

  /** The São Paulo day of an instant inside the calendar's range. */
  dayOf(ms: number): number {
    let d = Math.floor((ms - 3 * HOUR) / DAY);
    if (d < this.firstDay) return d;
    if (d > this.lastDay) return d;
    if (ms < this.midnight[d - this.firstDay]) d -= 1;
    else if (ms >= this.midnight[d + 1 - this.firstDay]) d += 1;
    return d;
  }
}

export function dayOfIso(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY);
}

export function isoOfDay(d: number): string {
  return new Date(d * DAY).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOfDay(d: number): number {
  return (((d + 4) % 7) + 7) % 7;
}

export function todayDay(nowMs: number): number {
  return dayOfIso(isoDay(nowMs));
}
