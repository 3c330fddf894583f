import Database from "better-sqlite3";
import { and, eq } from "drizzle-orm";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, auditLog } from "~db/schema";
import { databasePath, db, sqlite } from "~/.server/db";
import { formatAppointmentDate, formatTime } from "~/lib/dates";
import {
  AppointmentError,
  createAppointment,
  deleteAppointment,
  getAppointment,
  listAppointments,
  updateAppointment,
} from "~/models/appointment.server";
import { action, loader } from "~/routes/appointments";
import { type AppointmentInput, appointmentSchema } from "~/validation/appointment";
import { formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs } from "./helpers";

// ------------------------------------------------------------------------------------------ fixtures

let adminId: number;
let staffId: number;
let adminCookie: string;
let staffCookie: string;

const addPatient = (name: string, cpf: string | null = null) => insertPatient(name, { cpf });
const addDoctor = (name: string, specialty = "Neurocirurgia", active = true) => insertDoctor(name, { specialty, active });

/** São Paulo wall time 'YYYY-MM-DDTHH:mm' → the instant, as the form schema reads it. */
function sp(local: string): Date {
  return appointmentSchema.shape.startTime.parse(local);
}

function input(over: Partial<AppointmentInput> & Pick<AppointmentInput, "patientId" | "doctorId">, from: string, to: string): AppointmentInput {
  return { type: "Retorno", location: null, status: "scheduled", notes: null, startTime: sp(from), endTime: sp(to), ...over };
}

beforeAll(async () => {
  const admin = await loginAs("admin", { name: "Ana Admin", email: "ana@clinica.test" });
  const staff = await loginAs("staff", { name: "Sérgio Equipe", email: "sergio@clinica.test" });
  ({ id: adminId, cookie: adminCookie } = admin);
  ({ id: staffId, cookie: staffCookie } = staff);
});

// ------------------------------------------------------------------------------------------ schema

describe("appointment schema", () => {
  const valid = { patientId: "1", doctorId: "2", startTime: "2026-11-22T14:00", endTime: "2026-11-22T14:30", type: "Retorno" };
  const messagesOf = (fields: Record<string, string>) =>
    Object.fromEntries((appointmentSchema.safeParse(fields).error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

  it("requires patient, doctor, start, end and type, and defaults the status to scheduled", () => {
    expect(messagesOf({})).toEqual({
      patientId: "Selecione o paciente",
      doctorId: "Selecione o médico",
      startTime: "Informe a data e a hora de início",
      endTime: "Informe a data e a hora de término",
      type: "Informe o tipo de consulta",
    });
    const parsed = appointmentSchema.parse({ ...valid, status: "", location: "  ", notes: "" });
    expect(parsed).toMatchObject({ patientId: 1, doctorId: 2, status: "scheduled", location: null, notes: null });
  });

  it("reads start and end as São Paulo wall time", () => {
    const parsed = appointmentSchema.parse({ ...valid, startTime: "2026-03-10T14:00", endTime: "2026-03-10T15:00" });
    expect(parsed.startTime.toISOString()).toBe("2026-03-10T17:00:00.000Z");
    expect(parsed.endTime.toISOString()).toBe("2026-03-10T18:00:00.000Z");
  });

  it("refuses an end before or equal to the start, and more than 12 hours", () => {
    expect(messagesOf({ ...valid, endTime: "2026-11-22T13:59" })).toEqual({ endTime: "O horário de término deve ser depois do início" });
    expect(messagesOf({ ...valid, endTime: "2026-11-22T14:00" })).toEqual({ endTime: "O horário de término deve ser depois do início" });
    expect(messagesOf({ ...valid, endTime: "2026-11-23T02:01" })).toEqual({ endTime: "Uma consulta pode durar no máximo 12 horas" });
    expect(appointmentSchema.safeParse({ ...valid, endTime: "2026-11-23T02:00" }).success).toBe(true);
  });

  it("reports the time order even when another field is also wrong", () => {
    expect(messagesOf({ ...valid, patientId: "", endTime: "2026-11-22T13:00" })).toEqual({
      patientId: "Selecione o paciente",
      endTime: "O horário de término deve ser depois do início",
    });
  });

  it("refuses ids that are not positive integers, bad dates and unknown statuses", () => {
    expect(messagesOf({ ...valid, patientId: "abc", doctorId: "-3" })).toEqual({
      patientId: "Selecione o paciente",
      doctorId: "Selecione o médico",
    });
    expect(messagesOf({ ...valid, startTime: "2026-02-30T10:00" })).toEqual({ startTime: "Data e hora inválidas" });
    expect(messagesOf({ ...valid, status: "deleted" })).toEqual({ status: "Status inválido" });
  });
});

// ------------------------------------------------------------------------------------------ double booking

describe("double booking", () => {
  let maria: number;
  let joao: number;
  let ricardo: number;
  let helena: number;

  beforeAll(() => {
    maria = addPatient("Maria da Silva");
    joao = addPatient("João Conceição");
    ricardo = addDoctor("Dr. Ricardo Figueiredo");
    helena = addDoctor("Dra. Helena Prado", "Neurologia");
  });

  it("allows touching intervals and refuses overlaps, naming the clash", () => {
    const first = createAppointment(adminId, input({ patientId: maria, doctorId: ricardo }, "2026-11-22T14:00", "2026-11-22T14:30"));
    // Ends exactly when the first one ends / starts exactly when it ends: no overlap.
    createAppointment(adminId, input({ patientId: joao, doctorId: ricardo }, "2026-11-22T14:30", "2026-11-22T15:00"));
    createAppointment(adminId, input({ patientId: joao, doctorId: ricardo }, "2026-11-22T13:30", "2026-11-22T14:00"));

    const clash = "Dr. Ricardo Figueiredo já tem consulta das 14:00 às 14:30 de 22/11/2026 com Maria da Silva.";
    for (const [from, to] of [
      ["2026-11-22T14:10", "2026-11-22T14:20"], // inside
      ["2026-11-22T14:00", "2026-11-22T14:30"], // same slot
      ["2026-11-22T14:15", "2026-11-22T14:20"],
    ]) {
      const other = addPatient(`Outro ${from}`);
      let error: unknown;
      try {
        createAppointment(adminId, input({ patientId: other, doctorId: ricardo }, from, to));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppointmentError);
      expect((error as AppointmentError).message).toBe(clash);
      expect((error as AppointmentError).field).toBe("startTime");
    }
    // Enclosing the whole afternoon clashes with the earliest appointment in it.
    expect(() =>
      createAppointment(adminId, input({ patientId: addPatient("Envolve"), doctorId: ricardo }, "2026-11-22T12:00", "2026-11-22T18:00")),
    ).toThrow("Dr. Ricardo Figueiredo já tem consulta das 13:30 às 14:00 de 22/11/2026 com João Conceição.");
    // Another doctor at the same time is fine.
    createAppointment(adminId, input({ patientId: addPatient("Com Helena"), doctorId: helena }, "2026-11-22T14:00", "2026-11-22T14:30"));
    expect(getAppointment(first)?.status).toBe("scheduled");
  });

  it("finds a long appointment that started hours before the new one", () => {
    createAppointment(adminId, input({ patientId: addPatient("Longa"), doctorId: helena, type: "Cirurgia ambulatorial" }, "2026-12-01T07:00", "2026-12-01T18:30"));
    expect(() =>
      createAppointment(adminId, input({ patientId: addPatient("Tarde"), doctorId: helena }, "2026-12-01T18:00", "2026-12-01T18:20")),
    ).toThrow("Dra. Helena Prado já tem consulta das 07:00 às 18:30 de 01/12/2026 com Longa.");
    // Across midnight the message gives both dates.
    createAppointment(adminId, input({ patientId: addPatient("Plantão"), doctorId: helena }, "2026-12-02T22:00", "2026-12-03T02:00"));
    expect(() =>
      createAppointment(adminId, input({ patientId: addPatient("Madrugada"), doctorId: helena }, "2026-12-03T01:00", "2026-12-03T01:30")),
    ).toThrow("Dra. Helena Prado já tem consulta de 02/12/2026 22:00 a 03/12/2026 02:00 com Plantão.");
  });

  it("ignores cancelled appointments, and cancelling is always allowed", () => {
    const patient = addPatient("Cancelada");
    const cancelled = createAppointment(adminId, input({ patientId: patient, doctorId: ricardo, status: "cancelled" }, "2026-11-22T14:00", "2026-11-22T14:30"));
    expect(getAppointment(cancelled)?.status).toBe("cancelled");

    const a = createAppointment(adminId, input({ patientId: patient, doctorId: ricardo }, "2026-11-24T09:00", "2026-11-24T10:00"));
    updateAppointment(adminId, a, input({ patientId: patient, doctorId: ricardo, status: "cancelled" }, "2026-11-24T09:00", "2026-11-24T10:00"));
    const b = createAppointment(adminId, input({ patientId: addPatient("Vaga Liberada"), doctorId: ricardo }, "2026-11-24T09:00", "2026-11-24T10:00"));
    expect(getAppointment(b)?.startTime.toISOString()).toBe("2026-11-24T12:00:00.000Z");
    // Re-opening the cancelled one into the taken slot is refused.
    expect(() =>
      updateAppointment(adminId, a, input({ patientId: patient, doctorId: ricardo, status: "scheduled" }, "2026-11-24T09:00", "2026-11-24T10:00")),
    ).toThrow("Dr. Ricardo Figueiredo já tem consulta das 09:00 às 10:00 de 24/11/2026 com Vaga Liberada.");
  });

  it("does not clash an appointment with itself when it is edited, but does with others", () => {
    const patient = addPatient("Remarcada");
    const id = createAppointment(adminId, input({ patientId: patient, doctorId: helena }, "2026-11-25T10:00", "2026-11-25T10:30"));
    updateAppointment(adminId, id, input({ patientId: patient, doctorId: helena, notes: "Trazer exames" }, "2026-11-25T10:15", "2026-11-25T10:45"));
    expect(getAppointment(id)).toMatchObject({ notes: "Trazer exames", startTime: new Date("2026-11-25T13:15:00Z") });

    const other = createAppointment(adminId, input({ patientId: addPatient("Vizinha"), doctorId: helena }, "2026-11-25T11:00", "2026-11-25T11:30"));
    expect(() =>
      updateAppointment(adminId, id, input({ patientId: patient, doctorId: helena }, "2026-11-25T10:45", "2026-11-25T11:15")),
    ).toThrow("Dra. Helena Prado já tem consulta das 11:00 às 11:30 de 25/11/2026 com Vizinha.");
    expect(getAppointment(id)?.startTime.toISOString()).toBe("2026-11-25T13:15:00.000Z");
    expect(getAppointment(other)).not.toBeNull();
  });

  it("refuses a patient in two places at once", () => {
    createAppointment(adminId, input({ patientId: joao, doctorId: helena }, "2026-11-26T08:00", "2026-11-26T09:00"));
    let error: unknown;
    try {
      createAppointment(adminId, input({ patientId: joao, doctorId: ricardo }, "2026-11-26T08:30", "2026-11-26T09:30"));
    } catch (e) {
      error = e;
    }
    expect((error as AppointmentError).message).toBe("O paciente já tem consulta das 08:00 às 09:00 de 26/11/2026 com Dra. Helena Prado.");
    expect((error as AppointmentError).field).toBe("startTime");
  });

  it("refuses unknown patients and doctors as field errors, and inactive doctors for new appointments", () => {
    const attempt = (over: Partial<AppointmentInput>) => {
      try {
        createAppointment(adminId, { ...input({ patientId: maria, doctorId: ricardo }, "2027-01-05T10:00", "2027-01-05T10:30"), ...over });
      } catch (error) {
        return error as AppointmentError;
      }
      throw new Error("expected a refusal");
    };
    expect(attempt({ patientId: 999_999 }).field).toBe("patientId");
    expect(attempt({ doctorId: 999_999 }).field).toBe("doctorId");
    const retired = addDoctor("Dr. Aposentado", "Neurocirurgia", false);
    expect(attempt({ doctorId: retired })).toMatchObject({ field: "doctorId", message: "Este médico está inativo e não recebe novas consultas." });
    expect(db.select().from(appointments).where(eq(appointments.doctorId, retired)).all()).toEqual([]);
  });

  it("records every write in the audit log with the author", () => {
    const patient = addPatient("Auditada");
    const id = createAppointment(staffId, input({ patientId: patient, doctorId: ricardo }, "2027-02-01T10:00", "2027-02-01T10:30"));
    expect(getAppointment(id)?.createdBy).toBe(staffId);
    updateAppointment(adminId, id, input({ patientId: patient, doctorId: ricardo, status: "confirmed" }, "2027-02-01T10:00", "2027-02-01T10:30"));
    deleteAppointment(adminId, id);
    expect(getAppointment(id)).toBeNull();
    const entries = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "appointment"), eq(auditLog.entityId, String(id))))
      .all();
    expect(entries.map((e) => [e.action, e.userId])).toEqual([
      ["create", staffId],
      ["update", adminId],
      ["delete", adminId],
    ]);
    expect(entries[1].changes).toEqual({ status: ["scheduled", "confirmed"] });
    expect(() => deleteAppointment(adminId, id)).toThrow(AppointmentError);
  });
});

// ------------------------------------------------------------------------------------------ concurrency

describe("two saves of the same slot at the same moment", () => {
  let doctor: number;
  beforeAll(() => {
    doctor = addDoctor("Dr. Concorrido");
  });

  it("refuses the second of two saves for the same doctor and time", () => {
    const first = input({ patientId: addPatient("Primeira"), doctorId: doctor }, "2027-03-01T09:00", "2027-03-01T09:30");
    const second = input({ patientId: addPatient("Segunda"), doctorId: doctor }, "2027-03-01T09:15", "2027-03-01T09:45");
    createAppointment(adminId, first);
    expect(() => createAppointment(adminId, second)).toThrow(AppointmentError);
    expect(db.select().from(appointments).where(eq(appointments.doctorId, doctor)).all()).toHaveLength(1);
  });

  it("holds the write lock for the whole save, so no other connection can write in between", () => {
    const other = new Database(databasePath);
    other.pragma("busy_timeout = 0");
    try {
      // The transaction kind createAppointment uses (every transaction's, app/.server/db.ts): from
      // BEGIN on, a second writer is refused…
      db.transaction(
        (tx) => {
          tx.select({ id: appointments.id }).from(appointments).limit(1).all();
          expect(() => other.exec("BEGIN IMMEDIATE")).toThrow(/locked|busy/i);
        },
        { behavior: "immediate" },
      );
      // …whereas a deferred transaction that has only read lets one in.
      db.transaction(
        (tx) => {
          tx.select({ id: appointments.id }).from(appointments).limit(1).all();
          other.exec("BEGIN IMMEDIATE");
          other.exec("ROLLBACK");
        },
        { behavior: "deferred" },
      );
    } finally {
      if (other.inTransaction) other.exec("ROLLBACK");
      other.close();
    }
  });

  it("books each slot exactly once when several processes race for it", async () => {
    const slots = 8;
    const workers = 4;
    const patientIds = Array.from({ length: workers }, (_, i) => addPatient(`Corrida ${i}`));
    const script = path.join(os.tmpdir(), `sinapse-race-${process.pid}-${Date.now()}.ts`);
    const model = path.resolve(import.meta.dirname, "../../app/models/appointment.server.ts");
    fs.writeFileSync(
      script,
      `import { AppointmentError, createAppointment } from ${JSON.stringify(model)};
const [userId, doctorId, patientId, slots] = process.argv.slice(2).map(Number);
const results: string[] = [];
process.stdout.write("ready\\n");
process.stdin.once("data", () => {
  for (let i = 0; i < slots; i++) {
    const startTime = new Date(Date.UTC(2027, 5, 1, 12) + i * 3_600_000);
    const endTime = new Date(startTime.getTime() + 30 * 60_000);
    try {
      createAppointment(userId, { patientId, doctorId, startTime, endTime, type: "Retorno", location: null, status: "scheduled", notes: null });
      results.push("ok");
    } catch (error) {
      results.push(error instanceof AppointmentError ? "refused" : "error: " + String(error));
    }
  }
  process.stdout.write(JSON.stringify(results) + "\\n");
  process.stdin.destroy(); // nothing else keeps the worker alive: it ends with code 0
});
`,
    );
    try {
      const children = patientIds.map((patientId) =>
        spawn(path.resolve(import.meta.dirname, "../../node_modules/.bin/tsx"), [script, String(adminId), String(doctor), String(patientId), String(slots)], {
          cwd: path.resolve(import.meta.dirname, "../.."),
          env: { ...process.env, DATABASE_PATH: databasePath },
          stdio: ["pipe", "pipe", "inherit"],
        }),
      );
      const outputs = children.map(
        (child) =>
          new Promise<string>((resolve, reject) => {
            let text = "";
            child.stdout!.on("data", (chunk) => (text += chunk));
            child.on("error", reject);
            child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`worker exited with ${code}: ${text}`))));
          }),
      );
      // Start every worker at once, after all have loaded.
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              const onData = (chunk: Buffer) => {
                if (chunk.toString().includes("ready")) {
                  child.stdout!.off("data", onData);
                  resolve();
                }
              };
              child.stdout!.on("data", onData);
            }),
        ),
      );
      for (const child of children) child.stdin!.write("go\n");
      const results = (await Promise.all(outputs)).map((text) => JSON.parse(text.trim().split("\n").pop()!) as string[]);

      for (let i = 0; i < slots; i++) {
        const outcomes = results.map((r) => r[i]);
        expect(outcomes.filter((o) => o === "ok"), `slot ${i}: ${outcomes.join(", ")}`).toHaveLength(1);
        expect(outcomes.filter((o) => o === "refused")).toHaveLength(workers - 1);
      }
      const booked = db.select().from(appointments).where(eq(appointments.doctorId, doctor)).all();
      expect(booked.filter((a) => a.startTime.getUTCFullYear() === 2027 && a.startTime.getUTCMonth() === 5)).toHaveLength(slots);
    } finally {
      fs.rmSync(script, { force: true });
    }
  }, 120_000);
});

// ------------------------------------------------------------------------------------------ list

describe("appointment list", () => {
  let doctorA: number;
  let doctorB: number;

  beforeAll(() => {
    doctorA = addDoctor("Dr. Íris Gonçalves");
    doctorB = addDoctor("Dr. Benedito Lista");
    const conceicao = addPatient("Conceição Araújo", "52998224725");
    const beto = addPatient("Beto Lista");
    db.insert(appointments)
      .values([
        { patientId: conceicao, doctorId: doctorA, startTime: new Date("2030-01-10T13:00:00Z"), endTime: new Date("2030-01-10T13:30:00Z"), type: "Avaliação pré-operatória", location: "Hospital São José", status: "confirmed" },
        { patientId: beto, doctorId: doctorB, startTime: new Date("2030-01-11T13:00:00Z"), endTime: new Date("2030-01-11T13:30:00Z"), type: "Teleconsulta", location: "Online", status: "cancelled" },
        { patientId: beto, doctorId: doctorA, startTime: new Date("2030-01-09T13:00:00Z"), endTime: new Date("2030-01-09T13:30:00Z"), type: "Retorno", location: "Consultório ÁGUA Fria", status: "scheduled" },
      ])
      .run();
  });

  const search = (q: string, filters = {}) =>
    listAppointments({ q, page: 1, sort: "startTime", dir: "desc" }, filters).rows.map((r) => `${r.patientName}/${r.type}`);

  it("searches patient, doctor, type and location accent- and case-insensitively", () => {
    expect(search("conceicao araujo")).toEqual(["Conceição Araújo/Avaliação pré-operatória"]);
    expect(search("529.982.247-25")).toEqual(["Conceição Araújo/Avaliação pré-operatória"]);
    expect(search("iris goncalves")).toEqual(["Conceição Araújo/Avaliação pré-operatória", "Beto Lista/Retorno"]);
    expect(search("AVALIACAO PRE")).toEqual(["Conceição Araújo/Avaliação pré-operatória"]);
    expect(search("sao jose")).toEqual(["Conceição Araújo/Avaliação pré-operatória"]);
    expect(search("agua fria")).toEqual(["Beto Lista/Retorno"]);
    expect(search("teleconsulta")).toEqual(["Beto Lista/Teleconsulta"]);
    expect(search("nada disso")).toEqual([]);
  });

  it("filters by status and doctor, newest first unless asked otherwise", () => {
    expect(search("lista")).toEqual(["Beto Lista/Teleconsulta", "Beto Lista/Retorno"]);
    expect(search("", { status: "cancelled", doctorId: doctorB })).toEqual(["Beto Lista/Teleconsulta"]);
    expect(search("", { doctorId: doctorA })).toEqual(["Conceição Araújo/Avaliação pré-operatória", "Beto Lista/Retorno"]);
    const ascending = listAppointments({ q: "", page: 1, sort: "startTime", dir: "asc" }, { doctorId: doctorA });
    expect(ascending.rows.map((r) => r.type)).toEqual(["Retorno", "Avaliação pré-operatória"]);
  });

  it("pages in SQL with a total count", () => {
    const patient = addPatient("Paginada");
    const doctor = addDoctor("Dr. Paginação");
    db.insert(appointments)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          patientId: patient,
          doctorId: doctor,
          startTime: new Date(Date.UTC(2031, 0, 1 + i, 12)),
          endTime: new Date(Date.UTC(2031, 0, 1 + i, 13)),
          type: "Retorno",
        })),
      )
      .run();
    const page1 = listAppointments({ q: "", page: 1, sort: "startTime", dir: "desc" }, { doctorId: doctor });
    const page2 = listAppointments({ q: "", page: 2, sort: "startTime", dir: "desc" }, { doctorId: doctor });
    expect(page1.total).toBe(30);
    expect(page1.rows).toHaveLength(25);
    expect(page1.rows[0].startTime.toISOString()).toBe("2031-01-30T12:00:00.000Z");
    expect(page2.rows.map((r) => r.startTime.getUTCDate())).toEqual([5, 4, 3, 2, 1]);
  });

  it("uses the (doctor_id, start_time) index for the clash check", () => {
    const plan = sqlite
      .prepare(
        `explain query plan select id from appointments
         where doctor_id = ? and start_time > ? and start_time < ? and end_time > ? and status <> 'cancelled'`,
      )
      .all(1, 0, 1, 0) as { detail: string }[];
    expect(plan.map((p) => p.detail).join("\n")).toMatch(/USING INDEX appointments_doctor_start_idx \(doctor_id=\? AND start_time>\? AND start_time<\?\)/);
  });
});

// ------------------------------------------------------------------------------------------ time zone

describe("São Paulo time whatever the server's time zone", () => {
  it("shows a stored appointment at its São Paulo wall time", () => {
    const patient = addPatient("Fuso Horário");
    const doctor = addDoctor("Dr. Fuso");
    db.insert(appointments)
      .values({ patientId: patient, doctorId: doctor, startTime: new Date("2026-03-10T17:00:00Z"), endTime: new Date("2026-03-10T17:45:00Z"), type: "Retorno" })
      .run();
    const original = process.env.TZ;
    try {
      for (const zone of [original, "UTC", "Asia/Tokyo", "America/Los_Angeles"]) {
        if (zone) process.env.TZ = zone;
        const [row] = listAppointments({ q: "fuso horario", page: 1, sort: "startTime", dir: "desc" }).rows;
        expect([formatAppointmentDate(row.startTime), formatTime(row.startTime), formatTime(row.endTime)], String(zone)).toEqual([
          "mar 10, 2026",
          "14:00",
          "14:45",
        ]);
        // A São Paulo wall time typed in the form is stored as the same instant.
        expect(sp("2026-03-10T14:00").toISOString()).toBe("2026-03-10T17:00:00.000Z");
      }
    } finally {
      if (original === undefined) delete process.env.TZ;
      else process.env.TZ = original;
    }
  });
});

// ------------------------------------------------------------------------------------------ loader and action


/** The status and body of whatever a loader or action returned or threw (Response or data()). */
async function outcome(run: () => Promise<unknown>): Promise<{ status: number; body: unknown; headers?: Headers }> {
  let value: unknown;
  try {
    value = await run();
  } catch (error) {
    value = error;
  }
  if (value instanceof Response) return { status: value.status, body: null, headers: value.headers };
  const maybe = value as { type?: string; data?: unknown; init?: { status?: number } };
  if (maybe?.type === "DataWithResponseInit") return { status: maybe.init?.status ?? 200, body: maybe.data };
  if (value instanceof Error) throw value;
  return { status: 200, body: value };
}

describe("the /appointments route", () => {
  let patient: number;
  let doctor: number;
  beforeAll(() => {
    patient = addPatient("Rota Paciente");
    doctor = addDoctor("Dra. Rota Médica");
  });
  const fields = (over: Record<string, string> = {}) => ({
    intent: "create",
    patientId: String(patient),
    doctorId: String(doctor),
    startTime: "2028-04-03T10:00",
    endTime: "2028-04-03T10:30",
    type: "Primeira consulta",
    ...over,
  });

  it("creates through the action and redirects to the list with a toast", async () => {
    const result = await outcome(() => action(routeArgs(formRequest("/appointments?dialog=new&status=confirmed&page=2", fields(), { cookie: staffCookie }))));
    expect(result.status).toBe(302);
    expect(result.headers?.get("Location")).toBe("/appointments?page=2&status=confirmed");
    expect(result.headers?.get("Set-Cookie")).toMatch(/sinapse_toast=/);
    const row = db.select().from(appointments).where(eq(appointments.patientId, patient)).get();
    expect(row).toMatchObject({ doctorId: doctor, status: "scheduled", createdBy: staffId, startTime: new Date("2028-04-03T13:00:00Z") });
  });

  it("answers bad input, clashes and unknown ids with 400 and field errors, never a 500", async () => {
    const post = (over: Record<string, string>) => outcome(() => action(routeArgs(formRequest("/appointments?dialog=new", fields(over), { cookie: staffCookie }))));
    const clash = await post({ patientId: String(addPatient("Rota Outra")) });
    expect(clash.status).toBe(400);
    expect(clash.body).toMatchObject({
      intent: "create",
      toast: { type: "error", message: "Dra. Rota Médica já tem consulta das 10:00 às 10:30 de 03/04/2028 com Rota Paciente." },
      result: { error: { startTime: ["Dra. Rota Médica já tem consulta das 10:00 às 10:30 de 03/04/2028 com Rota Paciente."] } },
    });
    const unknown = await post({ patientId: "987654", startTime: "2028-04-04T10:00", endTime: "2028-04-04T10:30" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ result: { error: { patientId: [expect.stringContaining("Paciente não encontrado")] } } });
    const backwards = await post({ endTime: "2028-04-03T09:00" });
    expect(backwards.body).toMatchObject({
      toast: { message: "Failed to save appointment" },
      result: { error: { endTime: ["O horário de término deve ser depois do início"] } },
    });
    const nonsense = await post({ patientId: "1e3", doctorId: "", startTime: "ontem", status: "perdida" });
    expect(nonsense.status).toBe(400);
  });

  it("lets staff create and edit but not delete; the server refuses a forged delete", async () => {
    const id = db.select().from(appointments).where(eq(appointments.patientId, patient)).get()!.id;
    const view = await outcome(() => loader(routeArgs(getRequest(`/appointments?edit=${id}`, { cookie: staffCookie }))));
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ permissions: { create: true, edit: true, delete: false }, editing: { id } });
    expect((view.body as { form: { values: Record<string, string> } }).form.values).toMatchObject({
      startTime: "2028-04-03T10:00",
      endTime: "2028-04-03T10:30",
      patientId: String(patient),
    });

    expect((await outcome(() => loader(routeArgs(getRequest(`/appointments?delete=${id}`, { cookie: staffCookie }))))).status).toBe(403);
    const forged = await outcome(() => action(routeArgs(formRequest("/appointments", { intent: "delete", id: String(id) }, { cookie: staffCookie }))));
    expect(forged.status).toBe(403);
    expect(getAppointment(id)).not.toBeNull();

    const deleted = await outcome(() => action(routeArgs(formRequest("/appointments", { intent: "delete", id: String(id) }, { cookie: adminCookie }))));
    expect(deleted.status).toBe(302);
    expect(getAppointment(id)).toBeNull();
  });

  it("answers unknown or malformed ids with 404 and ignores malformed filters", async () => {
    expect((await outcome(() => loader(routeArgs(getRequest("/appointments?edit=abc", { cookie: adminCookie }))))).status).toBe(404);
    expect((await outcome(() => loader(routeArgs(getRequest("/appointments?delete=999999", { cookie: adminCookie }))))).status).toBe(404);
    const odd = await outcome(() => loader(routeArgs(getRequest("/appointments?status=perdida&doctor=x&page=-2&sort=nada&q=%25", { cookie: adminCookie }))));
    expect(odd.status).toBe(200);
    expect(odd.body).toMatchObject({ filters: { status: null, doctorId: null }, params: { page: 1, sort: "startTime", dir: "desc" } });
  });

  it("refills the dialog from a picker's GET round trip, with the chosen patient among the options", async () => {
    const chosen = addPatient("Escolhida Antes");
    const url =
      `/appointments?dialog=new&picker=patientId&listStatus=confirmed&patientQ=rota&doctorQ=` +
      `&patientId=${chosen}&doctorId=${doctor}&startTime=2028-05-01T09:00&endTime=2028-05-01T09:30&type=Retorno&status=completed`;
    const result = await outcome(() => loader(routeArgs(getRequest(url, { cookie: staffCookie }))));
    const body = result.body as {
      form: { values: Record<string, string>; patients: { id: number; label: string }[]; patientQ: string };
      filters: { status: string | null };
      closeTo: string;
    };
    expect(body.form.values).toMatchObject({ startTime: "2028-05-01T09:00", type: "Retorno", status: "completed", patientId: String(chosen) });
    expect(body.form.patientQ).toBe("rota");
    expect(body.form.patients.map((p) => p.label)).toEqual(["Escolhida Antes", "Rota Outra", "Rota Paciente"]);
    // The list behind keeps its own status filter, not the form's status field.
    expect(body.filters.status).toBe("confirmed");
    expect(body.closeTo).toBe("/appointments?status=confirmed");
  });
});
