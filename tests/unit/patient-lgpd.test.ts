/**
 * The patient's LGPD rights and their neighbours (issue 16): the upload limit in Configurações,
 * the communication centre's send dialog opened from the record, consents, the access report,
 * the export ZIP and anonymisation.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sqlite } from "~/.server/db";
import { action as settingsAction } from "~/routes/settings";
import { loader as communicationLoader } from "~/routes/communication";
import { formRequest, getRequest, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";

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
