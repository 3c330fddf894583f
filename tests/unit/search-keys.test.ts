/**
 * The stored search keys of appointments' and surgeries' own text (app/.server/search-keys.ts): the
 * models write them, rows written by hand are found all the same and get their key at the next
 * fill, and a hand-made change of the text never leaves a stale key behind.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { appointmentSearchKey, fillSearchKeys, surgerySearchKeyColumns } from "~/.server/search-keys";
import { createAppointment, listAppointments, updateAppointment } from "~/models/appointment.server";
import { createSurgery, listSurgeries, updateSurgery } from "~/models/surgery.server";
import type { SurgeryInput } from "~/validation/surgery";
import { insertDoctor, insertHospital, insertPatient, insertPayer, loginAs } from "./helpers";

let userId: number;
let patientId: number;
let doctorId: number;

beforeAll(async () => {
  userId = (await loginAs("admin")).id;
  patientId = insertPatient("Paciente Chave");
  doctorId = insertDoctor("Dr. Chave", { crm: "565656" });
});

const HOUR = 3_600_000;
let slot = Date.UTC(2031, 0, 6, 12);
/** An appointment input at the next free hour. */
function appointmentInput(type: string, location: string | null) {
  slot += 2 * HOUR;
  return { patientId, doctorId, type, location, status: "scheduled" as const, notes: null, startTime: new Date(slot), endTime: new Date(slot + HOUR) };
}

const storedKey = (table: typeof appointments | typeof surgeries, id: number) =>
  db.select({ key: table.searchText }).from(table).where(eq(table.id, id)).get()!.key;
const surgeryKeys = (id: number) =>
  db.select({ searchText: surgeries.searchText, searchClass: surgeries.searchClass }).from(surgeries).where(eq(surgeries.id, id)).get()!;
const appointmentsFound = (q: string) => listAppointments({ q, page: 1, sort: "startTime", dir: "desc" }, {}).rows.map((r) => r.id);
const surgeriesFound = (q: string) => listSurgeries({ q, page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null }).rows.map((r) => r.id);

describe("appointments", () => {
  it("the model writes the key with the row, and writes it again on every edit", () => {
    const id = createAppointment(userId, appointmentInput("Avaliação Pré-operatória", "Consultório Três"));
    expect(storedKey(appointments, id)).toBe("avaliacao pre-operatoria | consultorio tres");
    expect(appointmentsFound("PRE-OPERATORIA")).toEqual([id]);
    expect(appointmentsFound("consultório três")).toEqual([id]);

    updateAppointment(userId, id, { ...appointmentInput("Retorno Pós", null), startTime: new Date(slot), endTime: new Date(slot + HOUR) });
    expect(storedKey(appointments, id)).toBe(appointmentSearchKey({ type: "Retorno Pós", location: null }));
    expect(appointmentsFound("retorno pos")).toContain(id);
    expect(appointmentsFound("consultorio tres")).not.toContain(id);

    // An edit that keeps the text (a new time) keeps the key: it is written again, unchanged.
    updateAppointment(userId, id, { ...appointmentInput("Retorno Pós", null) });
    expect(storedKey(appointments, id)).toBe(appointmentSearchKey({ type: "Retorno Pós", location: null }));
  });

  it("a row written by hand is found by its text, and gets its key at the next fill", () => {
    const id = Number(
      sqlite
        .prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, type, location) values (?, ?, ?, ?, ?, ?)")
        .run(patientId, doctorId, slot + 10 * HOUR, slot + 11 * HOUR, "Infiltração Facetária", "Sala Ômega").lastInsertRowid,
    );
    expect(storedKey(appointments, id)).toBeNull();
    expect(appointmentsFound("infiltracao")).toEqual([id]);
    expect(appointmentsFound("omega")).toEqual([id]);

    expect(fillSearchKeys(sqlite)).toBeGreaterThanOrEqual(1);
    expect(storedKey(appointments, id)).toBe(appointmentSearchKey({ type: "Infiltração Facetária", location: "Sala Ômega" }));
    expect(fillSearchKeys(sqlite)).toBe(0); // nothing left to fill
    expect(appointmentsFound("infiltracao facetaria omega")).toEqual([id]);

    // Changed by hand: the old key goes, the new text is found, the old text no longer is.
    sqlite.prepare("update appointments set location = 'Sala Delta' where id = ?").run(id);
    expect(storedKey(appointments, id)).toBeNull();
    expect(appointmentsFound("delta")).toEqual([id]);
    expect(appointmentsFound("omega")).toEqual([]);
  });

  it("rows without a key are found by seeking the keys' index", () => {
    const plan = (sqlite.prepare("explain query plan select id from appointments where search_text is null").all() as { detail: string }[])
      .map((r) => r.detail)
      .join("\n");
    expect(plan).toMatch(/SEARCH appointments USING COVERING INDEX appointments_search_text_idx \(search_text=\?\)/);
  });
});

describe("surgeries", () => {
  it("the model writes both keys with the row, again on every edit, and an edit that keeps the text keeps them", () => {
    const input = (overrides: Partial<SurgeryInput> = {}): SurgeryInput => ({
      patientId,
      doctorId,
      surgeryType: "Cordotomia Cervical",
      scheduledDate: new Date(Date.UTC(2031, 2, 3, 12)),
      surgeryStatus: "scheduled",
      currentStage: "aguarda_docs",
      estimatedDurationMin: 120,
      hospitalId: insertHospital(`Hospital Íris ${slot}`),
      hospitalName: null,
      payerId: insertPayer(`Convênio Ônix ${slot}`),
      payerName: null,
      guideNumber: "GZ-7788",
      billedAmount: null,
      notes: null,
      ...overrides,
    });
    const first = input();
    const id = createSurgery(userId, first);
    const keys = surgeryKeys(id);
    expect(keys.searchClass).toBe(`cordotomia cervical | hospital iris ${slot} | convenio onix ${slot}`);
    expect(keys.searchText).toBe(`${keys.searchClass} | gz-7788`);
    expect(surgeriesFound(`onix gz-7788 cordotomia`)).toEqual([id]);

    // A new date: the text is written again, unchanged, and keeps its keys.
    updateSurgery(userId, id, { ...first, scheduledDate: new Date(Date.UTC(2031, 2, 4, 12)) });
    expect(surgeryKeys(id)).toEqual(keys);
    // A new guide: the whole key changes, the key without it does not.
    updateSurgery(userId, id, { ...first, guideNumber: "GZ-9900" });
    expect(surgeryKeys(id)).toEqual({ searchClass: keys.searchClass, searchText: `${keys.searchClass} | gz-9900` });
    expect(surgeriesFound("gz-77")).toEqual([]);
    expect(surgeriesFound("gz-99 cordotomia")).toEqual([id]);
  });

  it("a surgery written by hand is found by its own text, gets the model's key, and loses it when its text changes", () => {
    const id = Number(
      sqlite
        .prepare(
          "insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, hospital, payer_name, guide_number) values (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(patientId, doctorId, "Rizotomia Percutânea", Date.UTC(2031, 1, 1, 12), "Hospital Ébano", "Convênio Âmbar", "GX-4411").lastInsertRowid,
    );
    expect(surgeriesFound("rizotomia percutanea")).toEqual([id]);
    fillSearchKeys(sqlite);
    expect(surgeryKeys(id)).toEqual(
      surgerySearchKeyColumns({ surgeryType: "Rizotomia Percutânea", hospital: "Hospital Ébano", payerName: "Convênio Âmbar", guideNumber: "GX-4411" }),
    );
    expect(surgeriesFound("ebano ambar gx-4411")).toEqual([id]);

    sqlite.prepare("update surgeries set hospital = 'Hospital Carvalho' where id = ?").run(id);
    expect(surgeryKeys(id)).toEqual({ searchText: null, searchClass: null });
    expect(surgeriesFound("carvalho rizotomia")).toEqual([id]);
    expect(surgeriesFound("ebano")).toEqual([]);
    // A change of another column keeps the key.
    fillSearchKeys(sqlite);
    sqlite.prepare("update surgeries set notes = 'Sem alergias' where id = ?").run(id);
    expect(storedKey(surgeries, id)).not.toBeNull();
    // So does a text written again as it was.
    sqlite.prepare("update surgeries set hospital = hospital, guide_number = guide_number where id = ?").run(id);
    expect(surgeryKeys(id).searchClass).not.toBeNull();
  });
});
