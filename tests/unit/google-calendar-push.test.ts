/**
 * Appointments and surgeries pushed to Google Calendar (app/.server/google-calendar-push.ts)
 * through the real googleapis client against the fake Google: created, moved, cancelled, each
 * exactly once, also across a crash mid-push; the name privacy; rows wait while disconnected.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { googleCalendarEvents, googleCalendarOutbox, googleCalendarSettings, googleConnections, googleDoctorCalendars } from "~db/schema";
import { db } from "~/.server/db";
import { googleConfig, sealToken } from "~/.server/google";
import { enqueueCalendarPush } from "~/.server/google-calendar-outbox";
import { PUSH_LEASE_MS, SimulatedCrash, calendarEventId, patientLabel, pushDueEvents } from "~/.server/google-calendar-push";
import { createAppointment, deleteAppointment, updateAppointment } from "~/models/appointment.server";
import { moveSurgery } from "~/models/pipeline.server";
import { createSurgery, deleteSurgery } from "~/models/surgery.server";
import type { AppointmentInput } from "~/validation/appointment";
import { type FakeEvent, type FakeGoogle, useFakeGoogle } from "../support/fake-google";
import * as calendarPage from "~/routes/google-calendar";
import { type SignedIn, formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf } from "../support/fixtures";

let fake: FakeGoogle;
let admin: SignedIn;
let staff: SignedIn;
let doctor: SignedIn;

const CLINIC = "clinica@example.com";
const SURGERIES = "cirurgias@group.calendar.google.com";
const REFRESH = "1//refresh-token-da-clinica";

let stopFake: () => Promise<void>;

beforeAll(async () => {
  ({ fake, stop: stopFake } = await useFakeGoogle());
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctor = await loginAs("doctor");
});

afterAll(() => stopFake());

function connect() {
  fake.refreshTokens.add(REFRESH);
  db.insert(googleConnections)
    .values({ id: 1, email: "clinica@example.com", refreshToken: sealToken(REFRESH) })
    .onConflictDoUpdate({ target: googleConnections.id, set: { refreshToken: sealToken(REFRESH), accessToken: null } })
    .run();
}

function settings(values: Partial<typeof googleCalendarSettings.$inferInsert>) {
  db.insert(googleCalendarSettings)
    .values({ id: 1, syncMode: "clinic", clinicCalendarId: CLINIC, namePrivacy: "initials", ...values })
    .onConflictDoUpdate({ target: googleCalendarSettings.id, set: { syncMode: "clinic", clinicCalendarId: CLINIC, namePrivacy: "initials", ...values } })
    .run();
}

beforeEach(() => {
  db.delete(googleCalendarOutbox).run();
  db.delete(googleCalendarEvents).run();
  db.delete(googleDoctorCalendars).run();
  fake.events.clear();
  fake.requests.length = 0;
  fake.failNext.length = 0;
  connect();
  settings({});
});

let slot = 0;
function appointmentInput(patientId: number, doctorId: number, extra: Partial<AppointmentInput> = {}): AppointmentInput {
  // A fresh day per appointment, far ahead, so no two tests' appointments clash.
  const start = new Date(Date.UTC(2031, 0, 1, 13) + ++slot * 86_400_000);
  return {
    patientId,
    doctorId,
    startTime: start,
    endTime: new Date(start.getTime() + 30 * 60_000),
    type: "Primeira consulta",
    location: "Consultório 2",
    status: "scheduled",
    notes: null,
    ...extra,
  } as AppointmentInput;
}

function newAppointment(name = "Maria da Silva Souza", extra: Partial<AppointmentInput> = {}) {
  const patientId = insertPatient(name);
  const doctorId = insertDoctor(`Dr. Agenda ${++slot}`);
  const input = appointmentInput(patientId, doctorId, extra);
  return { id: createAppointment(admin.id, input), input, doctorId };
}

const eventsIn = (calendarId: string) => [...fake.events.values()].filter((event) => event.calendarId === calendarId);
const live = (events: FakeEvent[]) => events.filter((event) => event.status === "confirmed");
const calls = (method: string) => fake.requests.filter((r) => r.method === method && r.pathname.includes("/events")).length;
const outboxRows = () => db.select().from(googleCalendarOutbox).all();
const eventRow = (source: "appointment" | "surgery", id: number) =>
  db.select().from(googleCalendarEvents).where(and(eq(googleCalendarEvents.source, source), eq(googleCalendarEvents.sourceId, id))).get();

describe("appointments pushed to the clinic's calendar", () => {
  it("creates one event, patches it when moved, deletes it when cancelled: each call once", async () => {
    const { id, input } = newAppointment();
    expect(outboxRows()).toHaveLength(1);
    expect(await pushDueEvents()).toBe(1);
    const [created] = live(eventsIn(CLINIC));
    expect(eventsIn(CLINIC)).toHaveLength(1);
    expect(created!.id).toBe(calendarEventId("appointment", id, 0));
    expect(created!.id).toMatch(/^[0-9a-v]{5,1024}$/);
    expect(created!.summary).toBe("Consulta: Primeira consulta · M. S. S.");
    expect(created!.start?.dateTime).toBe(input.startTime.toISOString());
    expect(eventRow("appointment", id)).toMatchObject({ calendarId: CLINIC, eventId: created!.id, live: true, generation: 0 });
    expect(outboxRows()).toHaveLength(0);
    expect(await pushDueEvents()).toBe(0);
    expect(calls("POST")).toBe(1);

    const later = new Date(input.startTime.getTime() + 2 * 3_600_000);
    updateAppointment(admin.id, id, { ...input, startTime: later, endTime: new Date(later.getTime() + 30 * 60_000) });
    await pushDueEvents();
    expect(calls("PATCH")).toBe(1);
    expect(fake.events.get(`${CLINIC}/${created!.id}`)!.start?.dateTime).toBe(later.toISOString());

    updateAppointment(admin.id, id, { ...input, startTime: later, endTime: new Date(later.getTime() + 30 * 60_000), status: "cancelled" });
    await pushDueEvents();
    await pushDueEvents();
    expect(calls("DELETE")).toBe(1);
    expect(live(eventsIn(CLINIC))).toHaveLength(0);
    expect(eventRow("appointment", id)).toMatchObject({ live: false, generation: 1 });
    expect(calls("POST")).toBe(1);
    expect(calls("PATCH")).toBe(1);
  });

  it("a deleted appointment's event is deleted; a re-opened one gets a new event under the next generation", async () => {
    const { id, input } = newAppointment();
    await pushDueEvents();
    updateAppointment(admin.id, id, { ...input, status: "cancelled" });
    await pushDueEvents();
    updateAppointment(admin.id, id, { ...input, status: "confirmed" });
    await pushDueEvents();
    expect(live(eventsIn(CLINIC)).map((event) => event.id)).toEqual([calendarEventId("appointment", id, 1)]);
    deleteAppointment(admin.id, id);
    await pushDueEvents();
    expect(live(eventsIn(CLINIC))).toHaveLength(0);
    expect(calls("DELETE")).toBe(2);
    expect(outboxRows()).toHaveLength(0);
  });

  it("a crash after Google made the event: the lease expires, the retry gets 409 and makes no second event", async () => {
    const { id } = newAppointment();
    const crash = () => {
      throw new SimulatedCrash("process died");
    };
    const start = new Date();
    await expect(pushDueEvents(start, googleConfig(), { afterGoogleAnswer: crash })).rejects.toThrow(SimulatedCrash);
    expect(eventsIn(CLINIC)).toHaveLength(1);
    expect(eventRow("appointment", id)?.live).toBe(false);
    // Still leased: a pass right away leaves it alone.
    expect(await pushDueEvents(new Date(start.getTime() + 1_000))).toBe(0);
    // After a restart, once the lease expired, the row is taken over.
    expect(await pushDueEvents(new Date(start.getTime() + PUSH_LEASE_MS + 1_000))).toBe(1);
    expect(fake.requests.filter((r) => r.method === "POST" && r.pathname.endsWith("/events"))).toHaveLength(2);
    expect(eventsIn(CLINIC)).toHaveLength(1);
    expect(eventRow("appointment", id)).toMatchObject({ live: true, generation: 0 });
    expect(outboxRows()).toHaveLength(0);
  });

  it("a crash after Google deleted the event: the retry's 410 counts as deleted", async () => {
    const { id, input } = newAppointment();
    await pushDueEvents();
    updateAppointment(admin.id, id, { ...input, status: "cancelled" });
    const start = new Date();
    await expect(
      pushDueEvents(start, googleConfig(), {
        afterGoogleAnswer: () => {
          throw new SimulatedCrash("process died");
        },
      }),
    ).rejects.toThrow(SimulatedCrash);
    expect(await pushDueEvents(new Date(start.getTime() + PUSH_LEASE_MS + 1_000))).toBe(1);
    expect(live(eventsIn(CLINIC))).toHaveLength(0);
    expect(outboxRows()).toHaveLength(0);
  });

  it("retries with backoff after Google fails, then succeeds once", async () => {
    newAppointment();
    fake.failNext.push(503);
    const now = new Date();
    await pushDueEvents(now);
    const [row] = outboxRows();
    expect(row).toMatchObject({ attempts: 1, claimedAt: null });
    expect(row!.error).toContain("503");
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(now.getTime());
    expect(await pushDueEvents(now)).toBe(0);
    expect(await pushDueEvents(new Date(row!.nextAttemptAt.getTime() + 1))).toBe(1);
    expect(eventsIn(CLINIC)).toHaveLength(1);
    expect(outboxRows()).toHaveLength(0);
  });

  it("a change while a row waits folds into it: one row, one push of the latest state", async () => {
    const { id, input } = newAppointment();
    updateAppointment(admin.id, id, { ...input, type: "Retorno" });
    expect(outboxRows()).toHaveLength(1);
    await pushDueEvents();
    expect(calls("POST")).toBe(1);
    expect(live(eventsIn(CLINIC))[0]!.summary).toBe("Consulta: Retorno · M. S. S.");
  });
});

describe("privacy and settings", () => {
  it("names the patient as the setting says: full name, initials or nothing", async () => {
    expect(patientLabel("João dos Santos", "initials")).toBe("J. S.");
    for (const [privacy, summary] of [
      ["full", "Consulta: Primeira consulta · Ana de Oliveira"],
      ["initials", "Consulta: Primeira consulta · A. O."],
      ["none", "Consulta: Primeira consulta"],
    ] as const) {
      settings({ namePrivacy: privacy });
      const { id } = newAppointment("Ana de Oliveira");
      await pushDueEvents();
      const event = fake.events.get(`${CLINIC}/${calendarEventId("appointment", id, 0)}`)!;
      expect(event.summary).toBe(summary);
      expect(JSON.stringify(event)).not.toContain(privacy === "full" ? "nada" : "Oliveira");
    }
  });

  it("not connected or not configured: rows wait and nothing fails; they go once connected", async () => {
    db.delete(googleConnections).run();
    newAppointment();
    expect(await pushDueEvents()).toBe(0);
    expect(await pushDueEvents(new Date(), null)).toBe(0);
    expect(outboxRows()).toMatchObject([{ attempts: 0, claimedAt: null, failedAt: null }]);
    expect(fake.requests).toHaveLength(0);
    connect();
    expect(await pushDueEvents()).toBe(1);
    expect(eventsIn(CLINIC)).toHaveLength(1);
  });

  it("push off: nothing is queued for a record without an event; one with an event is still kept right", async () => {
    const { id, input } = newAppointment();
    await pushDueEvents();
    settings({ syncMode: "off" });
    newAppointment();
    expect(outboxRows()).toHaveLength(0);
    updateAppointment(admin.id, id, { ...input, status: "cancelled" });
    expect(outboxRows()).toHaveLength(1);
    await pushDueEvents();
    expect(live(eventsIn(CLINIC))).toHaveLength(0);
  });

  it("one calendar per doctor; a doctor without one is not pushed; a calendar change moves the event without a copy", async () => {
    settings({ syncMode: "doctor", clinicCalendarId: null });
    const withCalendar = newAppointment();
    const without = newAppointment();
    db.insert(googleDoctorCalendars).values({ doctorId: withCalendar.doctorId, calendarId: SURGERIES }).run();
    await pushDueEvents();
    expect(eventsIn(SURGERIES)).toHaveLength(1);
    expect(eventRow("appointment", without.id)).toBeUndefined();
    expect(outboxRows()).toHaveLength(0);

    // The clinic switches to one calendar: the event moves when its record next changes.
    settings({ syncMode: "clinic", clinicCalendarId: CLINIC });
    updateAppointment(admin.id, withCalendar.id, { ...withCalendar.input, type: "Retorno" });
    await pushDueEvents();
    expect(live(eventsIn(SURGERIES))).toHaveLength(0);
    expect(live(eventsIn(CLINIC)).map((event) => event.id)).toEqual([calendarEventId("appointment", withCalendar.id, 1)]);
  });

  it("gives up after too many failures, keeping the row for a person to see", async () => {
    newAppointment();
    let now = new Date();
    for (let i = 0; i < 8; i++) {
      fake.failNext.push(500);
      await pushDueEvents(now);
      now = new Date(now.getTime() + 2 * 3_600_000);
    }
    expect(outboxRows()).toMatchObject([{ attempts: 8 }]);
    expect(outboxRows()[0]!.failedAt).toBeInstanceOf(Date);
    expect(await pushDueEvents(now)).toBe(0);
  });
});

describe("surgeries", () => {
  it("a scheduled surgery gets an event; cancelled on the board, the event is deleted; deleted, nothing more", async () => {
    const patientId = insertPatient("Carlos Eduardo Lima");
    const doctorId = insertDoctor("Dra. Cirurgia");
    const scheduledDate = new Date(Date.UTC(2031, 5, 10, 11));
    const id = createSurgery(admin.id, {
      patientId,
      doctorId,
      surgeryType: "Artrodese lombar",
      scheduledDate,
      surgeryStatus: "scheduled",
      currentStage: "aguarda_docs",
      estimatedDurationMin: 180,
      hospitalId: null,
      hospitalName: null,
      payerId: null,
      payerName: null,
      guideNumber: null,
      billedAmount: null,
      notes: null,
    } as Parameters<typeof createSurgery>[1]);
    await pushDueEvents();
    const event = fake.events.get(`${CLINIC}/${calendarEventId("surgery", id, 0)}`)!;
    expect(event.summary).toBe("Cirurgia: Artrodese lombar · C. E. L.");
    expect(event.end?.dateTime).toBe(new Date(scheduledDate.getTime() + 180 * 60_000).toISOString());

    moveSurgery(admin.id, id, { to: "cancelado", denialReason: null, denialAppeal: false, justification: null } as Parameters<typeof moveSurgery>[2]);
    await pushDueEvents();
    expect(event.status).toBe("cancelled");
    deleteSurgery(admin.id, id);
    await pushDueEvents();
    expect(calls("DELETE")).toBe(1);
    expect(outboxRows()).toHaveLength(0);
  });

  it("enqueues in the write's transaction: a write rolled back queues nothing", () => {
    const { id } = newAppointment();
    db.delete(googleCalendarOutbox).run();
    expect(() =>
      db.transaction((tx) => {
        enqueueCalendarPush(tx, "appointment", id);
        throw new Error("the write failed after");
      }),
    ).toThrow("the write failed after");
    expect(outboxRows()).toHaveLength(0);
  });
});

describe("/google-calendar: choosing where events go", () => {
  const post = (fields: Record<string, string | number>, cookie = admin.cookie) =>
    calendarPage.action(routeArgs(formRequest("/google-calendar", fields, { cookie }))).catch((error: unknown) => error);
  const saved = () => db.select().from(googleCalendarSettings).get();

  it("the administrator chooses the mode, a calendar of the account and the privacy; bad choices get a field message", async () => {
    settings({ syncMode: "off", clinicCalendarId: null });
    const ok = await post({ intent: "calendar-settings", syncMode: "clinic", clinicCalendarId: SURGERIES, namePrivacy: "full" });
    expect(statusOf(ok)).toBe(302);
    expect(saved()).toMatchObject({ syncMode: "clinic", clinicCalendarId: SURGERIES, namePrivacy: "full" });

    type Invalid = { data: { result: { error: Record<string, string[]> } } };
    const missing = (await post({ intent: "calendar-settings", syncMode: "clinic", clinicCalendarId: "", namePrivacy: "full" })) as Invalid;
    expect(statusOf(missing)).toBe(400);
    expect(missing.data.result.error.clinicCalendarId).toEqual(["Escolha o calendário da clínica"]);
    const foreign = (await post({ intent: "calendar-settings", syncMode: "clinic", clinicCalendarId: "alheio@example.com", namePrivacy: "full" })) as Invalid;
    expect(statusOf(foreign)).toBe(400);
    expect(foreign.data.result.error.clinicCalendarId).toEqual(["Escolha um calendário da conta conectada em que o Sinapse possa criar eventos."]);
    expect(statusOf(await post({ intent: "calendar-settings", syncMode: "todos", namePrivacy: "full" }))).toBe(400);
    expect(saved()).toMatchObject({ syncMode: "clinic", clinicCalendarId: SURGERIES });

    // Not connected: no calendar can be checked, so none is accepted.
    db.delete(googleConnections).run();
    const offline = (await post({ intent: "calendar-settings", syncMode: "clinic", clinicCalendarId: CLINIC, namePrivacy: "none" })) as Invalid;
    expect(offline.data.result.error.clinicCalendarId).toEqual(["Conecte a conta Google antes de escolher um calendário."]);
    expect(statusOf(await post({ intent: "calendar-settings", syncMode: "off", namePrivacy: "none" }))).toBe(302);
    expect(saved()).toMatchObject({ syncMode: "off", namePrivacy: "none" });
  });

  it("one calendar per doctor: set, then removed with 'Não enviar'", async () => {
    const doctorId = insertDoctor("Dr. Calendário Próprio");
    settings({ syncMode: "doctor", clinicCalendarId: null });
    expect(statusOf(await post({ intent: "doctor-calendar", doctorId, calendarId: CLINIC }))).toBe(302);
    expect(db.select().from(googleDoctorCalendars).where(eq(googleDoctorCalendars.doctorId, doctorId)).get()?.calendarId).toBe(CLINIC);
    const page = (await calendarPage.loader(routeArgs(getRequest("/google-calendar", { cookie: doctor.cookie })))) as Awaited<ReturnType<typeof calendarPage.loader>>;
    expect(page.push.doctors.find((row) => row.doctorId === doctorId)?.calendarId).toBe(CLINIC);
    expect(page.canEditPush).toBe(false);
    expect(statusOf(await post({ intent: "doctor-calendar", doctorId: 999_999, calendarId: CLINIC }))).toBe(400);
    expect(statusOf(await post({ intent: "doctor-calendar", doctorId, calendarId: "" }))).toBe(302);
    expect(db.select().from(googleDoctorCalendars).where(eq(googleDoctorCalendars.doctorId, doctorId)).get()).toBeUndefined();
  });

  it("staff and doctors read the settings but cannot change them", async () => {
    settings({ namePrivacy: "initials" });
    for (const user of [staff, doctor]) {
      expect(statusOf(await post({ intent: "calendar-settings", syncMode: "off", namePrivacy: "full" }, user.cookie))).toBe(403);
      expect(statusOf(await post({ intent: "doctor-calendar", doctorId: 1, calendarId: CLINIC }, user.cookie))).toBe(403);
      const page = (await calendarPage.loader(routeArgs(getRequest("/google-calendar", { cookie: user.cookie })))) as Awaited<ReturnType<typeof calendarPage.loader>>;
      expect(page.push).toMatchObject({ syncMode: "clinic", clinicCalendarId: CLINIC, namePrivacy: "initials" });
    }
    expect(saved()).toMatchObject({ syncMode: "clinic", namePrivacy: "initials" });
  });
});
