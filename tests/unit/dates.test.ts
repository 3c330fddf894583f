/**
 * Every expected string here is São Paulo wall time, fixed, so the file passes under any
 * process TZ (run it with TZ=UTC and TZ=Asia/Tokyo to check).
 */
import { TZDate, tz } from "@date-fns/tz";
import { addDays, addMonths, format, isSameDay, startOfDay, startOfMonth, startOfWeek } from "date-fns";
import { ptBR } from "date-fns/locale";
import { describe, expect, test } from "vitest";
import {
  addDaysInClinic,
  addMonthsInClinic,
  addWeeksInClinic,
  CLINIC_TIME_ZONE,
  dayRangeInClinic,
  eachDayInClinic,
  formatAppointmentDate,
  formatDate,
  formatDateTime,
  formatInClinic,
  formatIsoDate,
  formatTime,
  fromDateTimeLocalValue,
  isoDateInClinic,
  isSameDayInClinic,
  isValidIsoDate,
  monthRangeInClinic,
  startOfDayInClinic,
  startOfIsoDateInClinic,
  startOfMonthInClinic,
  startOfWeekInClinic,
  toDateTimeLocalValue,
  toInstant,
  todayIsoInClinic,
  weekRangeInClinic,
} from "~/lib/dates";

// 2024-01-16 01:30 UTC is still 15 January in São Paulo (22:30, UTC-3) and already 16 January
// in UTC and Tokyo: a formatter using the process zone gets the day wrong.
const LATE_EVENING = new Date("2024-01-16T01:30:00Z");

test("the clinic zone is São Paulo", () => {
  expect(CLINIC_TIME_ZONE).toBe("America/Sao_Paulo");
});

describe("display formats", () => {
  test("formatDate, formatDateTime and formatTime show São Paulo wall time", () => {
    expect(formatDate(LATE_EVENING)).toBe("15/01/2024");
    expect(formatDateTime(LATE_EVENING)).toBe("15/01/2024 22:30");
    expect(formatTime(LATE_EVENING)).toBe("22:30");
  });

  test("formatAppointmentDate is 'MMM dd, yyyy' in pt-BR", () => {
    expect(formatAppointmentDate(LATE_EVENING)).toBe("jan 15, 2024");
    expect(formatAppointmentDate(new Date("2024-02-05T12:00:00Z"))).toBe("fev 05, 2024");
    expect(formatAppointmentDate(new Date("2024-12-31T12:00:00Z"))).toBe("dez 31, 2024");
  });

  test("accepts ISO text with offset, epoch milliseconds and offset-less UTC text", () => {
    expect(formatDateTime("2024-01-16T01:30:00.000Z")).toBe("15/01/2024 22:30");
    expect(formatDateTime("2024-01-15T22:30:00-03:00")).toBe("15/01/2024 22:30");
    expect(formatDateTime(LATE_EVENING.getTime())).toBe("15/01/2024 22:30");
    // SQLite CURRENT_TIMESTAMP style: UTC without a designator.
    expect(formatDateTime("2024-01-16 01:30:00")).toBe("15/01/2024 22:30");
    expect(formatDateTime("2024-01-16T01:30")).toBe("15/01/2024 22:30");
  });

  test("a calendar date given to formatDate does not move to the day before", () => {
    expect(formatDate("2024-01-15")).toBe("15/01/2024");
    expect(formatDateTime("2024-01-15")).toBe("15/01/2024 00:00");
  });

  test("uses the zone rules of the time, not a fixed -03:00 (DST until 2019)", () => {
    // 15 Jan 2018: Brazilian summer time, UTC-2.
    expect(formatDateTime(new Date("2018-01-15T12:00:00Z"))).toBe("15/01/2018 10:00");
    // 15 Jul 2018: standard time, UTC-3.
    expect(formatDateTime(new Date("2018-07-15T12:00:00Z"))).toBe("15/07/2018 09:00");
  });

  test("formatInClinic takes any pattern with the pt-BR locale", () => {
    expect(formatInClinic(LATE_EVENING, "EEEE, d 'de' MMMM")).toBe("segunda-feira, 15 de janeiro");
    expect(formatInClinic(LATE_EVENING, "d 'de' MMM 'de' yyyy, HH'h'mm")).toBe("15 de jan de 2024, 22h30");
  });

  test("formatInClinic gives what date-fns' format gives, across DST changes and the years", () => {
    const patterns = [
      "dd/MM/yyyy",
      "dd/MM/yyyy HH:mm",
      "MMM dd, yyyy",
      "HH:mm",
      "yyyy-MM-dd",
      "yyyy-MM-dd'T'HH:mm",
      "MMMM 'de' yyyy",
      "EEEE, d 'de' MMMM 'de' yyyy",
      "d 'de' MMM 'de' yyyy, HH'h'mm",
      "dd/MM",
      "d",
      "i",
      "EEEE",
      "EEE EEEEEE E H:m:s y yy M MM ss ii",
      "'it''s' HH 'o''clock'",
    ];
    const inClinic = tz(CLINIC_TIME_ZONE);
    // Every 9 days 7 h 13 min from 1985 to 2035 (Brazil's summer time came and went in between;
    // the step walks through every hour of the day), plus every 5 minutes around the 2018/2019 changes.
    const instants: number[] = [];
    for (let t = Date.UTC(1985, 0, 1); t < Date.UTC(2035, 0, 1); t += ((9 * 24 + 7) * 60 + 13) * 60_000) instants.push(t);
    for (const edge of [Date.UTC(2018, 10, 4, 3), Date.UTC(2019, 1, 17, 2)]) {
      for (let t = edge - 3 * 3_600_000; t <= edge + 3 * 3_600_000; t += 5 * 60_000) instants.push(t);
    }
    let compared = 0;
    for (const t of instants) {
      for (const pattern of patterns) {
        const expected = format(t, pattern, { in: inClinic, locale: ptBR });
        if (formatInClinic(t, pattern) !== expected) expect(`${new Date(t).toISOString()} ${pattern}: ${formatInClinic(t, pattern)}`).toBe(expected);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(30_000);
  }, 30_000);

  test("a São Paulo wall time is the instant TZDate gives, around every DST change since 1985", () => {
    // Days on which São Paulo's offset changed, found by comparing consecutive noons (UTC).
    const offsetAt = (t: number) => Number(formatInClinic(t, "H")) - new Date(t).getUTCHours();
    const changes: number[] = [];
    for (let t = Date.UTC(1985, 0, 1, 12); t < Date.UTC(2035, 0, 1); t += 86_400_000) {
      if ((offsetAt(t) - offsetAt(t - 86_400_000) + 24) % 24 !== 0) changes.push(t);
    }
    expect(changes.length).toBeGreaterThan(50);
    let compared = 0;
    for (const noon of changes) {
      const day = new Date(noon - 86_400_000);
      for (let minutes = 0; minutes < 48 * 60; minutes += 20) {
        const wall = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 0, minutes));
        const text = wall.toISOString().slice(0, 16);
        const expected = new TZDate(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), wall.getUTCHours(), wall.getUTCMinutes(), 0, CLINIC_TIME_ZONE);
        const ours = fromDateTimeLocalValue(text)!;
        // An hour repeated when summer time ended has two instants; TZDate's choice then depends
        // on the process's own zone, ours is always the first.
        const repeated =
          ours.getTime() < expected.getTime() && toDateTimeLocalValue(ours) === text && toDateTimeLocalValue(expected) === text;
        if (!repeated) expect(`${text} → ${ours.toISOString()}`).toBe(`${text} → ${new Date(expected.getTime()).toISOString()}`);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  }, 30_000);

  test("formatInClinic refuses a token it does not know instead of printing something else", () => {
    expect(() => formatInClinic(LATE_EVENING, "dd/MM/yyyy hh:mm a")).toThrow(/unsupported token 'hh'/);
  });

  test("missing or invalid → '-'", () => {
    for (const fn of [formatDate, formatDateTime, formatAppointmentDate, formatTime]) {
      expect(fn(null)).toBe("-");
      expect(fn(undefined)).toBe("-");
      expect(fn("")).toBe("-");
      expect(fn("not a date")).toBe("-");
      expect(fn(new Date(Number.NaN))).toBe("-");
      expect(fn("2024-02-30")).toBe("-");
    }
  });
});

describe("formatIsoDate", () => {
  test("rearranges the text, no time zone involved", () => {
    expect(formatIsoDate("2024-01-15")).toBe("15/01/2024");
    expect(formatIsoDate("1990-12-31")).toBe("31/12/1990");
    expect(formatIsoDate("2024-01-01")).toBe("01/01/2024");
  });

  test("an instant is formatted in São Paulo", () => {
    expect(formatIsoDate("2024-01-16T01:30:00Z")).toBe("15/01/2024");
  });

  test("missing or invalid → '-'", () => {
    expect(formatIsoDate(null)).toBe("-");
    expect(formatIsoDate(undefined)).toBe("-");
    expect(formatIsoDate("")).toBe("-");
    expect(formatIsoDate("2024-13-01")).toBe("-");
    expect(formatIsoDate("2023-02-29")).toBe("-");
  });
});

describe("isValidIsoDate", () => {
  test.each([
    ["2024-02-29", true],
    ["2023-02-28", true],
    ["2024-12-31", true],
    ["2023-02-29", false],
    ["2024-02-30", false],
    ["2024-04-31", false],
    ["2024-13-01", false],
    ["2024-00-10", false],
    ["2024-01-00", false],
    ["2024-1-5", false],
    ["15/01/2024", false],
    ["2024-01-15T00:00", false],
    ["", false],
    ["0099-01-01", false],
  ])("%j → %s", (value, expected) => {
    expect(isValidIsoDate(value)).toBe(expected);
  });

  test("null and undefined are not dates", () => {
    expect(isValidIsoDate(null)).toBe(false);
    expect(isValidIsoDate(undefined)).toBe(false);
  });
});

describe("datetime-local values", () => {
  test("toDateTimeLocalValue gives São Paulo wall time", () => {
    expect(toDateTimeLocalValue(LATE_EVENING)).toBe("2024-01-15T22:30");
    expect(toDateTimeLocalValue("2018-01-15T12:00:00Z")).toBe("2018-01-15T10:00");
    expect(toDateTimeLocalValue(null)).toBe("");
    expect(toDateTimeLocalValue("garbage")).toBe("");
  });

  test("fromDateTimeLocalValue reads São Paulo wall time", () => {
    expect(fromDateTimeLocalValue("2024-01-15T22:30")?.toISOString()).toBe("2024-01-16T01:30:00.000Z");
    expect(fromDateTimeLocalValue("2024-01-15T09:00:30")?.toISOString()).toBe("2024-01-15T12:00:30.000Z");
    expect(fromDateTimeLocalValue("2024-01-15 09:00")?.toISOString()).toBe("2024-01-15T12:00:00.000Z");
    // Summer time in 2018: UTC-2.
    expect(fromDateTimeLocalValue("2018-01-15T10:00")?.toISOString()).toBe("2018-01-15T12:00:00.000Z");
  });

  test("a wall time skipped by the 2018 DST start moves forward", () => {
    // 4 Nov 2018 00:00-00:59 did not exist in São Paulo; the day began at 01:00 (UTC-2).
    expect(fromDateTimeLocalValue("2018-11-04T00:30")?.toISOString()).toBe("2018-11-04T03:30:00.000Z");
  });

  test("round-trips", () => {
    for (const value of ["2024-01-15T22:30", "2024-03-01T00:00", "2018-02-10T23:59", "2030-07-04T12:15"]) {
      expect(toDateTimeLocalValue(fromDateTimeLocalValue(value))).toBe(value);
    }
  });

  test.each([
    "",
    "   ",
    "2024-01-15",
    "2024-02-30T10:00",
    "2024-01-15T24:00",
    "2024-01-15T10:60",
    "2024-01-15T10:00Z",
    "2024-01-15T10:00-03:00",
    "15/01/2024 10:00",
    "tomorrow",
  ])("invalid %j → null", (value) => {
    expect(fromDateTimeLocalValue(value)).toBeNull();
  });

  test("null and undefined → null", () => {
    expect(fromDateTimeLocalValue(null)).toBeNull();
    expect(fromDateTimeLocalValue(undefined)).toBeNull();
  });
});

describe("calendar boundaries in São Paulo", () => {
  test("startOfDayInClinic is São Paulo midnight as a UTC instant", () => {
    expect(startOfDayInClinic(LATE_EVENING).toISOString()).toBe("2024-01-15T03:00:00.000Z");
    expect(startOfDayInClinic(new Date("2024-01-15T03:00:00Z")).toISOString()).toBe("2024-01-15T03:00:00.000Z");
    expect(startOfDayInClinic(new Date("2024-01-15T02:59:59Z")).toISOString()).toBe("2024-01-14T03:00:00.000Z");
  });

  test("the day DST began in 2018 started at 01:00 local", () => {
    expect(startOfDayInClinic(new Date("2018-11-04T15:00:00Z")).toISOString()).toBe("2018-11-04T03:00:00.000Z");
    const { start, end } = dayRangeInClinic(new Date("2018-11-04T15:00:00Z"));
    expect(end.getTime() - start.getTime()).toBe(23 * 3600_000);
  });

  test("a summer-time day in 2018 starts at 02:00 UTC", () => {
    expect(startOfDayInClinic(new Date("2018-01-15T12:00:00Z")).toISOString()).toBe("2018-01-15T02:00:00.000Z");
  });

  test("startOfWeekInClinic: Sunday by default, Monday on request", () => {
    expect(startOfWeekInClinic(LATE_EVENING).toISOString()).toBe("2024-01-14T03:00:00.000Z");
    expect(startOfWeekInClinic(LATE_EVENING, { weekStartsOn: 1 }).toISOString()).toBe("2024-01-15T03:00:00.000Z");
  });

  test("startOfMonthInClinic uses the São Paulo month", () => {
    // 1 Feb 2024 01:00 UTC is still 31 January in São Paulo.
    expect(startOfMonthInClinic(new Date("2024-02-01T01:00:00Z")).toISOString()).toBe("2024-01-01T03:00:00.000Z");
    expect(startOfMonthInClinic(new Date("2024-02-01T03:00:00Z")).toISOString()).toBe("2024-02-01T03:00:00.000Z");
  });

  test("ranges are half-open [start, end)", () => {
    const day = dayRangeInClinic(LATE_EVENING);
    expect([day.start.toISOString(), day.end.toISOString()]).toEqual([
      "2024-01-15T03:00:00.000Z",
      "2024-01-16T03:00:00.000Z",
    ]);
    const week = weekRangeInClinic(LATE_EVENING);
    expect([week.start.toISOString(), week.end.toISOString()]).toEqual([
      "2024-01-14T03:00:00.000Z",
      "2024-01-21T03:00:00.000Z",
    ]);
  });

  test("this month and last month, across a year boundary", () => {
    const now = new Date("2024-01-20T15:00:00Z");
    const thisMonth = monthRangeInClinic(now);
    const lastMonth = monthRangeInClinic(now, -1);
    expect([thisMonth.start.toISOString(), thisMonth.end.toISOString()]).toEqual([
      "2024-01-01T03:00:00.000Z",
      "2024-02-01T03:00:00.000Z",
    ]);
    expect([lastMonth.start.toISOString(), lastMonth.end.toISOString()]).toEqual([
      "2023-12-01T03:00:00.000Z",
      "2024-01-01T03:00:00.000Z",
    ]);
  });

  test("a month range spanning the 2018 DST start keeps local midnights", () => {
    // DST began on 4 Nov 2018: 1 Nov was still UTC-3, 1 Dec was UTC-2.
    const { start, end } = monthRangeInClinic(new Date("2018-11-15T12:00:00Z"));
    expect(start.toISOString()).toBe("2018-11-01T03:00:00.000Z");
    expect(end.toISOString()).toBe("2018-12-01T02:00:00.000Z");
  });

  test("the week with the 2018 DST start: every day starts at its local midnight", () => {
    const { start, end } = weekRangeInClinic(new Date("2018-11-06T12:00:00Z"));
    const days = eachDayInClinic(start, end).map((d) => d.toISOString());
    expect(days).toEqual([
      "2018-11-04T03:00:00.000Z", // the day began at 01:00, UTC-2
      "2018-11-05T02:00:00.000Z",
      "2018-11-06T02:00:00.000Z",
      "2018-11-07T02:00:00.000Z",
      "2018-11-08T02:00:00.000Z",
      "2018-11-09T02:00:00.000Z",
      "2018-11-10T02:00:00.000Z",
    ]);
    expect(end.toISOString()).toBe("2018-11-11T02:00:00.000Z");
  });

  test("adding days, weeks and months keeps the São Paulo wall-clock time", () => {
    expect(formatDateTime(addDaysInClinic(LATE_EVENING, 1))).toBe("16/01/2024 22:30");
    expect(formatDateTime(addDaysInClinic(LATE_EVENING, -15))).toBe("31/12/2023 22:30");
    expect(formatDateTime(addWeeksInClinic(LATE_EVENING, 2))).toBe("29/01/2024 22:30");
    expect(formatDateTime(addMonthsInClinic(new Date("2024-01-31T13:00:00Z"), 1))).toBe("29/02/2024 10:00");
    // Across the 2018 DST start: 09:00 stays 09:00 although the offset changed.
    expect(formatDateTime(addDaysInClinic(new Date("2018-11-03T12:00:00Z"), 1))).toBe("04/11/2018 09:00");
  });

  test("day, week and month arithmetic gives what date-fns with TZDate gives, around every DST change and at random", () => {
    const inClinic = tz(CLINIC_TIME_ZONE);
    const reference = {
      startOfDay: (d: Date) => startOfDay(d, { in: inClinic }),
      startOfWeek: (d: Date) => startOfWeek(d, { in: inClinic, locale: ptBR }),
      startOfMondayWeek: (d: Date) => startOfWeek(d, { in: inClinic, weekStartsOn: 1 }),
      startOfMonth: (d: Date) => startOfMonth(d, { in: inClinic }),
      addDays: (d: Date, n: number) => addDays(d, n, { in: inClinic }),
      addMonths: (d: Date, n: number) => addMonths(d, n, { in: inClinic }),
    };
    const ours = {
      startOfDay: (d: Date) => startOfDayInClinic(d),
      startOfWeek: (d: Date) => startOfWeekInClinic(d),
      startOfMondayWeek: (d: Date) => startOfWeekInClinic(d, { weekStartsOn: 1 }),
      startOfMonth: (d: Date) => startOfMonthInClinic(d),
      addDays: (d: Date, n: number) => addDaysInClinic(d, n),
      addMonths: (d: Date, n: number) => addMonthsInClinic(d, n),
    };
    // Instants every 90 minutes (and a few milliseconds) around each day the offset changed,
    // plus instants at random over forty years.
    const offsetAt = (t: number) => Number(formatInClinic(t, "H")) - new Date(t).getUTCHours();
    const instants: number[] = [];
    for (let t = Date.UTC(1985, 0, 1, 12); t < Date.UTC(2025, 0, 1); t += 86_400_000) {
      if ((offsetAt(t) - offsetAt(t - 86_400_000) + 24) % 24 === 0) continue;
      for (let m = -60 * 60; m < 60 * 60; m += 90) instants.push(t + m * 60_000 + 7);
    }
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2_000; i++) instants.push(Date.UTC(1985, 0, 1) + Math.floor(random() * 40 * 365 * 86_400_000));
    // An hour repeated when summer time ended has two instants; TZDate's choice then depends on
    // the process's own zone, ours is always the first (as for fromDateTimeLocalValue above).
    const sameWallTime = (a: Date, b: Date) => formatInClinic(a, "yyyy-MM-dd HH:mm:ss") === formatInClinic(b, "yyyy-MM-dd HH:mm:ss");
    let compared = 0;
    for (const t of instants) {
      const date = new Date(t);
      for (const name of ["startOfDay", "startOfWeek", "startOfMondayWeek", "startOfMonth"] as const) {
        const [got, want] = [ours[name](date), new Date(reference[name](date).getTime())];
        if (got.getTime() !== want.getTime() && !(got < want && sameWallTime(got, want))) expect(`${name} ${date.toISOString()} → ${got.toISOString()}`).toBe(`${name} ${date.toISOString()} → ${want.toISOString()}`);
        compared++;
      }
      for (const name of ["addDays", "addMonths"] as const) {
        for (const n of [-13, -1, 1, 2, 35]) {
          const [got, want] = [ours[name](date, n), new Date(reference[name](date, n).getTime())];
          if (got.getTime() !== want.getTime() && !(got < want && sameWallTime(got, want))) expect(`${name}(${n}) ${date.toISOString()} → ${got.toISOString()}`).toBe(`${name}(${n}) ${date.toISOString()} → ${want.toISOString()}`);
          compared++;
        }
      }
      expect(isSameDayInClinic(date, new Date(t + 3_600_000))).toBe(isSameDay(date, new Date(t + 3_600_000), { in: inClinic }));
    }
    expect(compared).toBeGreaterThan(90_000);
  }, 60_000);

  test("eachDayInClinic lists the day starts of a week", () => {
    const { start, end } = weekRangeInClinic(LATE_EVENING);
    const days = eachDayInClinic(start, end);
    expect(days.map((d) => formatDate(d))).toEqual([
      "14/01/2024",
      "15/01/2024",
      "16/01/2024",
      "17/01/2024",
      "18/01/2024",
      "19/01/2024",
      "20/01/2024",
    ]);
    expect(days[1].toISOString()).toBe("2024-01-15T03:00:00.000Z");
  });

  test("isSameDayInClinic compares São Paulo days", () => {
    expect(isSameDayInClinic(LATE_EVENING, new Date("2024-01-15T03:00:00Z"))).toBe(true);
    expect(isSameDayInClinic(LATE_EVENING, new Date("2024-01-16T03:00:00Z"))).toBe(false);
  });

  test("boundary functions refuse invalid input instead of returning Invalid Date", () => {
    expect(() => startOfDayInClinic("nonsense")).toThrow(RangeError);
  });
});

describe("ISO dates in the clinic", () => {
  test("isoDateInClinic and todayIsoInClinic use the São Paulo date", () => {
    expect(isoDateInClinic(LATE_EVENING)).toBe("2024-01-15");
    expect(todayIsoInClinic(LATE_EVENING)).toBe("2024-01-15");
    expect(todayIsoInClinic(new Date("2024-01-16T03:00:00Z"))).toBe("2024-01-16");
    expect(isoDateInClinic(null)).toBeNull();
  });

  test("todayIsoInClinic defaults to now", () => {
    expect(todayIsoInClinic()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(todayIsoInClinic()).toBe(isoDateInClinic(new Date()));
  });

  test("startOfIsoDateInClinic is São Paulo midnight of that date", () => {
    expect(startOfIsoDateInClinic("2024-01-15")?.toISOString()).toBe("2024-01-15T03:00:00.000Z");
    expect(startOfIsoDateInClinic("2018-01-15")?.toISOString()).toBe("2018-01-15T02:00:00.000Z");
    expect(startOfIsoDateInClinic("2024-02-30")).toBeNull();
    expect(startOfIsoDateInClinic(null)).toBeNull();
  });

  test("toInstant returns plain Dates and null for nonsense", () => {
    const date = toInstant("2024-01-15");
    expect(date?.constructor).toBe(Date);
    expect(date?.toISOString()).toBe("2024-01-15T03:00:00.000Z");
    expect(toInstant("nonsense")).toBeNull();
    expect(toInstant("")).toBeNull();
    expect(startOfDayInClinic(LATE_EVENING).constructor).toBe(Date);
  });
});
