import Database from "better-sqlite3";
import { parseWithZod } from "@conform-to/zod/v4";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, auditLog, doctors, patients, surgeries, surgeryFeeLines } from "~db/schema";
import { databasePath, db } from "~/.server/db";
import { PAGE_SIZE } from "~/lib/list-params";
import {
  DoctorError,
  createDoctor,
  deleteDoctor,
  deleteRefusal,
  getDoctor,
  listDoctors,
  updateDoctor,
} from "~/models/doctor.server";
import { listActiveDoctorOptions, listDoctorFilterOptions, searchDoctorOptions } from "~/models/doctor-options.server";
import { listScheduleDoctors } from "~/models/schedule.server";
import { action, loader } from "~/routes/doctors";
import { COMMISSION_MESSAGES, type DoctorInput, doctorSchema, formatCommission, formatCrm } from "~/validation/doctor";
import { formRequest, getRequest, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "./helpers";

let adminId: number;
let adminCookie: string;
let staffCookie: string;

beforeAll(async () => {
  const admin = await loginAs("admin", { name: "Ana Admin", email: "ana@medicos.test" });
  adminId = admin.id;
  adminCookie = admin.cookie;
  staffCookie = (await loginAs("staff", { name: "Sérgio Equipe", email: "sergio@medicos.test" })).cookie;
});

function input(overrides: Partial<DoctorInput> = {}): DoctorInput {
  return {
    name: "Dr. Teste",
    specialty: "Neurocirurgia",
    crm: "123456",
    crmUf: "SP",
    phone: null,
    email: null,
    commissionRate: 0.15,
    active: true,
    ...overrides,
  };
}

const list = (q: string, extra: Partial<Parameters<typeof listDoctors>[0]> = {}) =>
  listDoctors({ q, page: 1, sort: "name", dir: "asc", ...extra });

/** The messages of a failed parse (as the form posts it), or the parsed value. */
function parseForm(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [k, v] of Object.entries(fields)) formData.set(k, v);
  const submission = parseWithZod(formData, { schema: doctorSchema });
  return submission.status === "success" ? { value: submission.value } : { errors: submission.error ?? {} };
}

const validForm = { name: "Dra. Joana", specialty: "Coluna", crm: "98765", commissionRate: "0.2", active: "on" };

const thrownStatus = async (promise: Promise<unknown>) => (await thrownResponse(promise)).status;

function callAction(fields: Record<string, string | number>, cookie: string) {
  return action(routeArgs(formRequest("/doctors", fields, { cookie })));
}

describe("doctor schema", () => {
  it("requires name, specialty and CRM with Portuguese messages", () => {
    const result = parseForm({ name: " ", specialty: "", crm: "" });
    expect(result).toEqual({
      errors: {
        name: ["Informe o nome do médico"],
        specialty: ["Informe a especialidade"],
        crm: ["Informe o CRM"],
      },
    });
  });

  it("reads the commission as a fraction 0..1 in steps of 0.01, defaulting to 0", () => {
    expect(parseForm({ ...validForm, commissionRate: "0.15" })).toMatchObject({ value: { commissionRate: 0.15 } });
    expect(parseForm({ ...validForm, commissionRate: "0,07" })).toMatchObject({ value: { commissionRate: 0.07 } });
    expect(parseForm({ ...validForm, commissionRate: "1" })).toMatchObject({ value: { commissionRate: 1 } });
    expect(parseForm({ ...validForm, commissionRate: "" })).toMatchObject({ value: { commissionRate: 0 } });
    expect(parseForm({ ...validForm, commissionRate: "1.01" })).toEqual({ errors: { commissionRate: [COMMISSION_MESSAGES.max] } });
    expect(parseForm({ ...validForm, commissionRate: "-0.1" })).toEqual({ errors: { commissionRate: [COMMISSION_MESSAGES.min] } });
    expect(parseForm({ ...validForm, commissionRate: "15%" })).toEqual({ errors: { commissionRate: [COMMISSION_MESSAGES.invalid] } });
    expect(parseForm({ ...validForm, commissionRate: "0.155" })).toEqual({ errors: { commissionRate: [COMMISSION_MESSAGES.step] } });
  });

  it("normalises CRM, UF, phone and the active checkbox", () => {
    const result = parseForm({ ...validForm, crm: "123.456", crmUf: "rj", phone: "(11) 98765-4321", email: "" });
    expect(result).toEqual({
      value: {
        name: "Dra. Joana",
        specialty: "Coluna",
        crm: "123456",
        crmUf: "RJ",
        phone: "11987654321",
        email: null,
        commissionRate: 0.2,
        active: true,
      },
    });
    expect(parseForm({ ...validForm, active: "" })).toMatchObject({ value: { active: false } });
    expect(parseForm({ ...validForm, crm: "12A45" })).toMatchObject({ errors: { crm: [expect.stringContaining("CRM inválido")] } });
    expect(parseForm({ ...validForm, crmUf: "XX" })).toEqual({ errors: { crmUf: ["UF inválida"] } });
  });

  it("formats commission as a whole percentage and CRM with its UF", () => {
    expect(formatCommission(0.15)).toBe("15%");
    expect(formatCommission(0)).toBe("0%");
    expect(formatCommission(1)).toBe("100%");
    expect(formatCrm("123456", "SP")).toBe("CRM/SP 123456");
    expect(formatCrm("123456", null)).toBe("123456");
  });
});

describe("doctor model", () => {
  it("creates, updates and deletes a doctor, auditing every write", () => {
    const id = createDoctor(adminId, input({ name: "Dr. Álvaro Prêmio", crm: "111111", email: "alvaro@clinica.test" }));
    expect(getDoctor(id)).toMatchObject({ name: "Dr. Álvaro Prêmio", crm: "111111", crmUf: "SP", commissionRate: 0.15, active: true });
    expect(getDoctor(id)!.searchText).toContain("alvaro premio");

    updateDoctor(adminId, id, input({ name: "Dr. Álvaro Prêmio", crm: "111111", email: "alvaro@clinica.test", commissionRate: 0.2, active: false }));
    expect(getDoctor(id)).toMatchObject({ commissionRate: 0.2, active: false });

    deleteDoctor(adminId, id);
    expect(getDoctor(id)).toBeNull();

    const entries = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "doctor"), eq(auditLog.entityId, String(id))))
      .all();
    expect(entries.map((e) => e.action)).toEqual(["create", "update", "delete"]);
    expect(entries[1].changes).toEqual({ commissionRate: [0.15, 0.2], active: [true, false] });
    expect(entries.every((e) => e.userId === adminId)).toBe(true);
  });

  it("refuses a CRM already registered in the same UF", () => {
    createDoctor(adminId, input({ name: "Dr. Primeiro", crm: "222222", crmUf: "MG" }));
    expect(() => createDoctor(adminId, input({ name: "Dr. Segundo", crm: "222222", crmUf: "MG" }))).toThrow(
      "Este CRM já está cadastrado para Dr. Primeiro.",
    );
    // Same number in another state is another registration.
    expect(createDoctor(adminId, input({ name: "Dr. Terceiro", crm: "222222", crmUf: "RJ" }))).toBeGreaterThan(0);
  });

  it("searches name, specialty, CRM and e-mail without regard to accents or case", () => {
    const tag = "zqx";
    createDoctor(adminId, input({ name: `Dra. Conceição Gonçalves ${tag}`, specialty: "Neurologia Pediátrica", crm: "765432", crmUf: "BA", email: `conceicao.${tag}@clinica.test` }));
    expect(list("conceicao").rows.map((r) => r.name)).toEqual([`Dra. Conceição Gonçalves ${tag}`]);
    expect(list("GONÇALVES").total).toBe(1);
    expect(list("pediatrica").total).toBe(1);
    expect(list("765432").total).toBe(1);
    expect(list("CRM/BA 7654").total).toBe(1);
    expect(list(`${tag}@clinica`).total).toBe(1);
    expect(list("ninguém-com-este-nome").total).toBe(0);
    // LIKE wildcards typed by the user match themselves.
    expect(list("%").total).toBe(0);
  });

  it("sorts by name or specialty and pages by 25 with the total", () => {
    for (let i = 0; i < 30; i++) {
      createDoctor(adminId, input({ name: `Pag ${String(i).padStart(2, "0")}`, specialty: i % 2 ? "Zeta" : "Alfa", crm: String(900000 + i) }));
    }
    const page1 = list("pag ");
    expect(page1.total).toBe(30);
    expect(page1.rows).toHaveLength(PAGE_SIZE);
    expect(page1.rows[0].name).toBe("Pag 00");
    expect(list("pag ", { page: 2 }).rows.map((r) => r.name)).toEqual(["Pag 25", "Pag 26", "Pag 27", "Pag 28", "Pag 29"]);
    const bySpecialtyDesc = list("pag ", { sort: "specialty", dir: "desc" });
    expect(bySpecialtyDesc.rows[0]).toMatchObject({ name: "Pag 01", specialty: "Zeta" });
    const bySpecialty = list("pag ", { sort: "specialty", dir: "asc" });
    expect(bySpecialty.rows[0]).toMatchObject({ name: "Pag 00", specialty: "Alfa" });
  });

  it("refuses to delete a doctor with appointments, surgeries or fee lines, naming the counts", () => {
    const id = createDoctor(adminId, input({ name: "Dr. Referenciado", crm: "333333" }));
    const patientId = insertPatient("Paciente Um");
    const start = new Date("2026-03-02T13:00:00Z");
    for (let i = 0; i < 3; i++) {
      db.insert(appointments)
        .values({ patientId, doctorId: id, startTime: new Date(start.getTime() + i * 3_600_000), endTime: new Date(start.getTime() + i * 3_600_000 + 1_800_000), type: "Consulta" })
        .run();
    }
    const surgeryId = db
      .insert(surgeries)
      .values({ patientId, doctorId: id, surgeryType: "Artrodese", scheduledDate: start })
      .returning({ id: surgeries.id })
      .get().id;

    expect(() => deleteDoctor(adminId, id)).toThrow(
      "Não é possível excluir Dr. Referenciado: há 3 consultas e 1 cirurgia ligadas a este médico. Marque-o como inativo.",
    );
    expect(getDoctor(id)).not.toBeNull();

    // A fee line alone also keeps the doctor (another doctor's surgery).
    const other = createDoctor(adminId, input({ name: "Dr. Auxiliar", crm: "444444" }));
    db.insert(surgeryFeeLines).values({ surgeryId, doctorId: other, role: "auxiliar", amountCents: 10_000 }).run();
    expect(() => deleteDoctor(adminId, other)).toThrow(
      "Não é possível excluir Dr. Auxiliar: há 1 linha de honorários ligada a este médico. Marque-o como inativo.",
    );
    expect(db.select().from(auditLog).where(and(eq(auditLog.entity, "doctor"), eq(auditLog.action, "delete"), eq(auditLog.entityId, String(other)))).all()).toEqual([]);
  });

  it("words the refusal for any mix of references", () => {
    expect(deleteRefusal("Dr. X", { appointments: 1, surgeries: 0, feeLines: 0 })).toBe(
      "Não é possível excluir Dr. X: há 1 consulta ligada a este médico. Marque-o como inativo.",
    );
    expect(deleteRefusal("Dr. X", { appointments: 2, surgeries: 3, feeLines: 1 })).toBe(
      "Não é possível excluir Dr. X: há 2 consultas, 3 cirurgias e 1 linha de honorários ligadas a este médico. Marque-o como inativo.",
    );
  });

  it("refuses to delete a doctor that does not exist", () => {
    expect(() => deleteDoctor(adminId, 987654)).toThrow(DoctorError);
  });
});

describe("doctor filter options", () => {
  // Kept between views until a write: every change to a doctor shows on the next list view.
  const names = () => ({
    all: listDoctorFilterOptions().map((d) => `${d.name}${d.active ? "" : " (inativo)"}`),
    active: listActiveDoctorOptions(200).map((d) => d.name),
    schedule: listScheduleDoctors().map((d) => d.name),
  });

  it("show a doctor added, renamed or made inactive, here or on another connection, on the next view", () => {
    const before = names();
    const id = createDoctor(adminId, input({ name: "Dr. Zacarias Filtro", crm: "747474" }));
    expect(names()).toEqual({
      all: expect.arrayContaining([...before.all, "Dr. Zacarias Filtro"]),
      active: [...before.active, "Dr. Zacarias Filtro"].sort((a, b) => a.localeCompare(b, "pt-BR")),
      schedule: expect.arrayContaining([...before.schedule, "Dr. Zacarias Filtro"]),
    });
    expect(names().schedule).toHaveLength(before.schedule.length + 1);

    updateDoctor(adminId, id, input({ name: "Dr. Zacarias Renomeado", crm: "747474" }));
    expect(names().active).toContain("Dr. Zacarias Renomeado");
    expect(names().schedule).not.toContain("Dr. Zacarias Filtro");

    updateDoctor(adminId, id, input({ name: "Dr. Zacarias Renomeado", crm: "747474", active: false }));
    expect(names().all).toContain("Dr. Zacarias Renomeado (inativo)");
    expect(names().active).toEqual(before.active);
    expect(names().schedule).toEqual(before.schedule);
    expect(listScheduleDoctors(id).map((d) => d.name)).toContain("Dr. Zacarias Renomeado");

    const other = new Database(databasePath);
    try {
      other.prepare("update doctors set active = 1 where id = ?").run(id);
    } finally {
      other.close();
    }
    expect(names().active).toContain("Dr. Zacarias Renomeado");
    expect(names().schedule).toContain("Dr. Zacarias Renomeado");
  });

  it("a picker's matches are kept until the next write", () => {
    const first = searchDoctorOptions("zacarias");
    expect(searchDoctorOptions("zacarias")).toBe(first);
    const id = createDoctor(adminId, input({ name: "Dra. Zacarias Nova", crm: "757575" }));
    expect(searchDoctorOptions("zacarias").map((d) => d.id)).toContain(id);
  });
});

describe("/doctors loader and action", () => {
  it("lets staff view and search but not open the create dialog", async () => {
    createDoctor(adminId, input({ name: "Dr. Visível Equipe", crm: "555555" }));
    const result = await loader(routeArgs(getRequest("/doctors?q=visivel", { cookie: staffCookie })));
    expect(result.rows.map((r) => r.name)).toEqual(["Dr. Visível Equipe"]);
    expect(result.permissions).toEqual({ create: false, edit: false, delete: false });
    const dialog = loader(routeArgs(getRequest("/doctors?dialog=new", { cookie: staffCookie })));
    expect(await thrownStatus(dialog)).toBe(403);
  });

  it("answers 403 to a staff create or delete and leaves the table unchanged", async () => {
    const before = db.select().from(doctors).all().length;
    expect(await thrownStatus(callAction({ intent: "create", ...validForm, crm: "666666" }, staffCookie))).toBe(403);
    const id = createDoctor(adminId, input({ name: "Dr. Protegido", crm: "777777" }));
    expect(await thrownStatus(callAction({ intent: "delete", id }, staffCookie))).toBe(403);
    expect(getDoctor(id)).not.toBeNull();
    expect(db.select().from(doctors).all().length).toBe(before + 1);
  });

  it("creates as admin and answers 400 with field errors on bad input", async () => {
    const created = await callAction({ intent: "create", ...validForm, name: "Dra. Pelo Formulário", crm: "888888" }, adminCookie);
    expect(statusOf(created)).toBe(302);
    expect(list("pelo formulario").rows[0]).toMatchObject({ commissionRate: 0.2, active: true });

    const bad = await callAction({ intent: "create", ...validForm, crm: "888889", commissionRate: "2" }, adminCookie);
    expect(statusOf(bad)).toBe(400);
    const body = (bad as { data: { result: { error: Record<string, string[]> }; toast: { message: string } } }).data;
    expect(body.result.error.commissionRate).toEqual([COMMISSION_MESSAGES.max]);
    expect(body.toast.message).toBe("Failed to save doctor");
    expect(list("888889").total).toBe(0);
  });

  it("answers a refused delete with 400 and the Portuguese message, not a 500", async () => {
    const id = createDoctor(adminId, input({ name: "Dr. Com Consulta", crm: "999999" }));
    const patientId = insertPatient("Paciente Dois");
    db.insert(appointments)
      .values({ patientId, doctorId: id, startTime: new Date("2026-04-01T12:00:00Z"), endTime: new Date("2026-04-01T12:30:00Z"), type: "Retorno" })
      .run();
    const result = await callAction({ intent: "delete", id }, adminCookie);
    expect(statusOf(result)).toBe(400);
    expect((result as { data: { toast: { message: string } } }).data.toast.message).toBe(
      "Não é possível excluir Dr. Com Consulta: há 1 consulta ligada a este médico. Marque-o como inativo.",
    );
    expect(getDoctor(id)).not.toBeNull();
  });
});
