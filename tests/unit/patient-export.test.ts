/**
 * The LGPD export (docs/decisions/0022-lgpd-rights.md): the ZIP holds every record of the patient
 * and nothing of anyone else, the stored files verified, a readable summary, an audit entry.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import yauzl from "yauzl";
import { beforeAll, describe, expect, it } from "vitest";
import { sqlite } from "~/.server/db";
import { EXPORT_QUERIES } from "~/.server/lgpd-export";
import { documentsDir, newStorageName } from "~/.server/uploads";
import { loader as exportLoader } from "~/routes/patient-export";
import { formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";

let admin: Awaited<ReturnType<typeof loginAs>>;
let staff: Awaited<ReturnType<typeof loginAs>>;

const insert = (sql: string, ...args: unknown[]) => (sqlite.prepare(`${sql} returning id`).get(...args) as { id: number }).id;

/** A patient with one row in every table the export reads; `fileBytes` is the stored document's content. */
function patientWithEverything(name: string, cpf: string, fileBytes: Buffer) {
  const patientId = insertPatient(name, { cpf, phone: "11987650001", email: `${cpf}@exemplo.com`, medicalHistory: `Histórico de ${name}`, whatsappOptIn: true });
  const doctorId = insertDoctor(`Dr. de ${name}`);
  const ids: Record<string, number> = { patient: patientId };
  ids.appointment = insert("insert into appointments (patient_id, doctor_id, start_time, end_time, type, notes) values (?, ?, 1000, 2000, 'Consulta', ?)", patientId, doctorId, `Nota de ${name}`);
  ids.surgery = insert(
    "insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, billed_amount_cents, guide_number) values (?, ?, ?, 5000, 1234500, ?)",
    patientId, doctorId, `Artrodese de ${name}`, `G-${cpf}`,
  );
  ids.stage = insert("insert into pipeline_stages (surgery_id, stage) values (?, 'opme_cotacao')", ids.surgery);
  ids.transaction = insert(
    "insert into financial_transactions (type, amount_cents, category, transaction_date, surgery_id, description) values ('receita', 1234500, 'cirurgia', '2026-01-10', ?, ?)",
    ids.surgery, `Recebimento ${name}`,
  );
  ids.message = insert("insert into messages (patient_id, patient_name, body) values (?, ?, ?)", patientId, name, `Olá ${name}`);
  ids.task = insert("insert into tasks (patient_id, title) values (?, ?)", patientId, `Ligar para ${name}`);
  ids.subtask = insert("insert into subtasks (task_id, title) values (?, 'Confirmar exames')", ids.task);
  ids.order = insert("insert into orders (patient_id, order_type) values (?, 'opme')", patientId);
  ids.consent = insert("insert into patient_consents (patient_id, purpose, granted, source) values (?, 'pesquisa', 1, 'formulario')", patientId);
  const storageName = newStorageName();
  fs.mkdirSync(documentsDir, { recursive: true });
  fs.writeFileSync(path.join(documentsDir, storageName), fileBytes);
  ids.document = insert(
    "insert into documents (patient_id, category, original_name, mime_type, size_bytes, sha256, storage_name) values (?, 'laudo', ?, 'application/pdf', ?, ?, ?)",
    patientId, `laudo ${name}.pdf`, fileBytes.length, createHash("sha256").update(fileBytes).digest("hex"), storageName,
  );
  return ids;
}

async function unzip(response: Response): Promise<Map<string, Buffer>> {
  const buffer = Buffer.from(await response.arrayBuffer());
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(entries));
      zip.readEntry();
    });
  });
}

let mine: Record<string, number>;
let theirs: Record<string, number>;
const myFile = randomBytes(300_000);

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  mine = patientWithEverything("Beatriz Exportada", "52998224725", myFile);
  theirs = patientWithEverything("Carlos Alheio", "11144477735", randomBytes(1000));
});

describe("the LGPD export ZIP", () => {
  it("holds every record of the patient, the stored file, a readable summary, and nothing of others", async () => {
    const response = await exportLoader(routeArgs(getRequest(`/patients/${mine.patient}/export.zip`, { cookie: admin.cookie }), { id: String(mine.patient) }));
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="paciente-\d+-dados\.zip"$/);
    const entries = await unzip(response);
    const docName = `documentos/${mine.document}-laudo Beatriz Exportada.pdf`;
    expect([...entries.keys()].sort()).toEqual([docName, "paciente.json", "resumo.html"].sort());
    expect(entries.get(docName)!.equals(myFile)).toBe(true);

    const json = JSON.parse(entries.get("paciente.json")!.toString("utf8")) as Record<string, { id: number }[]>;
    const idsOf = (section: string) => json[section].map((row) => row.id);
    expect(idsOf("paciente")).toEqual([mine.patient]);
    expect(idsOf("consultas")).toEqual([mine.appointment]);
    expect(idsOf("cirurgias")).toEqual([mine.surgery]);
    expect(idsOf("etapas_cirurgia")).toEqual([mine.stage]);
    expect(idsOf("lancamentos_financeiros")).toEqual([mine.transaction]);
    expect(idsOf("mensagens")).toEqual([mine.message]);
    expect(idsOf("tarefas")).toEqual([mine.task]);
    expect(idsOf("subtarefas")).toEqual([mine.subtask]);
    expect(idsOf("pedidos")).toEqual([mine.order]);
    expect(idsOf("documentos")).toEqual([mine.document]);
    expect(json.consentimentos).toHaveLength(1);
    expect(json.consentimentos_whatsapp).toHaveLength(1);
    expect(json.cirurgias[0]).toMatchObject({ billed_amount_cents: 1234500, guide_number: "G-52998224725" });
    expect(json.paciente[0]).not.toHaveProperty("search_text");
    expect(json.documentos[0]).not.toHaveProperty("storage_name");

    const html = entries.get("resumo.html")!.toString("utf8");
    expect(html).toContain("Dados pessoais de Beatriz Exportada");
    expect(html).toContain("Artrodese de Beatriz Exportada");
    expect(html).toContain("R$ 12.345,00");
    expect(html).not.toContain("<script");
    // Nothing of the other patient anywhere in the text.
    for (const text of [html, entries.get("paciente.json")!.toString("utf8")]) {
      expect(text).not.toContain("Carlos Alheio");
      expect(text).not.toContain("11144477735");
    }

    const audit = sqlite
      .prepare("select user_id as userId, changes from audit_log where action = 'export' and entity = 'patient' and entity_id = ?")
      .all(String(mine.patient)) as { userId: number; changes: string }[];
    expect(audit).toHaveLength(1);
    expect(audit[0].userId).toBe(admin.id);
    expect(JSON.parse(audit[0].changes)).toMatchObject({ lgpd: true, counts: { consultas: 1, documentos: 1 } });
  });

  it("lists an altered stored file instead of sending it", async () => {
    const doc = sqlite.prepare("select storage_name as name from documents where id = ?").get(theirs.document) as { name: string };
    fs.writeFileSync(path.join(documentsDir, doc.name), randomBytes(1000));
    const response = await exportLoader(routeArgs(getRequest(`/patients/${theirs.patient}/export.zip`, { cookie: admin.cookie }), { id: String(theirs.patient) }));
    const entries = await unzip(response);
    expect([...entries.keys()].sort()).toEqual(["paciente.json", "resumo.html"]);
    expect(entries.get("resumo.html")!.toString("utf8")).toContain("arquivo alterado no servidor (não incluído)");
  });

  it("is for admins only, and 404 for an unknown patient", async () => {
    const refused = await thrownResponse(exportLoader(routeArgs(getRequest(`/patients/${mine.patient}/export.zip`, { cookie: staff.cookie }), { id: String(mine.patient) })));
    expect(refused.status).toBe(403);
    const missing = await thrownResponse(exportLoader(routeArgs(getRequest("/patients/999999/export.zip", { cookie: admin.cookie }), { id: "999999" })));
    expect(missing.status).toBe(404);
  });

  it("reads each section through an index, never scanning a table", () => {
    for (const [section, query] of Object.entries(EXPORT_QUERIES)) {
      const plan = (sqlite.prepare(`explain query plan ${query}`).all({ id: 1 }) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, section).not.toMatch(/\bSCAN (?!CONSTANT)/);
    }
  });
});

describe("anonymisation", () => {
  it("keeps the surgeries and their money and removes name, CPF, contacts; search no longer finds the name", { timeout: 30_000 }, async () => {
    const { listPatients } = await import("~/models/patient.server");
    const { parseListState } = await import("~/lib/list-params");
    const { PATIENT_LIST } = await import("~/lib/lists");
    const ids = patientWithEverything("Daniela Apagada", "39053344705", randomBytes(100));
    sqlite.prepare("update patients set date_of_birth = '1980-07-15', address = 'Rua A, 1', insurance = 'Unimed', insurance_card_number = '123' where id = ?").run(ids.patient);
    sqlite.prepare("update tasks set description = 'Ligar para daniela apagada amanhã' where id = ?").run(ids.task);
    const before = sqlite.prepare("select * from surgeries where patient_id = ?").all(ids.patient);
    const money = sqlite.prepare("select * from financial_transactions where surgery_id = ?").all(ids.surgery);
    const search = (q: string) => listPatients(parseListState(new URL(`http://x/patients?q=${encodeURIComponent(q)}`), PATIENT_LIST)).rows.map((r) => r.id);
    expect(search("Daniela Apagada")).toContain(ids.patient);

    const { action } = await import("~/routes/patient");
    const post = (fields: Record<string, string>, cookie: string) =>
      action(routeArgs(formRequest(`/patients/${ids.patient}`, { intent: "anonymise", ...fields }, { cookie }), { id: String(ids.patient) }));
    // Unconfirmed: 400 and nothing changed; staff: 403.
    expect(statusOf(await post({}, admin.cookie))).toBe(400);
    expect((await thrownResponse(post({ confirm: "sim" }, staff.cookie))).status).toBe(403);
    expect((sqlite.prepare("select name from patients where id = ?").get(ids.patient) as { name: string }).name).toBe("Daniela Apagada");

    expect(statusOf(await post({ confirm: "sim" }, admin.cookie))).toBe(302);
    const patient = sqlite.prepare("select * from patients where id = ?").get(ids.patient) as Record<string, unknown>;
    expect(patient).toMatchObject({
      name: `Paciente anonimizado nº ${ids.patient}`,
      cpf: null,
      phone: null,
      email: null,
      address: null,
      insurance_card_number: null,
      date_of_birth: "1980-01-01",
      whatsapp_opt_in: 0,
      insurance: "Unimed",
      medical_history: "Histórico de Daniela Apagada",
    });
    expect(patient.anonymized_at).toBeTypeOf("number");
    // Clinical and financial records untouched.
    expect(sqlite.prepare("select * from surgeries where patient_id = ?").all(ids.patient)).toEqual(before);
    expect(sqlite.prepare("select * from financial_transactions where surgery_id = ?").all(ids.surgery)).toEqual(money);
    expect(sqlite.prepare("select count(*) as n from appointments where patient_id = ?").get(ids.patient)).toEqual({ n: 1 });
    // Copies of the identifiers elsewhere.
    expect(sqlite.prepare("select patient_name, to_phone, body from messages where patient_id = ?").get(ids.patient)).toEqual({
      patient_name: `Paciente anonimizado nº ${ids.patient}`,
      to_phone: null,
      body: "[conteúdo removido na anonimização]",
    });
    expect(sqlite.prepare("select title, description from tasks where id = ?").get(ids.task)).toEqual({
      title: `Ligar para Paciente anonimizado nº ${ids.patient}`,
      description: `Ligar para Paciente anonimizado nº ${ids.patient} amanhã`,
    });
    expect(sqlite.prepare("select original_name from documents where id = ?").get(ids.document)).toEqual({ original_name: `documento-${ids.document}.pdf` });
    // The search index follows: the name and CPF find nothing, the pseudonym finds the record.
    expect(search("Daniela")).not.toContain(ids.patient);
    expect(search("39053344705")).not.toContain(ids.patient);
    expect(search(`anonimizado nº ${ids.patient}`)).toContain(ids.patient);
    // The trail names the fields, never the values; a second request is refused.
    const entry = sqlite
      .prepare("select changes from audit_log where entity = 'patient' and entity_id = ? and action = 'update' order by id desc limit 1")
      .get(String(ids.patient)) as { changes: string };
    expect(entry.changes).toContain("anonymizedAt");
    expect(entry.changes).not.toContain("Daniela");
    const again = await post({ confirm: "sim" }, admin.cookie);
    expect(statusOf(again)).toBe(400);
    expect(JSON.stringify(again)).toContain("já foi anonimizado");
    // Nor can the patients dialog type the identifiers back in.
    const { updatePatient } = await import("~/models/patient.server");
    expect(() => updatePatient(admin.id, ids.patient, { name: "Daniela Apagada", cpf: "39053344705" } as Parameters<typeof updatePatient>[2])).toThrow(
      /foi anonimizado/,
    );
    expect((sqlite.prepare("select name from patients where id = ?").get(ids.patient) as { name: string }).name).toBe(`Paciente anonimizado nº ${ids.patient}`);
  });

  it("leaves the hard delete refused for a patient with clinical history", async () => {
    const { deletePatient } = await import("~/models/patient.server");
    expect(() => deletePatient(admin.id, mine.patient)).toThrow(/Não é possível excluir/);
  });
});
