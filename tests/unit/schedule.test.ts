/**
 * The /schedule periods, grids and query. Every expected value is São Paulo wall time written
 * out as a fixed UTC instant, so the file must pass under any process TZ: run it with TZ=UTC
 * and TZ=Asia/Tokyo (both shift a naive local-midnight computation off by hours).
 */
import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, test } from "vitest";
import { appointments, doctors } from "~db/schema";
import { databasePath, db, sqlite } from "~/.server/db";
import { todayIsoInClinic } from "~/lib/dates";
import {
  MONTH_CELL_LIMIT,
  WEEK_DAY_LIMIT,
  listScheduleDoctors,
  listScheduleEntries,
  parseScheduleParams,
  scheduleEntriesQuery,
  schedulePeriod,
  weekTitle,
} from "~/models/schedule.server";
import { loader } from "~/routes/schedule";
import { unpackScheduleDays } from "~/components/schedule/schedule-views";
import { getRequest, insertDoctor, insertPatient, loginAs, routeArgs } from "./helpers";

const HOUR = 60 * 60 * 1000;
const utc = (iso: string) => new Date(iso).getTime();
const dates = (days: Array<{ date: string }>) => days.map((d) => d.date);

describe("parseScheduleParams", () => {
  const parse = (query: string) => parseScheduleParams(new URL(`http://x/schedule${query}`), "2026-11-22");

  test("defaults to this week in São Paulo", () => {
    expect(parse("")).toEqual({ view: "week", date: "2026-11-22", doctorId: null });
  });

  test("reads a valid view, date and doctor", () => {
    expect(parse("?view=month&date=2024-02-29&doctor=7")).toEqual({ view: "month", date: "2024-02-29", doctorId: 7 });
    expect(parse("?view=day&date=2026-01-05")).toMatchObject({ view: "day", date: "2026-01-05" });
  });

  test("falls back to the defaults on anything malformed, never throwing", () => {
    for (const query of ["?date=2026-02-30", "?date=2023-02-29", "?date=22/11/2026", "?date=", "?date=0999-01-01", "?date=2026-11-22T10:00"]) {
      expect(parse(query).date).toBe("2026-11-22");
    }
    expect(parse("?view=year").view).toBe("week");
    expect(parse("?view=DAY").view).toBe("week");
    for (const doctor of ["abc", "-1", "0", "1.5", ""]) expect(parse(`?doctor=${doctor}`).doctorId).toBeNull();
  });

  test("today is the São Paulo date, not the server's", () => {
    // 01:30 UTC on 23 November is still 22 November, 22:30, in São Paulo.
    const today = todayIsoInClinic(new Date("2026-11-23T01:30:00Z"));
    expect(parseScheduleParams(new URL("http://x/schedule"), today).date).toBe("2026-11-22");
  });
});

describe("schedulePeriod", () => {
  test("day: one São Paulo day, its pt-BR title and the neighbouring days", () => {
    const period = schedulePeriod("day", "2026-11-22", "2026-11-22");
    expect(period.title).toBe("domingo, 22 de novembro de 2026");
    expect(period.days).toHaveLength(1);
    expect(period.days[0]).toMatchObject({
      date: "2026-11-22",
      start: utc("2026-11-22T03:00:00Z"),
      end: utc("2026-11-23T03:00:00Z"),
      isToday: true,
      inPeriod: true,
    });
    expect([period.previousDate, period.nextDate]).toEqual(["2026-11-21", "2026-11-23"]);
    expect(schedulePeriod("day", "2026-03-01", "2026-11-22").previousDate).toBe("2026-02-28");
  });

  test("week: Sunday to Saturday around the date, today flagged", () => {
    const period = schedulePeriod("week", "2026-11-25", "2026-11-24");
    expect(period.title).toBe("Semana de 22 a 28 de novembro de 2026");
    expect(dates(period.days)).toEqual(["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28"]);
    expect(period.days.map((d) => d.weekday)).toEqual(["dom.", "seg.", "ter.", "qua.", "qui.", "sex.", "sáb."]);
    expect(period.days.filter((d) => d.isToday).map((d) => d.date)).toEqual(["2026-11-24"]);
    expect(period.days[0].start).toBe(utc("2026-11-22T03:00:00Z"));
    expect(period.days[6].end).toBe(utc("2026-11-29T03:00:00Z"));
    expect([period.previousDate, period.nextDate]).toEqual(["2026-11-18", "2026-12-02"]);
    // A Sunday and a Saturday belong to the week they start / end.
    expect(dates(schedulePeriod("week", "2026-11-22").days)[0]).toBe("2026-11-22");
    expect(dates(schedulePeriod("week", "2026-11-28").days)[0]).toBe("2026-11-22");
  });

  test("week titles spell out the month or the year when the week crosses one", () => {
    expect(schedulePeriod("week", "2026-12-01").title).toBe("Semana de 29 de novembro a 5 de dezembro de 2026");
    expect(schedulePeriod("week", "2026-12-31").title).toBe("Semana de 27 de dezembro de 2026 a 2 de janeiro de 2027");
    expect(weekTitle(utc("2026-11-01T03:00:00Z"), utc("2026-11-07T03:00:00Z"))).toBe("Semana de 1 a 7 de novembro de 2026");
  });

  test("month: whole weeks covering the month, days of other months marked outside", () => {
    const november = schedulePeriod("month", "2026-11-17", "2026-11-22");
    expect(november.title).toBe("novembro de 2026");
    // 1 November 2026 is a Sunday and the 30th a Monday: five weeks, up to Saturday 5 December.
    expect(november.days).toHaveLength(35);
    expect(november.days[0].date).toBe("2026-11-01");
    expect(november.days[34].date).toBe("2026-12-05");
    expect(november.days.filter((d) => !d.inPeriod).map((d) => d.date)).toEqual(["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05"]);
    expect(november.days.find((d) => d.isToday)?.date).toBe("2026-11-22");
    expect([november.previousDate, november.nextDate]).toEqual(["2026-10-17", "2026-12-17"]);

    const december = schedulePeriod("month", "2026-12-01");
    expect(december.days.slice(0, 3).map((d) => [d.date, d.inPeriod])).toEqual([
      ["2026-11-29", false],
      ["2026-11-30", false],
      ["2026-12-01", true],
    ]);
    expect(december.days.length % 7).toBe(0);

    // Six weeks when the 1st is a Saturday (August 2026), four for a February starting on Sunday.
    const august = schedulePeriod("month", "2026-08-15");
    expect(august.days).toHaveLength(42);
    expect([august.days[0].date, august.days[41].date]).toEqual(["2026-07-26", "2026-09-05"]);
    expect(schedulePeriod("month", "2026-02-10").days).toHaveLength(28);
  });

  test("month navigation keeps the day when it can and clamps at the month's end", () => {
    const january = schedulePeriod("month", "2026-01-31");
    expect(january.nextDate).toBe("2026-02-28");
    expect(january.previousDate).toBe("2025-12-31");
  });

  test("days follow São Paulo midnights across the old daylight-saving changes", () => {
    // 4 November 2018: clocks jumped from 00:00 to 01:00, so that day began at 01:00 (-02:00).
    const spring = schedulePeriod("week", "2018-11-04");
    expect(dates(spring.days)).toEqual(["2018-11-04", "2018-11-05", "2018-11-06", "2018-11-07", "2018-11-08", "2018-11-09", "2018-11-10"]);
    expect(spring.days[0].start).toBe(utc("2018-11-04T03:00:00Z"));
    expect(spring.days[0].end - spring.days[0].start).toBe(23 * HOUR);
    expect(spring.days[1].start).toBe(utc("2018-11-05T02:00:00Z"));
    for (let i = 1; i < 7; i++) expect(spring.days[i].start).toBe(spring.days[i - 1].end);
    // 16 February 2019 lasted 25 hours: 23:00 came twice when summer time ended.
    const autumn = schedulePeriod("day", "2019-02-16");
    expect(autumn.days[0].end - autumn.days[0].start).toBe(25 * HOUR);
    expect(autumn.title).toBe("sábado, 16 de fevereiro de 2019");
  });
});

describe("listScheduleEntries", () => {
  let anaId: number;
  let beaId: number;
  let drSilva: number;
  let drCosta: number;
  const ids: Record<string, number> = {};

  function addAppointment(key: string, start: string, end: string, extra: Partial<typeof appointments.$inferInsert> = {}) {
    const row = db
      .insert(appointments)
      .values({ patientId: anaId, doctorId: drSilva, startTime: new Date(start), endTime: new Date(end), type: "Retorno", location: "Sala 2", ...extra })
      .returning({ id: appointments.id })
      .get();
    ids[key] = row.id;
  }

  beforeAll(() => {
    const patient = (name: string) => insertPatient(name);
    const doctor = (name: string, active = true) => insertDoctor(name, { crm: "12345", active });
    anaId = patient("Ana Souza");
    beaId = patient("Beatriz Lima");
    drSilva = doctor("Dr. Silva");
    drCosta = doctor("Dra. Costa");
    doctor("Dr. Antigo", false);

    // 22 Nov 2026, 23:30–23:59 in São Paulo = 23 Nov, 02:30–02:59 UTC.
    addAppointment("lateEvening", "2026-11-23T02:30:00Z", "2026-11-23T02:59:00Z");
    // 23 Nov 2026, 00:15–00:45 in São Paulo = 23 Nov, 03:15 UTC.
    addAppointment("earlyMorning", "2026-11-23T03:15:00Z", "2026-11-23T03:45:00Z", { patientId: beaId, doctorId: drCosta, status: "confirmed" });
    // Ends exactly at midnight: belongs to 24 Nov only (ranges are half-open).
    addAppointment("toMidnight", "2026-11-25T02:30:00Z", "2026-11-25T03:00:00Z");
    // 25 Nov 23:30 – 26 Nov 00:30 in São Paulo: on both days.
    addAppointment("overnight", "2026-11-26T02:30:00Z", "2026-11-26T03:30:00Z");
    // Saturday 21 Nov, outside the week of the 22nd.
    addAppointment("previousWeek", "2026-11-21T13:00:00Z", "2026-11-21T14:00:00Z");
    // Five on 10 Nov, inserted out of order: 08:00, 09:00 … 12:00 São Paulo.
    for (const hour of [12, 9, 11, 8, 10]) {
      const h = String(hour + 3).padStart(2, "0");
      addAppointment(`busy${hour}`, `2026-11-10T${h}:00:00Z`, `2026-11-10T${h}:30:00Z`, { status: hour === 9 ? "cancelled" : "scheduled" });
    }
  });

  test("an appointment at 23:30 São Paulo (02:30 UTC the next day) lands on its São Paulo day", () => {
    const [sunday, monday] = listScheduleEntries(schedulePeriod("week", "2026-11-22").days.slice(0, 2));
    expect(sunday.entries.map((e) => e.id)).toEqual([ids.lateEvening]);
    expect(monday.entries.map((e) => e.id)).toEqual([ids.earlyMorning]);
    expect(sunday.entries[0]).toEqual({
      id: ids.lateEvening,
      startTime: utc("2026-11-23T02:30:00Z"),
      endTime: utc("2026-11-23T02:59:00Z"),
      status: "scheduled",
      patientId: anaId,
      patientName: "Ana Souza",
      doctorName: "Dr. Silva",
    });
    expect(monday.entries[0]).toMatchObject({ patientName: "Beatriz Lima", doctorName: "Dra. Costa", status: "confirmed" });
  });

  test("the week lists each day's overlapping appointments; a night appointment shows on both days", () => {
    const week = schedulePeriod("week", "2026-11-22").days;
    const result = listScheduleEntries(week);
    const byDate = Object.fromEntries(week.map((d, i) => [d.date, result[i].entries.map((e) => e.id)]));
    expect(byDate).toEqual({
      "2026-11-22": [ids.lateEvening],
      "2026-11-23": [ids.earlyMorning],
      "2026-11-24": [ids.toMidnight],
      "2026-11-25": [ids.overnight],
      "2026-11-26": [ids.overnight],
      "2026-11-27": [],
      "2026-11-28": [],
    });
    expect(result.map((r) => r.total)).toEqual([1, 1, 1, 1, 1, 0, 0]);
  });

  test("entries are kept until the appointments, patients or doctors are written, here or from another connection", () => {
    const days = schedulePeriod("week", "2026-11-29").days;
    const ofWeek = () => listScheduleEntries(days).flatMap((d) => d.entries.map((e) => `${e.id}:${e.status}`));
    const names = () => listScheduleEntries(days).flatMap((d) => d.entries.map((e) => `${e.patientName} / ${e.doctorName}`));
    expect(ofWeek()).toEqual([]);
    addAppointment("kept", "2026-11-30T13:00:00Z", "2026-11-30T14:00:00Z");
    expect(ofWeek()).toEqual([`${ids.kept}:scheduled`]);
    // A write elsewhere (a task) hands out the same entries.
    const kept = listScheduleEntries(days);
    sqlite.prepare("insert into tasks (title) values ('Confirmar a semana')").run();
    expect(listScheduleEntries(days)).toBe(kept);
    // The patient and the doctor renamed: each shows on the next view.
    sqlite.prepare("update patients set name = 'Ana Souza Lima' where id = ?").run(anaId);
    expect(names()).toEqual(["Ana Souza Lima / Dr. Silva"]);
    sqlite.prepare("update doctors set name = 'Dr. Silva Neto' where id = ?").run(drSilva);
    expect(names()).toEqual(["Ana Souza Lima / Dr. Silva Neto"]);
    sqlite.prepare("update patients set name = 'Ana Souza' where id = ?").run(anaId);
    sqlite.prepare("update doctors set name = 'Dr. Silva' where id = ?").run(drSilva);
    expect(names()).toEqual(["Ana Souza / Dr. Silva"]);
    const other = new Database(databasePath);
    try {
      other.prepare("update appointments set status = 'confirmed' where id = ?").run(ids.kept);
    } finally {
      other.close();
    }
    expect(ofWeek()).toEqual([`${ids.kept}:confirmed`]);
    db.delete(appointments).where(eq(appointments.id, ids.kept)).run();
    expect(ofWeek()).toEqual([]);
  });

  test("the day view also selects type and location", () => {
    const [day] = listScheduleEntries(schedulePeriod("day", "2026-11-22").days, { detailed: true });
    expect(day.entries).toEqual([expect.objectContaining({ id: ids.lateEvening, type: "Retorno", location: "Sala 2" })]);
  });

  test("the month keeps three entries per day by start time and counts the rest in SQL", () => {
    const month = schedulePeriod("month", "2026-11-01").days;
    const result = listScheduleEntries(month, { perDayLimit: MONTH_CELL_LIMIT });
    const tenth = result[month.findIndex((d) => d.date === "2026-11-10")];
    expect(tenth.total).toBe(5);
    expect(tenth.entries.map((e) => e.id)).toEqual([ids.busy8, ids.busy9, ids.busy10]);
    expect(tenth.entries[1].status).toBe("cancelled");
    const totals = Object.fromEntries(month.map((d, i) => [d.date, result[i].total]).filter(([, n]) => n));
    expect(totals).toEqual({ "2026-11-10": 5, "2026-11-21": 1, "2026-11-22": 1, "2026-11-23": 1, "2026-11-24": 1, "2026-11-25": 1, "2026-11-26": 1 });
    // The grid's and the week's own query (a few per day) gives what the full listing gives, cut
    // to the limit, with or without a doctor.
    for (const perDayLimit of [1, MONTH_CELL_LIMIT, WEEK_DAY_LIMIT]) {
      for (const doctorId of [null, drSilva, drCosta]) {
        const full = listScheduleEntries(month, { doctorId });
        const cut = full.map((day) => ({ total: day.total, entries: day.entries.slice(0, perDayLimit) }));
        expect(listScheduleEntries(month, { doctorId, perDayLimit })).toEqual(cut);
      }
    }
  });

  test("the doctor filter keeps only that doctor's appointments", () => {
    const week = schedulePeriod("week", "2026-11-22").days;
    const costa = listScheduleEntries(week, { doctorId: drCosta }).flatMap((d) => d.entries.map((e) => e.id));
    expect(costa).toEqual([ids.earlyMorning]);
    const silva = listScheduleEntries(week, { doctorId: drSilva }).flatMap((d) => d.entries.map((e) => e.id));
    expect(silva).not.toContain(ids.earlyMorning);
    expect(silva).toContain(ids.lateEvening);
  });

  test("the query is served by the start_time indexes", () => {
    const dialect = new SQLiteSyncDialect();
    const days = schedulePeriod("week", "2026-11-22").days;
    const plan = (doctorId: number | null) => {
      const query = dialect.sqlToQuery(scheduleEntriesQuery(days, { doctorId }));
      return (sqlite.prepare(`explain query plan ${query.sql}`).all(...query.params) as Array<{ detail: string }>).map((r) => r.detail).join("\n");
    };
    expect(plan(null)).toMatch(/SEARCH a USING INDEX appointments_start_time_idx \(start_time>\? AND start_time<\?\)/);
    expect(plan(drSilva)).toMatch(/SEARCH a USING INDEX appointments_doctor_start_idx \(doctor_id=\? AND start_time>\? AND start_time<\?\)/);
    expect(plan(null)).not.toMatch(/SCAN a\b/);
    // A few per day (the month grid, the week): each day counted once, from the index alone.
    const fewPlan = (doctorId: number | null) => {
      const query = dialect.sqlToQuery(scheduleEntriesQuery(days, { doctorId, perDayLimit: WEEK_DAY_LIMIT }));
      return (sqlite.prepare(`explain query plan ${query.sql}`).all(...query.params) as Array<{ detail: string }>).map((r) => r.detail).join("\n");
    };
    expect(fewPlan(null)).toMatch(/MATERIALIZE totals/);
    expect(fewPlan(null)).toMatch(/SEARCH a USING COVERING INDEX appointments_start_end_idx \(start_time>\? AND start_time<\?\)/);
    expect(fewPlan(drSilva)).toMatch(/SEARCH a USING INDEX appointments_doctor_start_idx \(doctor_id=\? AND start_time>\? AND start_time<\?\)/);
    expect(fewPlan(null)).not.toMatch(/SCAN (a|e)\b/);
  });

  test("doctor options: active doctors by name, plus an inactive one only when selected", () => {
    expect(listScheduleDoctors().map((d) => d.name)).toEqual(["Dr. Silva", "Dra. Costa"]);
    const antigo = db.select({ id: doctors.id }).from(doctors).all().at(-1)!.id;
    expect(listScheduleDoctors(antigo).map((d) => d.name)).toEqual(["Dr. Antigo", "Dr. Silva", "Dra. Costa"]);
  });
});

describe("loader", () => {
  let adminCookie: string;
  let doctorCookie: string;
  let pendingCookie: string;
  const run = (path: string, cookie: string) => loader(routeArgs(getRequest(path, { cookie })));

  beforeAll(async () => {
    adminCookie = (await loginAs("admin", { name: "Ana Admin", email: "admin@schedule.test" })).cookie;
    doctorCookie = (await loginAs("doctor", { name: "Dra. Médica", email: "medica@schedule.test" })).cookie;
    pendingCookie = (await loginAs(null, { name: "Paulo", email: "pendente@schedule.test" })).cookie;
  });

  test("shows a week around the asked date with its appointments, editable for an admin", async () => {
    const data = await run("/schedule?view=week&date=2026-11-24", adminCookie);
    expect(data.title).toBe("Semana de 22 a 28 de novembro de 2026");
    expect(unpackScheduleDays(data.days)[0].entries.map((e) => e.patientName)).toEqual(["Ana Souza"]);
    expect(data.permissions).toEqual({ edit: true, create: true });
  });

  test("a doctor may look but not edit", async () => {
    const data = await run("/schedule?view=day&date=2026-11-22", doctorCookie);
    expect(data.title).toBe("domingo, 22 de novembro de 2026");
    expect(unpackScheduleDays(data.days)[0].entries[0]).toMatchObject({ patientName: "Ana Souza", type: "Retorno", location: "Sala 2" });
    expect(data.permissions.edit).toBe(false);
  });

  test("bad query strings fall back to today's week and every doctor, never an error", async () => {
    const data = await run("/schedule?view=ano&date=2026-13-45&doctor=999999", adminCookie);
    expect(data.view).toBe("week");
    expect(data.doctorId).toBeNull();
    expect(unpackScheduleDays(data.days).map((d) => d.date)).toContain(todayIsoInClinic());
  });

  test("the days go to the page packed: the browser unpacks the same days and entries, each view with its fields", async () => {
    for (const view of ["day", "week", "month"] as const) {
      const path = `/schedule?view=${view}&date=2026-11-22`;
      const data = await run(path, adminCookie);
      const onServer = unpackScheduleDays(data.days);
      // The browser decodes a copy of the packed value and rebuilds its days from it.
      const inBrowser = unpackScheduleDays(structuredClone(data.days));
      expect(inBrowser).not.toBe(onServer);
      expect(inBrowser).toEqual(onServer);
      const sunday = inBrowser.find((d) => d.date === "2026-11-22")!;
      expect(sunday.entries.map((e) => e.patientName)).toEqual(["Ana Souza"]);
      expect("type" in sunday.entries[0]).toBe(view === "day");
      // One list of field names for all the days' entries; the same packed days until a write.
      const entriesAt = data.days.fields.indexOf("entries");
      expect(new Set(data.days.values.map((day) => (day[entriesAt] as { fields: unknown }).fields)).size).toBe(1);
      expect((await run(path, adminCookie)).days).toBe(data.days);
    }
  });

  test("an account without a role is refused", async () => {
    await expect(run("/schedule", pendingCookie)).rejects.toMatchObject({ init: { status: 403 } });
  });

  test("a signed-out visitor is sent to /auth", async () => {
    const thrown = await run("/schedule?view=month", "").catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/auth?redirectTo=%2Fschedule%3Fview%3Dmonth");
  });
});
