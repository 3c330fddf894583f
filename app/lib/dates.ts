/**
 * Dates and times for the clinic. Browser-safe.
 *
 * Instants are stored as UTC and always shown as São Paulo wall time, whatever the time zone of
 * the server or of the browser. Calendar dates (birth dates, due dates) are plain 'YYYY-MM-DD'
 * strings and are never shifted. Every conversion goes through the IANA zone database (the
 * offset of each hour read from `Intl` once and kept), never a fixed offset: Brazil had daylight
 * saving time until 2019. Calendar arithmetic works on the wall time and gives what date-fns with
 * `@date-fns/tz` gives (tests/unit/dates.test.ts compares them), at a fraction of the cost: the
 * month grid does hundreds of these per page.
 */

export const CLINIC_TIME_ZONE = "America/Sao_Paulo";

/**
 * What the date functions accept: a Date, epoch milliseconds, or text. Text may be an ISO
 * instant with offset ('2024-01-15T13:00:00.000Z'), an offset-less timestamp which is read as
 * UTC like SQLite's CURRENT_TIMESTAMP ('2024-01-15 13:00:00'), or a calendar date
 * ('2024-01-15'), read as midnight of that day in São Paulo so it never shows as the day before.
 */
export type DateInput = Date | number | string;

const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const OFFSETLESS_TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
const DATETIME_LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

/** Converts any accepted input to a plain Date, or null when it is missing or not a real instant. */
export function toInstant(value: DateInput | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  let date: Date;
  if (value instanceof Date) {
    date = new Date(value.getTime());
  } else if (typeof value === "number") {
    date = new Date(value);
  } else {
    const text = value.trim();
    const iso = parseIsoDateParts(text);
    if (iso) {
      date = clinicWallTimeToInstant(iso.year, iso.month, iso.day, 0, 0, 0);
    } else if (ISO_DATE_RE.test(text)) {
      return null; // looks like a date but is not a real one (2024-02-30)
    } else if (OFFSETLESS_TIMESTAMP_RE.test(text)) {
      date = new Date(`${text.replace(" ", "T")}Z`);
    } else {
      date = new Date(text);
    }
  }
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Formats an instant in São Paulo with a date-fns pattern and the pt-BR locale; '-' when missing.
 *
 * The tokens are date-fns' (`yyyy yy y MMMM MMM MM M dd d HH H mm m ss s EEEEEE EEEE EEE EE E i`,
 * text in single quotes, `''` for a quote) and give exactly what date-fns' `format` gives
 * (tests/unit/dates.test.ts compares the two); any other letter throws. It does not use date-fns'
 * `format` itself: pages format dates in the browser too, and `format` with its locale would add
 * ≈7 KB gzipped to every page's first load; this also does ≈10× less work per date.
 */
export function formatInClinic(value: DateInput | null | undefined, pattern: string): string {
  const date = toInstant(value);
  if (!date) return "-";
  const wall = wallOf(date);
  let out = "";
  for (const token of tokensOf(pattern)) {
    out += typeof token === "string" ? token : formatToken(wall, token.letter, token.count, pattern);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// formatInClinic's engine: the São Paulo offset of an instant (from Intl, cached per UTC hour:
// the zone's offsets have only ever changed on the hour), then the wall time's fields read as UTC.

const MONTHS = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"];
const MONTHS_SHORT = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"];
const WEEKDAYS = ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"];
const WEEKDAYS_ABBREVIATED = ["domingo", "segunda", "terça", "quarta", "quinta", "sexta", "sábado"];
const WEEKDAYS_SHORT = ["dom", "seg", "ter", "qua", "qui", "sex", "sab"];
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

let wallClock: Intl.DateTimeFormat | undefined;
const offsetByHour = new Map<number, number>();

/** Milliseconds to add to a UTC instant to get São Paulo wall time (−3 h today, −2 h in old summers). */
function clinicOffsetMs(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  const cached = offsetByHour.get(hour);
  if (cached !== undefined) return cached;
  wallClock ??= new Intl.DateTimeFormat("en-US", {
    timeZone: CLINIC_TIME_ZONE,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    era: "short",
  });
  const start = hour * HOUR_MS;
  const fields: Record<string, number> = {};
  let bc = false;
  for (const part of wallClock.formatToParts(new Date(start))) {
    if (part.type === "era") bc = part.value.startsWith("B");
    else if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  const year = bc ? 1 - fields.year : fields.year;
  const wall = new Date(0);
  wall.setUTCFullYear(year, fields.month - 1, fields.day);
  wall.setUTCHours(fields.hour, fields.minute, fields.second, 0);
  const offset = wall.getTime() - start;
  if (offsetByHour.size > 50_000) offsetByHour.clear();
  offsetByHour.set(hour, offset);
  return offset;
}

type Token = string | { letter: string; count: number };
const tokenCache = new Map<string, Token[]>();

/** A pattern split into literal text and runs of one letter, like date-fns reads it. */
function tokensOf(pattern: string): Token[] {
  const cached = tokenCache.get(pattern);
  if (cached) return cached;
  const tokens: Token[] = [];
  let literal = "";
  for (let i = 0; i < pattern.length; ) {
    const char = pattern[i];
    if (char === "'") {
      if (pattern[i + 1] === "'") {
        literal += "'";
        i += 2;
        continue;
      }
      let j = i + 1;
      for (; j < pattern.length; j++) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            literal += "'";
            j++;
          } else break;
        } else literal += pattern[j];
      }
      i = j + 1;
    } else if (/[a-zA-Z]/.test(char)) {
      let j = i;
      while (pattern[j] === char) j++;
      if (literal) tokens.push(literal);
      literal = "";
      tokens.push({ letter: char, count: j - i });
      i = j;
    } else {
      literal += char;
      i++;
    }
  }
  if (literal) tokens.push(literal);
  if (tokenCache.size < 1000) tokenCache.set(pattern, tokens);
  return tokens;
}

function formatToken(wall: Date, letter: string, count: number, pattern: string): string {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  switch (letter) {
    case "y": {
      const year = wall.getUTCFullYear();
      const unsigned = year > 0 ? year : 1 - year;
      return count === 2 ? pad(unsigned % 100, 2) : pad(unsigned, count);
    }
    case "M":
      if (count <= 2) return pad(wall.getUTCMonth() + 1, count);
      if (count === 3) return MONTHS_SHORT[wall.getUTCMonth()];
      if (count === 4) return MONTHS[wall.getUTCMonth()];
      break;
    case "d":
      if (count <= 2) return pad(wall.getUTCDate(), count);
      break;
    case "H":
      if (count <= 2) return pad(wall.getUTCHours(), count);
      break;
    case "m":
      if (count <= 2) return pad(wall.getUTCMinutes(), count);
      break;
    case "s":
      if (count <= 2) return pad(wall.getUTCSeconds(), count);
      break;
    case "E":
      if (count <= 3) return WEEKDAYS_ABBREVIATED[wall.getUTCDay()];
      if (count === 4) return WEEKDAYS[wall.getUTCDay()];
      if (count === 6) return WEEKDAYS_SHORT[wall.getUTCDay()];
      break;
    case "i":
      if (count <= 2) return pad(wall.getUTCDay() || 7, count);
      break;
  }
  throw new RangeError(`formatInClinic: unsupported token '${letter.repeat(count)}' in '${pattern}'`);
}

/** 'dd/MM/yyyy' in São Paulo ('15/01/2024'); '-' when missing or invalid. */
export function formatDate(value: DateInput | null | undefined): string {
  return formatInClinic(value, "dd/MM/yyyy");
}

/** 'dd/MM/yyyy HH:mm' in São Paulo ('15/01/2024 09:30'); '-' when missing or invalid. */
export function formatDateTime(value: DateInput | null | undefined): string {
  return formatInClinic(value, "dd/MM/yyyy HH:mm");
}

/** SPEC §9 appointment date, 'MMM dd, yyyy' with the pt-BR locale ('jan 15, 2024'); '-' when missing. */
export function formatAppointmentDate(value: DateInput | null | undefined): string {
  return formatInClinic(value, "MMM dd, yyyy");
}

/** 'HH:mm' in São Paulo ('09:30'); '-' when missing or invalid. */
export function formatTime(value: DateInput | null | undefined): string {
  return formatInClinic(value, "HH:mm");
}

/**
 * A calendar date 'YYYY-MM-DD' as 'dd/MM/yyyy' by plain text rearrangement (no time zone
 * involved, so a birth date never moves a day). Anything else is treated as an instant and
 * formatted in São Paulo; '-' when missing or invalid.
 */
export function formatIsoDate(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === "") return "-";
  const parts = parseIsoDateParts(value.trim());
  if (parts) return `${pad2(parts.day)}/${pad2(parts.month)}/${String(parts.year).padStart(4, "0")}`;
  return formatDate(value);
}

/** True for a real calendar date in 'YYYY-MM-DD' form (2024-02-29 yes, 2023-02-29 and 2024-02-30 no). */
export function isValidIsoDate(value: string | null | undefined): boolean {
  return typeof value === "string" && parseIsoDateParts(value) !== null;
}

/** The São Paulo calendar date of an instant as 'YYYY-MM-DD'; null when missing or invalid. */
export function isoDateInClinic(value: DateInput | null | undefined): string | null {
  const date = toInstant(value);
  return date ? formatInClinic(date, "yyyy-MM-dd") : null;
}

/** Today's date in São Paulo as 'YYYY-MM-DD' (`now` is injectable for tests). */
export function todayIsoInClinic(now: Date = new Date()): string {
  return formatInClinic(now, "yyyy-MM-dd");
}

/** Value for `<input type="datetime-local">`: 'yyyy-MM-ddTHH:mm' in São Paulo; '' when missing. */
export function toDateTimeLocalValue(value: DateInput | null | undefined): string {
  const date = toInstant(value);
  return date ? formatInClinic(date, "yyyy-MM-dd'T'HH:mm") : "";
}

/**
 * Reads a datetime-local value ('yyyy-MM-ddTHH:mm'; seconds optional, a space for the 'T'
 * accepted) as São Paulo wall time and returns the UTC instant; null when empty, malformed or
 * not a real date/time (2024-02-30T10:00, 25:00). A wall time skipped by an old DST change
 * moves forward to the first valid time.
 */
export function fromDateTimeLocalValue(value: string | null | undefined): Date | null {
  if (typeof value !== "string") return null;
  const match = DATETIME_LOCAL_RE.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = match[6] ? Number(match[6]) : 0;
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  return clinicWallTimeToInstant(year, month, day, hour, minute, second);
}

/** The UTC instant of midnight, São Paulo, on a 'YYYY-MM-DD' date; null when not a real date. */
export function startOfIsoDateInClinic(isoDate: string | null | undefined): Date | null {
  const parts = typeof isoDate === "string" ? parseIsoDateParts(isoDate.trim()) : null;
  return parts ? clinicWallTimeToInstant(parts.year, parts.month, parts.day, 0, 0, 0) : null;
}

/** Start of the São Paulo day containing `date` (a UTC instant). */
export function startOfDayInClinic(date: DateInput = new Date()): Date {
  const wall = wallOf(required(date));
  return instantOfWall(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));
}

/**
 * Start of the São Paulo week containing `date`. Weeks start on Sunday as in the pt-BR locale;
 * pass `weekStartsOn: 1` for Monday.
 */
export function startOfWeekInClinic(
  date: DateInput = new Date(),
  options: { weekStartsOn?: 0 | 1 | 2 | 3 | 4 | 5 | 6 } = {},
): Date {
  const wall = wallOf(required(date));
  const back = (wall.getUTCDay() - (options.weekStartsOn ?? 0) + 7) % 7;
  return instantOfWall(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() - back));
}

/** Start of the São Paulo month containing `date`. */
export function startOfMonthInClinic(date: DateInput = new Date()): Date {
  const wall = wallOf(required(date));
  return instantOfWall(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), 1));
}

/** Adds calendar days in São Paulo, keeping the wall-clock time (not 24-hour steps). */
export function addDaysInClinic(date: DateInput, amount: number): Date {
  const wall = wallOf(required(date));
  wall.setUTCDate(wall.getUTCDate() + amount);
  return instantOfWall(wall.getTime());
}

/** Adds calendar weeks in São Paulo, keeping the wall-clock time. */
export function addWeeksInClinic(date: DateInput, amount: number): Date {
  return addDaysInClinic(date, amount * 7);
}

/** Adds calendar months in São Paulo (Jan 31 + 1 month = last day of February). */
export function addMonthsInClinic(date: DateInput, amount: number): Date {
  const wall = wallOf(required(date));
  const day = wall.getUTCDate();
  // Day 0 of the month after the target: the target month's last day.
  const lastDay = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + amount + 1, 0)).getUTCDate();
  wall.setUTCFullYear(wall.getUTCFullYear(), wall.getUTCMonth() + amount, Math.min(day, lastDay));
  return instantOfWall(wall.getTime());
}

/** Half-open range of UTC instants: `start <= t < end`. */
export interface InstantRange {
  start: Date;
  end: Date;
}

/** The São Paulo day containing `date` as [start, end). */
export function dayRangeInClinic(date: DateInput = new Date()): InstantRange {
  const start = startOfDayInClinic(date);
  return { start, end: nextDayStart(start, 1) };
}

/** The São Paulo week containing `date` as [start, end) (Sunday first unless told otherwise). */
export function weekRangeInClinic(
  date: DateInput = new Date(),
  options: { weekStartsOn?: 0 | 1 | 2 | 3 | 4 | 5 | 6 } = {},
): InstantRange {
  const start = startOfWeekInClinic(date, options);
  return { start, end: nextDayStart(start, 7) };
}

/**
 * The São Paulo month containing `date`, shifted by `offset` months, as [start, end).
 * `monthRangeInClinic(now)` is this month, `monthRangeInClinic(now, -1)` last month.
 */
export function monthRangeInClinic(date: DateInput = new Date(), offset = 0): InstantRange {
  const start = startOfMonthInClinic(addMonthsInClinic(startOfMonthInClinic(date), offset));
  return { start, end: startOfMonthInClinic(addMonthsInClinic(start, 1)) };
}

/** The start of every São Paulo day in [start, end): the columns of a week or month view. */
export function eachDayInClinic(start: DateInput, end: DateInput): Date[] {
  const days: Date[] = [];
  const last = required(end).getTime();
  for (let day = startOfDayInClinic(start); day.getTime() < last; day = nextDayStart(day, 1)) {
    days.push(day);
  }
  return days;
}

/** True when both instants fall on the same São Paulo calendar day. */
export function isSameDayInClinic(a: DateInput, b: DateInput): boolean {
  const day = (date: Date) => Math.floor(wallOf(date).getTime() / DAY_MS);
  return day(required(a)) === day(required(b));
}

// ---------------------------------------------------------------------------------------------

function parseIsoDateParts(text: string): { year: number; month: number; day: number } | null {
  const match = ISO_DATE_RE.exec(text);
  if (!match) return null;
  const [year, month, day] = match.slice(1, 4).map(Number);
  return isRealDate(year, month, day) ? { year, month, day } : null;
}

function isRealDate(year: number, month: number, day: number): boolean {
  // Four-digit years only: Date constructors read 0-99 as 1900-1999, and no record is that old.
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one; UTC avoids any local-zone effect.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

function clinicWallTimeToInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): Date {
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second, 0);
  return instantOfWall(wall.getTime());
}

/**
 * The start of the day `days` after the day starting at `dayStart`. Not just addDays: a day
 * that began at 01:00 because of a DST jump would carry 01:00 into the next day.
 */
function nextDayStart(dayStart: Date, days: number): Date {
  return startOfDayInClinic(addDaysInClinic(dayStart, days));
}

function required(value: DateInput): Date {
  const date = toInstant(value);
  if (!date) throw new RangeError(`Invalid date: ${String(value)}`);
  return date;
}

/** São Paulo wall time of an instant, as a Date whose UTC fields read that wall time. */
function wallOf(date: Date): Date {
  return new Date(date.getTime() + clinicOffsetMs(date.getTime()));
}

/**
 * The instant at which São Paulo's clocks show `wallMs` (a wall time read as UTC): the first of
 * an hour repeated when summer time ended, and forward by the jump in an hour skipped when it began.
 */
function instantOfWall(wallMs: number): Date {
  // The instant is the wall time minus the offset in effect then; try the offset of the hours
  // before and after (they differ only around a DST change).
  const before = clinicOffsetMs(wallMs - 12 * HOUR_MS);
  const after = clinicOffsetMs(wallMs + 12 * HOUR_MS);
  const early = wallMs - before;
  if (clinicOffsetMs(early) === before) return new Date(early); // also the first of a repeated hour
  const late = wallMs - after;
  if (clinicOffsetMs(late) === after) return new Date(late);
  // Skipped by a DST change (clocks jumped forward): forward by the jump, as TZDate does.
  return new Date(early);
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}
