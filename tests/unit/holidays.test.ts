import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { clinicHolidays, pipelineStages, surgeries } from "~db/schema";
import { db } from "~/.server/db";
import { addClinicHoliday, nationalHolidayList, removeClinicHoliday } from "~/models/holiday.server";
import { moveSurgery } from "~/models/pipeline.server";
import { action, loader } from "~/routes/settings/holidays";
import { type SignedIn, formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "./helpers";

let admin: SignedIn;
let staff: SignedIn;
let pending: SignedIn;
let patientId: number;
let doctorId: number;

const move = (to: string) => ({ to, denialReason: null, denialAppeal: false, justification: null }) as never;
const dueOn = (id: number) => db.select({ d: surgeries.ansDueOn }).from(surgeries).where(eq(surgeries.id, id)).get()!.d;

function surgerySentOn(day: string) {
  const id = db
    .insert(surgeries)
    .values({ patientId, doctorId, surgeryType: "Microdiscectomia", scheduledDate: new Date("2027-03-10T12:00:00Z"), currentStage: "aguarda_docs" })
    .returning({ id: surgeries.id })
    .get().id;
  db.insert(pipelineStages).values({ surgeryId: id, stage: "aguarda_docs" }).run();
  moveSurgery(admin.id, id, move("enviado_pre_aut"), new Date(`${day}T15:00:00Z`));
  return id;
}

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  pending = await loginAs(null);
  patientId = insertPatient("Paciente Feriado");
  doctorId = insertDoctor("Dr. Feriado");
});

describe("clinic holidays", () => {
  it("lists the national days off of a year, Carnaval Monday included", () => {
    const days = nationalHolidayList(2026);
    expect(days.find((d) => d.day === "2026-11-20")).toBeTruthy();
    expect(days.find((d) => d.day === "2026-02-16")?.name).toMatch(/Carnaval/);
    expect(days.find((d) => d.day === "2026-04-03")).toBeTruthy();
  });

  it("adding a day inside a running clock moves its last day; removing it moves it back; clocks started after it stay", () => {
    // Sent Monday 2027-01-04: 10 business days → Monday 2027-01-18.
    const running = surgerySentOn("2027-01-04");
    const later = surgerySentOn("2027-01-13");
    expect(dueOn(running)).toBe("2027-01-18");
    const laterDue = dueOn(later);
    expect(addClinicHoliday(admin.id, { day: "2027-01-12", name: "Recesso da clínica" })).toBeGreaterThanOrEqual(1);
    expect(dueOn(running)).toBe("2027-01-19");
    expect(dueOn(later)).toBe(laterDue);
    removeClinicHoliday(admin.id, "2027-01-12");
    expect(dueOn(running)).toBe("2027-01-18");
  });

  it("the screen: admins add and remove (JS off), a duplicate day is a 400 beside the field, staff only read, no role is 403", async () => {
    const post = (fields: Record<string, string>, who = admin) => action(routeArgs(formRequest("/settings/holidays?ano=2027", fields, { cookie: who.cookie })));
    expect(statusOf(await post({ intent: "create", day: "2027-01-25", name: "Aniversário de São Paulo" }))).toBe(302);
    const twice = await post({ intent: "create", day: "2027-01-25", name: "De novo" });
    expect(statusOf(twice)).toBe(400);
    expect(JSON.stringify(twice)).toContain("Já existe um feriado da clínica nesta data.");
    expect(statusOf(await post({ intent: "create", day: "2027-02-30", name: "Dia inválido" }))).toBe(400);
    expect((await thrownResponse(post({ intent: "create", day: "2027-03-01", name: "Sem permissão" }, staff))).status).toBe(403);
    const data = await loader(routeArgs(getRequest("/settings/holidays?ano=2027&remover=2027-01-25", { cookie: staff.cookie })));
    expect(data.clinic.map((h) => h.name)).toEqual(["Aniversário de São Paulo"]);
    expect(data.canEdit).toBe(false);
    expect(data.removing).toBeNull();
    expect(statusOf(await post({ intent: "delete", day: "2027-01-25" }))).toBe(302);
    expect(db.select().from(clinicHolidays).where(eq(clinicHolidays.day, "2027-01-25")).all()).toHaveLength(0);
    expect((await thrownResponse(loader(routeArgs(getRequest("/settings/holidays", { cookie: pending.cookie }))))).status).toBe(403);
  });
});
