/**
 * CSV export of the lists: exactly the screen's search and filters, Brazilian Excel format, streamed
 * from a read-only connection, admins only, recorded in the audit log.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, auditLog, patients, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { patientSearchText } from "~/models/patient.server";
import { loader as appointmentsExport } from "~/routes/export/appointments";
import { loader as doctorsExport } from "~/routes/export/doctors";
import { loader as patientsExport } from "~/routes/export/patients";
import { loader as surgeriesExport } from "~/routes/export/surgeries";
import { type SignedIn, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, thrownResponse } from "../support/fixtures";

let admin: SignedIn;
let staff: SignedIn;
let doctorId: number;
beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorId = insertDoctor("Dra. Exporta Silva", { commissionRate: 0.125 });
  insertPatient("Ângela Exporta", { cpf: "52998224725", phone: "11987654321", email: "angela@exemplo.com.br" });
  insertPatient("=HYPERLINK(\"x\") Exporta");
  insertPatient("Bruno Outro");
});

async function download(loader: (args: never) => Promise<unknown>, path: string, cookie = admin.cookie) {
  const response = (await loader(routeArgs(getRequest(path, { cookie })))) as Response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}

describe("CSV export", () => {
  it("exports exactly the list's search, with BOM, ';', CRLF and formula guard, as an attachment", async () => {
    const { response, bytes, text } = await download(patientsExport, "/patients/export.csv?q=exporta&sort=name&dir=asc");
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="pacientes-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = text.slice(1).split("\r\n");
    expect(lines[0]).toBe("Nome;CPF;Data de nascimento;Telefone;E-mail;Convênio;Endereço;Aceita WhatsApp;Cadastrado em");
    expect(lines).toHaveLength(4); // header, two matches, the empty string after the last CRLF
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(""x""\) Exporta";;;;;;;Não;\d{2}\/\d{2}\/\d{4}$/);
    expect(lines[2]).toMatch(/^Ângela Exporta;529\.982\.247-25;;\(11\) 98765-4321;angela@exemplo\.com\.br;;;Não;/);
    expect(text).not.toContain("Bruno Outro");
  });

  it("writes numbers with a decimal comma so Excel can add them", async () => {
    const { text } = await download(doctorsExport, "/doctors/export.csv?q=exporta");
    expect(text).toContain("Dra. Exporta Silva;Neurocirurgia;123456;;;;12,5;Ativo\r\n");
  });

  it("applies the list's filters and shows dates in São Paulo time", async () => {
    const patientId = insertPatient("Paciente Filtro Exporta");
    const at = (iso: string) => new Date(iso);
    db.insert(appointments)
      .values([
        { patientId, doctorId, startTime: at("2030-01-10T12:00:00Z"), endTime: at("2030-01-10T12:30:00Z"), type: "Retorno", status: "confirmed" },
        { patientId, doctorId, startTime: at("2030-01-11T12:00:00Z"), endTime: at("2030-01-11T12:30:00Z"), type: "Primeira consulta", status: "cancelled" },
      ])
      .run();
    const { text } = await download(appointmentsExport, `/appointments/export.csv?q=filtro&status=confirmed&doctor=${doctorId}`);
    const lines = text.slice(1).trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("10/01/2030;09:00;09:30;Paciente Filtro Exporta;Dra. Exporta Silva;Retorno;;Confirmada;");

    db.insert(surgeries)
      .values({ patientId, doctorId, surgeryType: "Artrodese", scheduledDate: at("2030-02-01T11:00:00Z"), billedAmountCents: 1234567, currentStage: "aprovado", status: "scheduled" })
      .run();
    const surgeriesCsv = await download(surgeriesExport, "/surgeries/export.csv?q=filtro&stage=aprovado");
    expect(surgeriesCsv.text).toContain("01/02/2030 08:00;Paciente Filtro Exporta;Dra. Exporta Silva;Artrodese;Agendada;");
    expect(surgeriesCsv.text).toContain(";12345,67\r\n");
    const none = await download(surgeriesExport, "/surgeries/export.csv?q=filtro&stage=negado");
    expect(none.text.slice(1).trim().split("\r\n")).toHaveLength(1);
  });

  it("is for admins only, and every export is in the audit log with its criteria", async () => {
    const refused = await thrownResponse(patientsExport(routeArgs(getRequest("/patients/export.csv", { cookie: staff.cookie }))));
    expect(refused.status).toBe(403);
    await download(patientsExport, "/patients/export.csv?q=bruno");
    const entry = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "export"), eq(auditLog.entity, "patient")))
      .all()
      .at(-1);
    expect(entry?.userId).toBe(admin.id);
    expect(entry?.changes).toMatchObject({ format: "csv", q: "bruno", sort: "name", dir: "asc" });
  });

  it("streams a large export in batches while the server keeps answering", { timeout: 60_000 }, async () => {
    const insert = sqlite.prepare("insert into patients (name, search_text) values (?, ?)");
    sqlite.transaction(() => {
      for (let i = 0; i < 20_000; i += 1) {
        const name = `Paciente Volume ${String(i).padStart(5, "0")}`;
        insert.run(name, patientSearchText({ name, cpf: null, email: null, phone: null }));
      }
    })();
    const response = (await patientsExport(routeArgs(getRequest("/patients/export.csv?q=volume", { cookie: admin.cookie })))) as Response;
    const reader = response.body!.getReader();
    let chunks = 0;
    let lines = 0;
    let otherRequestsServed = 0;
    const ticker = setInterval(() => {
      otherRequestsServed += 1;
    }, 0);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks += 1;
      for (const byte of value) if (byte === 0x0a) lines += 1;
    }
    clearInterval(ticker);
    expect(lines).toBe(20_001);
    expect(chunks).toBeGreaterThan(20);
    expect(otherRequestsServed).toBeGreaterThan(5);
    // The main connection stays usable during and after the export.
    expect(db.select().from(patients).where(eq(patients.name, "Bruno Outro")).get()).toBeTruthy();
  });
});
