/**
 * The screen kit's server half: the intent dispatcher (guard first, body read once and safely,
 * 400/403/404/413/415, domain errors as field messages), the list-state parser and the input
 * cleaning every form and search shares.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, auditLog, patients } from "~db/schema";
import { db } from "~/.server/db";
import { defineList, idFilter, oneOfFilter, parseListState, safeReturnTo } from "~/lib/list-params";
import { SURGERY_STATUSES } from "~/lib/enums";
import { SurgeryError, createSurgery } from "~/models/surgery.server";
import { action as appointmentsAction } from "~/routes/appointments";
import { action as patientsAction, loader as patientsLoader } from "~/routes/patients";
import { patientSchema } from "~/validation/patient";
import {
  type SignedIn,
  TEST_ORIGIN,
  formRequest,
  getRequest,
  insertDoctor,
  insertPatient,
  loginAs,
  routeArgs,
  statusOf,
  thrownResponse,
} from "../support/fixtures";

let admin: SignedIn;
let staff: SignedIn;
beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
});

const patientCount = () => db.select().from(patients).all().length;

function post(path: string, body: BodyInit, contentType: string | null, cookie: string) {
  const headers = new Headers({ Cookie: cookie, Origin: TEST_ORIGIN });
  if (contentType) headers.set("Content-Type", contentType);
  return new Request(new URL(path, TEST_ORIGIN), { method: "POST", headers, body });
}

describe("the dispatcher", () => {
  it("guards before it reads anything: an anonymous post with an unknown intent goes to sign-in", async () => {
    const response = await thrownResponse(patientsAction(routeArgs(formRequest("/patients", { intent: "nonsense" }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth/);
  });

  it("answers 400 to an unknown intent of a signed-in user, and never runs an inherited property", async () => {
    for (const intent of ["nonsense", "__proto__", "toString", ""]) {
      const result = await patientsAction(routeArgs(formRequest("/patients", { intent }, { cookie: admin.cookie })));
      expect(statusOf(result)).toBe(400);
    }
  });

  it("checks the intent's own permission: staff may create but not delete a patient (403)", async () => {
    const id = insertPatient("Paciente Protegido");
    const refused = await thrownResponse(patientsAction(routeArgs(formRequest("/patients", { intent: "delete", id }, { cookie: staff.cookie }))));
    expect(refused.status).toBe(403);
    expect(db.select().from(patients).where(eq(patients.id, id)).get()).toBeTruthy();
  });

  it("answers 404 to a malformed record id", async () => {
    const response = await thrownResponse(patientsAction(routeArgs(formRequest("/patients", { intent: "delete", id: "abc" }, { cookie: admin.cookie }))));
    expect(response.status).toBe(404);
  });

  it("refuses bodies that are not forms (415), broken multipart (400) and oversized bodies (413)", async () => {
    const cases: [BodyInit, string | null, number][] = [
      ['{"intent":"create","name":"Ana"}', "application/json", 415],
      ["intent=create&name=Ana", "text/plain", 415],
      ["intent=create&name=Ana", null, 415],
      ["--x\r\nbroken", "multipart/form-data; boundary=y", 400],
      [`intent=create&name=${"a".repeat(1_100_000)}`, "application/x-www-form-urlencoded", 413],
      ["a=b&".repeat(80_000), "application/x-www-form-urlencoded", 413],
      ["a&".repeat(60_000), "application/x-www-form-urlencoded", 400],
    ];
    const before = patientCount();
    for (const [body, type, status] of cases) {
      const response = await thrownResponse(patientsAction(routeArgs(post("/patients", body, type, admin.cookie))));
      expect(response.status, `${type} → ${status}`).toBe(status);
      expect(((await response.json()) as { error: string }).error).toMatch(/formulário/i);
    }
    expect(patientCount()).toBe(before);
  });

  it("accepts a well-formed multipart form as a browser sends it", async () => {
    const form = new FormData();
    form.set("intent", "create");
    form.set("name", "Paciente Multipart");
    const response = await patientsAction(routeArgs(post("/patients", form, null, admin.cookie)));
    expect(statusOf(response)).toBe(302);
    expect(db.select().from(patients).where(eq(patients.name, "Paciente Multipart")).get()).toBeTruthy();
  });

  it("turns a name made only of control characters into the field's message, writing nothing", async () => {
    const before = patientCount();
    const audits = db.select().from(auditLog).all().length;
    const result = (await patientsAction(routeArgs(formRequest("/patients", { intent: "create", name: "\u0000\u0007" }, { cookie: admin.cookie })))) as {
      data: { result: { error: Record<string, string[]> } };
    };
    expect(statusOf(result)).toBe(400);
    expect(result.data.result.error.name).toEqual(["Informe o nome do paciente"]);
    expect(patientCount()).toBe(before);
    expect(db.select().from(auditLog).all().length).toBe(audits);
  });

  it("validates returnTo before the write: a control character falls back to the list", async () => {
    const patientId = insertPatient("Paciente Retorno");
    const doctorId = insertDoctor("Dra. Retorno");
    const response = await appointmentsAction(
      routeArgs(
        formRequest(
          "/appointments?returnTo=/schedule?x=%00",
          { intent: "create", patientId, doctorId, startTime: "2031-03-10T09:00", endTime: "2031-03-10T09:30", type: "Consulta", status: "scheduled" },
          { cookie: admin.cookie },
        ),
      ),
    );
    expect(statusOf(response)).toBe(302);
    expect((response as Response).headers.get("Location")).toBe("/appointments");
    expect(db.select().from(appointments).where(eq(appointments.patientId, patientId)).all()).toHaveLength(1);
    expect(safeReturnTo("/schedule?view=week")).toBe("/schedule?view=week");
    expect(safeReturnTo("/schedule?x=\u0000")).toBeNull();
  });
});

describe("searching with junk", () => {
  it("a NUL byte and quotes in ?q= are a search like any other, not a 500", async () => {
    insertPatient("Paciente Aspas");
    const data = (await patientsLoader(routeArgs(getRequest("/patients?q=%00'\"<aspas", { cookie: admin.cookie })))) as { total: number };
    expect(data.total).toBe(0);
    const found = (await patientsLoader(routeArgs(getRequest("/patients?q=%00aspas", { cookie: admin.cookie })))) as { total: number };
    expect(found.total).toBe(1);
  });
});

describe("parseListState", () => {
  const LIST = defineList({
    sorts: ["name", "createdAt"] as const,
    defaultSort: "name",
    defaultDir: "asc",
    filters: { status: oneOfFilter("status", SURGERY_STATUSES), doctorId: idFilter("doctor") },
  });
  const parse = (query: string) => parseListState(new URL(`http://x/list?${query}`), LIST);

  it("reads search, page, order and the declared filters", () => {
    expect(parse("q=%20ana%00%20&page=3&sort=createdAt&dir=desc&status=completed&doctor=7")).toEqual({
      q: "ana",
      page: 3,
      sort: "createdAt",
      dir: "desc",
      after: null,
      before: null,
      filters: { status: "completed", doctorId: 7 },
    });
  });

  it("falls back to the defaults for anything malformed", () => {
    expect(parse("page=-2&sort=__proto__&dir=up&status=done&doctor=1.5")).toEqual({
      q: "",
      page: 1,
      sort: "name",
      dir: "asc",
      after: null,
      before: null,
      filters: { status: null, doctorId: null },
    });
    expect(parse("page=1e400").page).toBe(1);
    expect(parse(`q=${"x".repeat(500)}`).q).toHaveLength(100);
  });

  it("reads keyset cursors and ignores anything that is not one", () => {
    expect(parse(`after=${encodeURIComponent('["silva ana", 42]')}`).after).toEqual(["silva ana", 42]);
    expect(parse(`before=${encodeURIComponent("[1700000000000, 7]")}`).before).toEqual([1700000000000, 7]);
    for (const junk of ["x", "[1]", '["a", -1]', '["a", 1.5]', "[{}, 2]", '{"a":1}', "%00", `["${"a".repeat(700)}", 1]`]) {
      expect(parse(`after=${encodeURIComponent(junk)}`).after).toBeNull();
    }
  });
});

describe("field cleaning", () => {
  it("strips control characters and keeps line breaks only where text may span lines", () => {
    const parsed = patientSchema.parse({ name: " Ana\u0000 Maria\u001b ", medicalHistory: "linha 1\nlinha 2\u0007" });
    expect(parsed.name).toBe("Ana Maria");
    expect(parsed.medicalHistory).toBe("linha 1\nlinha 2");
  });
});

describe("surgery dates", () => {
  it("refuses to mark a surgery on a day still to come as concluded, beside the field that asked", () => {
    const patientId = insertPatient("Paciente Futuro");
    const doctorId = insertDoctor("Dr. Futuro");
    const input = {
      patientId,
      doctorId,
      surgeryType: "Microdiscectomia",
      scheduledDate: new Date(Date.now() + 3 * 86_400_000),
      surgeryStatus: "completed" as const,
      currentStage: "aguarda_docs" as const,
      estimatedDurationMin: null,
      hospitalId: null,
      hospitalName: null,
      payerId: null,
      payerName: null,
      guideNumber: null,
      billedAmount: null,
      notes: null,
    };
    expect(() => createSurgery(admin.id, input)).toThrow(SurgeryError);
    try {
      createSurgery(admin.id, { ...input, surgeryStatus: "scheduled", currentStage: "concluido" });
      expect.unreachable();
    } catch (error) {
      expect((error as SurgeryError).field).toBe("currentStage");
      expect((error as SurgeryError).message).toBe("Uma cirurgia com data futura não pode ser marcada como concluída.");
    }
    // Today, and the past, are fine.
    expect(createSurgery(admin.id, { ...input, scheduledDate: new Date(Date.now() - 86_400_000) })).toBeGreaterThan(0);
  });
});
