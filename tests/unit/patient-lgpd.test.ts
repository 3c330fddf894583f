/**
 * The patient's LGPD rights and their neighbours (issue 16): the upload limit in Configurações,
 * the communication centre's send dialog opened from the record, consents, the access report,
 * the export ZIP and anonymisation.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sqlite } from "~/.server/db";
import { ACCESS_SQL, patientAccessReport } from "~/.server/lgpd-access";
import { consentHistory, patientConsentStates, recordConsent } from "~/.server/lgpd-consents";
import { action as patientAction, loader as patientLoader } from "~/routes/patient";
import { loader as accessLoader } from "~/routes/patient-access";
import { action as settingsAction } from "~/routes/settings";
import { loader as communicationLoader } from "~/routes/communication";
import { formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";

let admin: Awaited<ReturnType<typeof loginAs>>;
let staff: Awaited<ReturnType<typeof loginAs>>;
let doctor: Awaited<ReturnType<typeof loginAs>>;

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctor = await loginAs("doctor");
});

const uploadLimit = () => (sqlite.prepare("select upload_max_mb as mb from clinic_settings where id = 1").get() as { mb: number }).mb;

describe("the upload limit in Configurações → Geral", () => {
  it("is saved within 1–200 MB and refused outside with a field message", async () => {
    const save = (uploadMaxMb: string, cookie = admin.cookie) =>
      settingsAction(routeArgs(formRequest("/settings", { intent: "update-general", clinicName: "Clínica Teste", uploadMaxMb }, { cookie })));
    for (const bad of ["0", "201", "abc", "1.5", ""]) {
      const refused = await save(bad);
      expect(statusOf(refused), bad).toBe(400);
      expect(JSON.stringify(refused), bad).toMatch(/O mínimo é 1 MB|O máximo é 200 MB|Informe um número|Use um número inteiro/);
    }
    expect(uploadLimit()).toBe(20);
    expect(statusOf(await save("35"))).toBe(302);
    expect(uploadLimit()).toBe(35);
    const refusedStaff = await thrownResponse(save("50", staff.cookie));
    expect(refusedStaff.status).toBe(403);
    expect(uploadLimit()).toBe(35);
    const entry = sqlite
      .prepare("select changes from audit_log where entity = 'clinic_settings' order by id desc limit 1")
      .get() as { changes: string };
    expect(JSON.parse(entry.changes)).toMatchObject({ uploadMaxMb: [20, 35] });
  });
});

describe("/comunicacao?dialog=send&patientId=N", () => {
  it("opens the send dialog with the patient chosen, for those who may send", async () => {
    const patientId = insertPatient("Marina Envio", { phone: "11987650000", whatsappOptIn: true });
    const data = (await communicationLoader(
      routeArgs(getRequest(`/comunicacao?dialog=send&patientId=${patientId}`, { cookie: staff.cookie })),
    )) as { sendDialog: { draft: { patientId: number }; name: string; patientOptions: { id: number; label: string }[] } | null };
    expect(data.sendDialog?.draft.patientId).toBe(patientId);
    expect(data.sendDialog?.name).toBe("Marina Envio");
    expect(data.sendDialog?.patientOptions.map((o) => o.id)).toContain(patientId);

    const plain = (await communicationLoader(routeArgs(getRequest("/comunicacao", { cookie: staff.cookie })))) as { sendDialog: unknown };
    expect(plain.sendDialog).toBeNull();
    const refused = await thrownResponse(
      communicationLoader(routeArgs(getRequest(`/comunicacao?dialog=send&patientId=${patientId}`, { cookie: doctor.cookie }))),
    );
    expect(refused.status).toBe(403);
  });
});

describe("consents", () => {
  const stateOf = (patientId: number, purpose: string) => patientConsentStates(patientId).find((c) => c.purpose === purpose)?.current ?? null;

  it("logs every decision of a purpose as a new row; the latest is the state, the history is never rewritten", async () => {
    const patientId = insertPatient("Consentimento Imagem");
    expect(stateOf(patientId, "uso_imagem")).toBeNull();
    const post = (fields: Record<string, string>, cookie = staff.cookie) =>
      patientAction(routeArgs(formRequest(`/patients/${patientId}`, { intent: "record-consent", ...fields }, { cookie }), { id: String(patientId) }));
    expect(statusOf(await post({ purpose: "uso_imagem", granted: "sim", source: "formulario" }))).toBe(302);
    expect(statusOf(await post({ purpose: "uso_imagem", granted: "nao", source: "verbal" }))).toBe(302);
    expect(stateOf(patientId, "uso_imagem")).toMatchObject({ granted: false, source: "verbal" });
    expect(consentHistory(patientId, "uso_imagem").map((e) => [e.granted, e.source])).toEqual([
      [false, "verbal"],
      [true, "formulario"],
    ]);
    expect(() => sqlite.prepare("update patient_consents set granted = 1 where patient_id = ?").run(patientId)).toThrow(/append-only/);

    // Bad input: 400 with the field's message, nothing written; a doctor may not record (403).
    const refused = await post({ purpose: "astrologia", granted: "sim", source: "formulario" });
    expect(statusOf(refused)).toBe(400);
    expect(JSON.stringify(refused)).toContain("Escolha a finalidade");
    expect((await thrownResponse(post({ purpose: "pesquisa", granted: "sim", source: "formulario" }, doctor.cookie))).status).toBe(403);
    expect(stateOf(patientId, "pesquisa")).toBeNull();
    const audit = sqlite
      .prepare("select changes from audit_log where entity = 'patient_consent' and entity_id = ? and action = 'update' order by id")
      .all(String(patientId)) as { changes: string }[];
    expect(audit.map((a) => JSON.parse(a.changes))).toEqual([
      { consent: ["uso_imagem", "autorizado", "formulario"] },
      { consent: ["uso_imagem", "revogado", "verbal"] },
    ]);
  });

  it("records WhatsApp through the messaging's own opt-in, with the source, and a confirmation as a row of its own", () => {
    const patientId = insertPatient("Consentimento WhatsApp", { phone: "11912345678" });
    recordConsent(staff.id, patientId, { purpose: "whatsapp", granted: "sim", source: "verbal" });
    const optIn = () => (sqlite.prepare("select whatsapp_opt_in as v from patients where id = ?").get(patientId) as { v: number }).v;
    expect(optIn()).toBe(1);
    recordConsent(staff.id, patientId, { purpose: "whatsapp", granted: "sim", source: "formulario" });
    expect(consentHistory(patientId, "whatsapp").map((e) => [e.granted, e.source])).toEqual([
      [true, "formulario"],
      [true, "verbal"],
    ]);
    recordConsent(admin.id, patientId, { purpose: "whatsapp", granted: "nao", source: "paciente_whatsapp" });
    expect(optIn()).toBe(0);
    expect(stateOf(patientId, "whatsapp")).toMatchObject({ granted: false, source: "paciente_whatsapp" });
    expect(consentHistory(patientId, "whatsapp")).toHaveLength(3);
  });

  it("opens the consent dialog from the URL for admins and staff only", async () => {
    const patientId = insertPatient("Consentimento Diálogo");
    const load = (query: string, cookie: string) =>
      patientLoader(routeArgs(getRequest(`/patients/${patientId}${query}`, { cookie }), { id: String(patientId) }));
    const data = (await load("?consentimento=pesquisa", staff.cookie)) as { consentDialog: { purpose: string } | null; consents: unknown[] };
    expect(data.consentDialog?.purpose).toBe("pesquisa");
    expect(data.consents).toHaveLength(4);
    expect((await thrownResponse(load("?consentimento=pesquisa", doctor.cookie))).status).toBe(403);
    expect((await thrownResponse(load("?consentimento=xyz", staff.cookie))).status).toBe(404);
  });
});

describe("the access report", () => {
  it("lists who saw or changed the patient and their records, newest first, paged, and nothing of others", async () => {
    const patientId = insertPatient("Relatório Acessos");
    const otherId = insertPatient("Outro Acessos");
    const doctorId = insertDoctor("Dr. Acessos");
    const appointmentId = Number(
      (sqlite
        .prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, type) values (?, ?, 1, 2, 'Consulta') returning id")
        .get(patientId, doctorId) as { id: number }).id,
    );
    const view = (id: number, cookie: string) => patientLoader(routeArgs(getRequest(`/patients/${id}`, { cookie }), { id: String(id) }));
    for (let i = 0; i < 30; i++) await view(patientId, staff.cookie);
    await view(otherId, staff.cookie);
    const { recordAudit } = await import("~/.server/audit");
    const { db } = await import("~/.server/db");
    recordAudit(db, { userId: doctor.id, action: "update", entity: "appointment", entityId: appointmentId, changes: { status: ["scheduled", "confirmed"] } });

    const first = patientAccessReport(patientId, null, 25);
    expect(first.entries).toHaveLength(25);
    expect(first.entries[0]).toMatchObject({ action: "update", entity: "appointment", entityId: String(appointmentId), userId: doctor.id });
    expect(first.entries.slice(1).every((e) => e.entity === "patient" && e.entityId === String(patientId) && e.action === "view")).toBe(true);
    const second = patientAccessReport(patientId, first.next, 25);
    expect(second.entries).toHaveLength(6);
    expect(second.next).toBeNull();
    const ids = [...first.entries, ...second.entries].map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect([...first.entries, ...second.entries].some((e) => e.entityId === String(otherId))).toBe(false);

    // The screen: admins only; opening it is itself recorded.
    const page = (await accessLoader(routeArgs(getRequest(`/patients/${patientId}/acessos`, { cookie: admin.cookie }), { id: String(patientId) }))) as {
      entries: { userName: string | null }[];
    };
    expect(page.entries[0].userName).toBeTruthy();
    expect(patientAccessReport(patientId, null, 1).entries[0]).toMatchObject({ action: "view", userId: admin.id });
    for (const person of [staff, doctor]) {
      const refused = await thrownResponse(accessLoader(routeArgs(getRequest(`/patients/${patientId}/acessos`, { cookie: person.cookie }), { id: String(patientId) })));
      expect(refused.status).toBe(403);
    }
  });

  it("reads the audit log through its (entity, entity_id) index, never scanning or sorting the trail", () => {
    const plan = (sqlite.prepare(`explain query plan ${ACCESS_SQL}`).all({ pid: "1", patientId: 1, before: 10, take: 26 }) as { detail: string }[])
      .map((r) => r.detail)
      .join("\n");
    expect(plan).toContain("audit_log_entity_idx");
    expect(plan).not.toMatch(/SCAN a\b|SCAN audit_log/);
  });
});
