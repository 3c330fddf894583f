import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, auditLog, documents, messages, patients, surgeries, tasks } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { recordConsent } from "~/.server/lgpd-consents";
import { TIMELINE_SQL, type TimelineKind, patientTimeline, parseTimelineCursor } from "~/models/patient-record.server";
import { loader } from "~/routes/patient";
import { getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";

const at = (iso: string) => new Date(iso);

let admin: Awaited<ReturnType<typeof loginAs>>;
let patientId: number;
let otherId: number;
let doctorId: number;

beforeAll(async () => {
  admin = await loginAs("admin");
  patientId = insertPatient("Helena Prontuário", { insuranceCardNumber: "0 123 456789 00-1" });
  otherId = insertPatient("Outro Paciente");
  doctorId = insertDoctor("Dr. Timeline");
  db.insert(appointments)
    .values([
      { patientId, doctorId, type: "Primeira consulta", startTime: at("2026-01-10T12:00:00Z"), endTime: at("2026-01-10T12:30:00Z") },
      { patientId, doctorId, type: "Retorno", startTime: at("2026-03-01T12:00:00Z"), endTime: at("2026-03-01T12:30:00Z") },
      { patientId: otherId, doctorId, type: "De outro", startTime: at("2026-02-01T12:00:00Z"), endTime: at("2026-02-01T12:30:00Z") },
    ])
    .run();
  db.insert(surgeries)
    .values({ patientId, doctorId, surgeryType: "Artrodese L4-L5", scheduledDate: at("2026-04-02T11:00:00Z"), currentStage: "opme_cotacao" })
    .run();
  db.insert(messages)
    .values({ patientId, patientName: "Helena Prontuário", body: "Lembrete da consulta", templateTitle: "Lembrete", createdAt: at("2026-02-28T10:00:00Z") })
    .run();
  db.insert(tasks).values({ patientId, title: "Pedir exames", createdAt: at("2026-01-15T10:00:00Z") }).run();
  db.insert(documents)
    .values({
      patientId,
      category: "laudo",
      originalName: "ressonancia.pdf",
      mimeType: "application/pdf",
      sizeBytes: 10,
      sha256: "0".repeat(64),
      storageName: "x".repeat(32),
      createdAt: at("2026-03-01T12:00:00Z"),
    })
    .run();
});

describe("patient timeline", () => {
  it("lists every kind of event of the patient, newest first, and nothing of other patients", () => {
    const { items, next } = patientTimeline(patientId, null);
    expect(items.map((i) => [i.kind, i.title])).toEqual([
      ["surgery", "Artrodese L4-L5"],
      // Same instant: the appointment ranks before the document.
      ["appointment", "Retorno"],
      ["document", "ressonancia.pdf"],
      ["message", "Lembrete"],
      ["task", "Pedir exames"],
      ["appointment", "Primeira consulta"],
    ]);
    expect(items[0].state).toBe("opme_cotacao");
    expect(next).toBeNull();
  });

  it("pages through the timeline with a cursor, without gaps or repeats", () => {
    const seen: string[] = [];
    let cursor = null;
    for (let guard = 0; guard < 10; guard++) {
      const page = patientTimeline(patientId, cursor, 2);
      seen.push(...page.items.map((i) => `${i.kind}:${i.id}`));
      if (!page.next) break;
      cursor = parseTimelineCursor(page.next);
    }
    expect(seen).toEqual(patientTimeline(patientId, null).items.map((i) => `${i.kind}:${i.id}`));
  });

  it("reads each table through its (patient, time) index, without sorting a table", () => {
    const rows = sqlite.prepare(`explain query plan ${TIMELINE_SQL}`).all({ patient: 1, at: 1, rank: 1, id: 1, limit: 26 }) as {
      id: number;
      parent: number;
      detail: string;
    }[];
    const plan = rows.map((r) => r.detail).join("\n");
    for (const index of [
      "appointments_patient_start_idx",
      "surgeries_patient_date_idx",
      "messages_patient_created_idx",
      "tasks_patient_created_idx",
      "documents_patient_created_idx",
    ]) {
      expect(plan).toContain(index);
    }
    expect(plan).not.toMatch(/SCAN (appointments|surgeries|messages|tasks|documents|a|s|m|t|f)\b/);
    // Inside each branch the rows come in index order (no sort); only the branches' short,
    // LIMITed results are sorted for the merge.
    const coroutines = new Set(rows.filter((r) => r.detail.startsWith("CO-ROUTINE")).map((r) => r.id));
    expect(coroutines.size).toBe(5);
    const sorts = rows.filter((r) => r.detail.includes("TEMP B-TREE"));
    expect(sorts.every((r) => !coroutines.has(r.parent))).toBe(true);
  });

  it("read for some kinds only, gives the full timeline's events of those kinds", () => {
    const all = patientTimeline(patientId, null).items;
    for (const kinds of [["appointment"], ["surgery", "task"], ["message", "document", "appointment"]] as TimelineKind[][]) {
      expect(patientTimeline(patientId, null, 25, kinds).items).toEqual(all.filter((item) => kinds.includes(item.kind)));
    }
    expect(patientTimeline(patientId, null, 25, [])).toEqual({ items: [], next: null });
  });

  it("ignores a malformed cursor", () => {
    for (const raw of ["", "abc", "1.2", "1.2.3.4", "9".repeat(40), "1.2.-3"]) expect(parseTimelineCursor(raw)).toBeNull();
    expect(parseTimelineCursor("1767225600000.5.42")).toEqual([1767225600000, 5, 42]);
  });
});

describe("/patients/:id", () => {
  const views = () =>
    db.select().from(auditLog).where(and(eq(auditLog.action, "view"), eq(auditLog.entity, "patient"), eq(auditLog.entityId, String(patientId)))).all();

  it("shows the record and writes exactly one audit entry per view", async () => {
    const before = views().length;
    const data = await loader(routeArgs(getRequest(`/patients/${patientId}`, { cookie: admin.cookie }), { id: String(patientId) }));
    expect(data.patient.name).toBe("Helena Prontuário");
    expect(data.patient.insuranceCardNumber).toBe("0 123 456789 00-1");
    expect(data.counts).toEqual({ appointment: 2, surgery: 1, message: 1, task: 1, document: 1 });
    // The timeline's events go to the browser as their JSON, made once with the kept view.
    expect(data.timeline.items).toHaveLength(6);
    expect((data.timeline.items as unknown as Record<symbol, unknown>)[Symbol.for("sinapse.sentAsJson")]).toBe(JSON.stringify(data.timeline.items));
    const after = views();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)?.userId).toBe(admin.id);
  });

  it("answers 404 for a missing or malformed id, and 403 to an account without a role", async () => {
    for (const id of ["999999", "abc", "-1"]) {
      const response = await thrownResponse(loader(routeArgs(getRequest(`/patients/${id}`, { cookie: admin.cookie }), { id })));
      expect(response.status).toBe(404);
    }
    const pending = await loginAs(null);
    const before = views().length;
    const refused = await thrownResponse(loader(routeArgs(getRequest(`/patients/${patientId}`, { cookie: pending.cookie }), { id: String(patientId) })));
    expect(statusOf(refused)).toBe(403);
    expect(views().length).toBe(before);
  });

  it("keeps what the page reads until the next write, and shows that write on the next view", async () => {
    const view = () => loader(routeArgs(getRequest(`/patients/${otherId}`, { cookie: admin.cookie }), { id: String(otherId) }));
    const first = await view();
    // Between writes (the view's own audit entry is not one) the same rows are handed out.
    const again = await view();
    expect(again.timeline).toBe(first.timeline);
    expect(again.consents).toBe(first.consents);
    expect(first.timeline.items.map((i) => i.title)).toEqual(["De outro"]);

    db.insert(tasks).values({ patientId: otherId, title: "Ligar para o paciente", createdAt: at("2026-05-01T10:00:00Z") }).run();
    const afterTask = await view();
    expect(afterTask.timeline.items.map((i) => i.title)).toEqual(["Ligar para o paciente", "De outro"]);
    expect(afterTask.counts.task).toBe(1);

    recordConsent(admin.id, otherId, { purpose: "uso_imagem", granted: "sim", source: "formulario" });
    const afterConsent = await view();
    expect(afterConsent.consents.find((c) => c.purpose === "uso_imagem")?.current?.granted).toBe(true);

    db.update(patients).set({ name: "Outro Paciente Renomeado" }).where(eq(patients.id, otherId)).run();
    expect((await view()).patient.name).toBe("Outro Paciente Renomeado");
  });

  it("lets a doctor and staff read the record", async () => {
    for (const role of ["doctor", "staff"] as const) {
      const user = await loginAs(role);
      const data = await loader(routeArgs(getRequest(`/patients/${patientId}`, { cookie: user.cookie }), { id: String(patientId) }));
      expect(data.timeline.items.length).toBe(6);
      expect(data.actions.edit).toBe(role === "staff");
    }
  });
});
