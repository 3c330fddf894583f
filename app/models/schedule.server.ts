import { type SQL, asc, eq, or, sql } from "drizzle-orm";
import { doctors } from "~db/schema";
import { db } from "~/.server/db";
import { cachedUntilTablesChange } from "~/.server/data-cache";
import { sentAsJson } from "~/.server/sent-as-json";
import {
  addDaysInClinic,
  addMonthsInClinic,
  dayRangeInClinic,
  eachDayInClinic,
  formatInClinic,
  isValidIsoDate,
  isoDateInClinic,
  monthRangeInClinic,
  startOfIsoDateInClinic,
  startOfWeekInClinic,
  todayIsoInClinic,
  weekRangeInClinic,
} from "~/lib/dates";
import { type AppointmentStatus, isOneOf } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { type FieldList, type PackedRows, keptFor, packRows } from "~/lib/packed-rows";

/**
 * The /schedule screen (Agenda): which period the URL asks for, the São Paulo days it covers,
 * and the appointments that overlap each of those days. Every boundary is a São Paulo midnight
 * computed with the IANA zone database, never the server's local time zone.
 */

export const SCHEDULE_VIEWS = ["day", "week", "month"] as const;
export type ScheduleView = (typeof SCHEDULE_VIEWS)[number];
export const DEFAULT_SCHEDULE_VIEW: ScheduleView = "week";

/** Entries listed in one cell of the month grid; the rest become '+N mais'. */
export const MONTH_CELL_LIMIT = 3;
/** Entries a week column shows before '+N mais' (a busy practice books hundreds a day). */
export const WEEK_DAY_LIMIT = 20;
/** Entries the day view shows at most; past it the page says how many more and how to narrow. */
export const DAY_LIMIT = 100;

/**
 * The longest an appointment can last. A day's query starts this much earlier so an
 * appointment that began the evening before and is still running is found through the
 * start_time index (the range on start_time is what the index can serve).
 */
export const MAX_APPOINTMENT_MS = 24 * 60 * 60 * 1000;

export interface ScheduleParams {
  view: ScheduleView;
  /** The São Paulo calendar date the period is built around, 'YYYY-MM-DD'. */
  date: string;
  /** `?doctor=ID` as asked for; the loader drops it when no such doctor exists. */
  doctorId: number | null;
}

/** Reads `?view`, `?date` and `?doctor`; anything malformed falls back to the default, never an error. */
export function parseScheduleParams(url: URL, today: string = todayIsoInClinic()): ScheduleParams {
  const params = url.searchParams;
  const view = params.get("view");
  const date = params.get("date")?.trim() ?? "";
  return {
    view: isOneOf(SCHEDULE_VIEWS, view) ? view : DEFAULT_SCHEDULE_VIEW,
    date: isValidIsoDate(date) ? date : today,
    doctorId: parseId(params.get("doctor")),
  };
}

/** One São Paulo day of the visible period: [start, end) as epoch milliseconds. */
export interface ScheduleDay {
  date: string;
  start: number;
  end: number;
  /** Day of the month, '1'..'31'. */
  dayNumber: string;
  /** 'domingo, 22 de novembro de 2026'. */
  label: string;
  /** Short weekday, 'dom.'. */
  weekday: string;
  /** Full weekday, 'domingo'. */
  weekdayName: string;
  /** False for the leading/trailing days of adjacent months in the month grid. */
  inPeriod: boolean;
  isToday: boolean;
}

export interface SchedulePeriod {
  view: ScheduleView;
  date: string;
  /** The heading: 'domingo, 22 de novembro de 2026', 'Semana de 22 a 28 de novembro de 2026', 'novembro de 2026'. */
  title: string;
  /** Every day shown, in order (1, 7, or 28 to 42 for the month grid). */
  days: ScheduleDay[];
  /** The dates the 'Anterior' and 'Próximo' links go to. */
  previousDate: string;
  nextDate: string;
}

const DAY_TITLE = "EEEE, d 'de' MMMM 'de' yyyy";
/** Sunday first. date-fns' pt-BR 'EEE' is the whole word and 'EEEEEE' drops the accent of 'sáb'. */
const SHORT_WEEKDAYS = ["dom.", "seg.", "ter.", "qua.", "qui.", "sex.", "sáb."] as const;

/** Periods already worked out, by view, date and today: a month's 35 days cost about 0.25 ms of date formatting. */
const periods = new Map<string, SchedulePeriod>();
const MAX_PERIODS = 200;

/**
 * The period a view shows around `date` (São Paulo calendar dates), with its days and navigation.
 * The same view, date and today give the very same object, which no one may modify.
 */
export function schedulePeriod(view: ScheduleView, date: string, today: string = todayIsoInClinic()): SchedulePeriod {
  const key = `${view} ${date} ${today}`;
  let period = periods.get(key);
  if (period === undefined) {
    if (periods.size >= MAX_PERIODS) periods.clear();
    period = workOutPeriod(view, date, today);
    periods.set(key, period);
  }
  return period;
}

/** A schedule day with its entries, as the view shows it. */
export type ScheduleDayWithEntries = ScheduleDay & ScheduleDayEntries;
const periodDays = new WeakMap<SchedulePeriod, WeakMap<ScheduleDayEntries[], ScheduleDayWithEntries[]>>();

/**
 * The period's days, each with its entries (`listScheduleEntries`). Both are kept objects (the
 * entries until the appointments, patients or doctors are written), so their union is made once
 * for them: the same days for every view of the same schedule, whose markup is then kept under
 * their JSON made once (schedule-views.tsx).
 */
export function daysWithEntries(period: SchedulePeriod, entries: ScheduleDayEntries[]): ScheduleDayWithEntries[] {
  const byEntries = keptFor(periodDays, period, () => new WeakMap<ScheduleDayEntries[], ScheduleDayWithEntries[]>());
  return keptFor(byEntries, entries, () => period.days.map((day, i) => ({ ...day, ...entries[i] })));
}

/** A day as the page receives it (`scheduleDaysForPage`): its entries as rows of values. */
export type PackedScheduleDay = Omit<ScheduleDayWithEntries, "entries"> & { entries: PackedRows<ScheduleEntry> };

const PACKED_DAY_FIELDS = {
  date: true,
  start: true,
  end: true,
  dayNumber: true,
  label: true,
  weekday: true,
  weekdayName: true,
  inPeriod: true,
  isToday: true,
  entries: true,
  total: true,
} satisfies FieldList<PackedScheduleDay>;

/** An entry of the week and month views, which select neither type nor location. */
type BriefScheduleEntry = Omit<ScheduleEntry, "type" | "location">;

const ENTRY_FIELDS = {
  id: true,
  startTime: true,
  endTime: true,
  status: true,
  patientId: true,
  patientName: true,
  doctorName: true,
} satisfies FieldList<BriefScheduleEntry>;

/** The Day view's entries also carry type and location (`scheduleEntryOptions`). */
const DETAILED_ENTRY_FIELDS = { ...ENTRY_FIELDS, type: true, location: true } satisfies FieldList<ScheduleEntry>;

const packedDays = new WeakMap<object, PackedRows<PackedScheduleDay>>();

/**
 * The period's days as the page sends them: the days, and each day's entries, as rows of values
 * under one list of field names (app/lib/packed-rows.ts), not an object each. A month is 35 days
 * and a hundred entries, and each key of each object was one more value for React Router to
 * encode. Packed once per kept days (`daysWithEntries`), so every view between writes sends the
 * same value, as JSON text made once (`sentAsJson`); `unpackScheduleDays` (schedule-views.tsx)
 * gives the views their days back. The days of one period belong to one view, whose entries have
 * the fields `scheduleEntryOptions` selects.
 */
export function scheduleDaysForPage(days: ScheduleDayWithEntries[], view: ScheduleView): PackedRows<PackedScheduleDay> {
  return keptFor(packedDays, days, () =>
    sentAsJson(
      packRows(
        days.map((day) => ({
          ...day,
          entries: view === "day" ? packRows(day.entries, DETAILED_ENTRY_FIELDS) : packRows<BriefScheduleEntry>(day.entries, ENTRY_FIELDS),
        })),
        PACKED_DAY_FIELDS,
      ),
    ),
  );
}

function workOutPeriod(view: ScheduleView, date: string, today: string): SchedulePeriod {
  const anchor = startOfIsoDateInClinic(date) ?? startOfIsoDateInClinic(today)!;
  const isoOf = (instant: Date) => isoDateInClinic(instant)!;

  if (view === "day") {
    const [day] = eachDayInClinic(anchor, addDaysInClinic(anchor, 1)).map((d) => describeDay(d, today, true));
    return {
      view,
      date: day.date,
      title: day.label,
      days: [day],
      previousDate: isoOf(addDaysInClinic(anchor, -1)),
      nextDate: isoOf(addDaysInClinic(anchor, 1)),
    };
  }

  if (view === "week") {
    const range = weekRangeInClinic(anchor);
    const days = eachDayInClinic(range.start, range.end).map((d) => describeDay(d, today, true));
    return {
      view,
      date: isoOf(anchor),
      title: weekTitle(range.start, days[days.length - 1].start),
      days,
      previousDate: isoOf(addDaysInClinic(anchor, -7)),
      nextDate: isoOf(addDaysInClinic(anchor, 7)),
    };
  }

  const month = monthRangeInClinic(anchor);
  const lastDay = addDaysInClinic(month.end, -1);
  // Whole weeks, Sunday to Saturday, from the week of the 1st to the week of the last day.
  const gridStart = startOfWeekInClinic(month.start);
  const gridEnd = weekRangeInClinic(lastDay).end;
  const days = eachDayInClinic(gridStart, gridEnd).map((d) =>
    describeDay(d, today, d.getTime() >= month.start.getTime() && d.getTime() < month.end.getTime()),
  );
  return {
    view,
    date: isoOf(anchor),
    title: formatInClinic(month.start, "MMMM 'de' yyyy"),
    days,
    previousDate: isoOf(addMonthsInClinic(anchor, -1)),
    nextDate: isoOf(addMonthsInClinic(anchor, 1)),
  };
}

function describeDay(start: Date, today: string, inPeriod: boolean): ScheduleDay {
  const date = isoDateInClinic(start)!;
  return {
    date,
    start: start.getTime(),
    end: dayRangeInClinic(start).end.getTime(),
    dayNumber: formatInClinic(start, "d"),
    label: formatInClinic(start, DAY_TITLE),
    weekday: SHORT_WEEKDAYS[Number(formatInClinic(start, "i")) % 7],
    weekdayName: formatInClinic(start, "EEEE"),
    inPeriod,
    isToday: date === today,
  };
}

type DateLike = Date | number;

/** 'Semana de 22 a 28 de novembro de 2026', spelling out the month or year when they change. */
export function weekTitle(first: DateLike, last: DateLike): string {
  const f = (value: DateLike, pattern: string) => formatInClinic(value, pattern);
  if (f(first, "yyyy") !== f(last, "yyyy")) {
    return `Semana de ${f(first, "d 'de' MMMM 'de' yyyy")} a ${f(last, "d 'de' MMMM 'de' yyyy")}`;
  }
  if (f(first, "MM") !== f(last, "MM")) {
    return `Semana de ${f(first, "d 'de' MMMM")} a ${f(last, "d 'de' MMMM 'de' yyyy")}`;
  }
  return `Semana de ${f(first, "d")} a ${f(last, "d 'de' MMMM 'de' yyyy")}`;
}

// ── Queries ─────────────────────────────────────────────────────────────────

export interface ScheduleEntry {
  id: number;
  startTime: number;
  endTime: number;
  status: AppointmentStatus;
  patientId: number;
  patientName: string;
  doctorName: string;
  /** Only in the detailed (Day) listing. */
  type?: string;
  location?: string | null;
}

export interface ScheduleDayEntries {
  /** The first entries of the day by start time (all of them unless a limit was given). */
  entries: ScheduleEntry[];
  /** How many appointments overlap the day in all. */
  total: number;
}

export interface ScheduleQueryOptions {
  doctorId?: number | null;
  /** Keep at most this many entries per day (the month grid); the total still counts them all. */
  perDayLimit?: number;
  /** Also select type and location (the Day view shows them). */
  detailed?: boolean;
}

/**
 * What a view of the schedule lists: every view is bounded (a busy practice's week holds thousands
 * of appointments), and the day view also shows type and location.
 */
export function scheduleEntryOptions(view: ScheduleView, doctorId: number | null): ScheduleQueryOptions {
  return {
    doctorId,
    perDayLimit: view === "month" ? MONTH_CELL_LIMIT : view === "week" ? WEEK_DAY_LIMIT : DAY_LIMIT,
    detailed: view === "day",
  };
}

/**
 * The appointments overlapping each day (`start_time < day end and end_time > day start`),
 * with patient and doctor names, ordered by start time. An appointment that crosses midnight
 * belongs to both days. Counting and the per-day limit happen in SQL, so a busy month sends
 * at most `perDayLimit` rows per day. Returns one result per day, in the order given.
 *
 * Kept until the appointments, patients or doctors are written (app/.server/data-cache.ts): a day
 * or month is viewed again and again between changes, and its query was most of the page's cost
 * (0.5–0.9 ms on a large practice's database); a task, a payment or a message written meanwhile
 * leaves it. `readScheduleEntries` is the same without the cache.
 */
export function listScheduleEntries(
  days: ReadonlyArray<{ start: number; end: number }>,
  options: ScheduleQueryOptions = {},
): ScheduleDayEntries[] {
  const key = `schedule:${JSON.stringify([days.map((d) => [d.start, d.end]), options])}`;
  return cachedUntilTablesChange(["appointments", "patients", "doctors"], key, () => readScheduleEntries(days, options));
}

/** `listScheduleEntries`, read from the database every time. */
export function readScheduleEntries(
  days: ReadonlyArray<{ start: number; end: number }>,
  options: ScheduleQueryOptions = {},
): ScheduleDayEntries[] {
  if (days.length === 0) return [];
  const detailed = options.detailed ?? false;
  const rows = db.all<RawEntry>(scheduleEntriesQuery(days, options));

  const results = new Map<number, ScheduleDayEntries>(days.map((d) => [d.start, { entries: [], total: 0 }]));
  for (const row of rows) {
    const day = results.get(row.dayStart);
    if (!day) continue;
    day.total = row.total;
    day.entries.push({
      id: row.id,
      startTime: row.startTime,
      endTime: row.endTime,
      status: row.status,
      patientId: row.patientId,
      patientName: row.patientName,
      doctorName: row.doctorName,
      ...(detailed ? { type: row.type ?? "", location: row.location ?? null } : {}),
    });
  }
  return days.map((d) => results.get(d.start)!);
}

/** The SQL behind `listScheduleEntries` (exported so a test can check its query plan). */
export function scheduleEntriesQuery(
  days: ReadonlyArray<{ start: number; end: number }>,
  { doctorId = null, perDayLimit, detailed = false }: ScheduleQueryOptions = {},
): SQL {
  const dayRows = sql.join(
    days.map((d) => sql`(${d.start}, ${d.end})`),
    sql`, `,
  );
  if (perDayLimit !== undefined && perDayLimit <= WEEK_DAY_LIMIT) return fewPerDayQuery(dayRows, { doctorId, perDayLimit, detailed });
  const byDoctor: SQL = doctorId ? sql`and a.doctor_id = ${doctorId}` : sql``;
  const limit: SQL = perDayLimit !== undefined ? sql`where h.position <= ${perDayLimit}` : sql``;
  const details: SQL = detailed ? sql`, h.type as type, h.location as location` : sql``;

  // `days cross join appointments` fixes the loop order (SQLite keeps CROSS JOIN order), so each
  // day is one range scan of the start_time index, or of (doctor_id, start_time) when filtered.
  return sql`
    with days(day_start, day_end) as (values ${dayRows}),
    hits as (
      select d.day_start, a.id, a.start_time, a.end_time, a.status, a.type, a.location, a.patient_id, a.doctor_id,
        row_number() over (partition by d.day_start order by a.start_time, a.id) as position,
        count(*) over (partition by d.day_start) as total
      from days d cross join appointments a
      where a.start_time >= d.day_start - ${MAX_APPOINTMENT_MS}
        and a.start_time < d.day_end
        and a.end_time > d.day_start
        ${byDoctor}
    )
    select h.day_start as dayStart, h.id as id, h.start_time as startTime, h.end_time as endTime,
      h.status as status, h.patient_id as patientId, p.name as patientName, doc.name as doctorName, h.total as total ${details}
    from hits h
      join patients p on p.id = h.patient_id
      join doctors doc on doc.id = h.doctor_id
    ${limit}
    order by h.day_start, h.position
  `;
}

/**
 * The month grid's and the week's query: a day shows only its first entries (3 or 20). Its total
 * is one count over a range of the (start_time, end_time) index, which holds all it reads (or of
 * (doctor_id, start_time)), computed once per day (`materialized`: otherwise SQLite evaluates it
 * again for every row that reads it). Its first entries are two short range reads (below); only
 * those rows are read from the table and joined to names, instead of numbering every appointment
 * of the period (a month of a large practice: 36 → 2 ms; a week: 4.7 → 1.1 ms). With a hundred
 * entries a day (the day view) the single numbered scan above is faster.
 */
function fewPerDayQuery(dayRows: SQL, { doctorId, perDayLimit, detailed }: { doctorId: number | null; perDayLimit: number; detailed: boolean }): SQL {
  const byDoctor = (alias: string) => (doctorId ? sql`and ${sql.raw(alias)}.doctor_id = ${doctorId}` : sql``);
  const details: SQL = detailed ? sql`, a.type as type, a.location as location` : sql``;

  return sql`
    with days(day_start, day_end) as (values ${dayRows}),
    totals as materialized (
      select d.day_start, d.day_end,
        (select count(*) from appointments a
          where a.start_time >= d.day_start - ${MAX_APPOINTMENT_MS} and a.start_time < d.day_end and a.end_time > d.day_start ${byDoctor("a")}) as total
      from days d
    )
    select d.day_start as dayStart, a.id as id, a.start_time as startTime, a.end_time as endTime,
      a.status as status, a.patient_id as patientId, p.name as patientName, doc.name as doctorName, d.total as total ${details}
    from totals d
      cross join appointments a
      join patients p on p.id = a.patient_id
      join doctors doc on doc.id = a.doctor_id
    where d.total > 0
      and a.id in (
        -- The day's first entries: those still running from the day before (read from the
        -- (start_time, end_time) index alone), then the first few starting in it (an ordered
        -- range read that stops at the limit), instead of fetching every row of the day before.
        select id from (
          select e.id as id, e.start_time as start_time from appointments e
           where e.start_time >= d.day_start - ${MAX_APPOINTMENT_MS} and e.start_time < d.day_start and e.end_time > d.day_start ${byDoctor("e")}
          union all
          select id, start_time from (
            select e.id as id, e.start_time as start_time from appointments e
             where e.start_time >= d.day_start and e.start_time < d.day_end ${byDoctor("e")}
             order by e.start_time, e.id limit ${perDayLimit}
          )
        )
        order by start_time, id limit ${perDayLimit}
      )
    order by d.day_start, a.start_time, a.id
  `;
}

interface RawEntry {
  dayStart: number;
  id: number;
  startTime: number;
  endTime: number;
  status: AppointmentStatus;
  patientId: number;
  patientName: string;
  doctorName: string;
  total: number;
  type?: string;
  location?: string | null;
}

/**
 * Doctors for the filter: the active ones by name, plus the selected one if it is inactive. The
 * same rows on every view, so kept until the doctors are written (callers share the array).
 */
export function listScheduleDoctors(selectedId: number | null = null) {
  const where = selectedId ? or(eq(doctors.active, true), eq(doctors.id, selectedId)) : eq(doctors.active, true);
  return cachedUntilTablesChange(["doctors"], `schedule-doctors:${selectedId ?? ""}`, () =>
    db
      .select({ id: doctors.id, name: doctors.name, active: doctors.active })
      .from(doctors)
      .where(where)
      .orderBy(asc(doctors.searchText), asc(doctors.id))
      .all(),
  );
}
