/**
 * CSV export of the lists: exactly the screen's search and filters, Brazilian Excel format, streamed
 * from a read-only connection in a worker thread, admins only, recorded in the audit log.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, auditLog, patients, surgeries } from "~db/schema";
import { databasePath, db, sqlite } from "~/.server/db";
import { exportRows, runInWorker } from "~/.server/export-rows";
import { PAGE_CACHE_KIB, STREAM_PAGE_CACHE_KIB } from "~/.server/page-cache";
import { patientSearchText } from "~/models/patient.server";
import { loader as appointmentsExport } from "~/routes/export/appointments";
import { loader as doctorsExport } from "~/routes/export/doctors";
import { loader as patientsExport } from "~/routes/export/patients";
import { loader as surgeriesExport } from "~/routes/export/surgeries";
import { timersDuring } from "../support/event-loop";
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

  it("reads the rows in a worker, so a search that SQLite passes over row by row holds up no request", { timeout: 60_000 }, async () => {
    // A word no appointment holds, among 40 000 of them: each row is tested in turn (rowSearch),
    // and the first step of the query returns only after the last row. Read in the server's own
    // thread, that step held it from the first row to the last.
    const patientId = insertPatient("Paciente Agenda Longa");
    const insert = sqlite.prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, type, location) values (?, ?, ?, ?, 'Consulta', 'Sala 1')");
    sqlite.transaction(() => {
      for (let i = 0; i < 40_000; i += 1) insert.run(patientId, doctorId, 1_600_000_000_000 + i * 60_000, 1_600_000_000_000 + i * 60_000 + 30_000);
    })();
    const {
      value: { text },
      ticks,
      longestGap,
      took,
    } = await timersDuring(() => download(appointmentsExport, "/appointments/export.csv?q=inexistentezq"));
    expect(text.slice(1).trim().split("\r\n")).toHaveLength(1);
    // The timers kept running all along: no gap near the length of the scan.
    expect(ticks).toBeGreaterThan(10);
    expect(longestGap).toBeLessThan(took / 2);
  });
});

describe("exportRows (the export's query in a worker)", () => {
  it("gives every row in order, in batches, then null; a bad query's error; and gives up when no rows are asked for", { timeout: 60_000 }, async () => {
    const numbers = "with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000) select i from n";
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    const rows = exportRows(databasePath, numbers, []);
    const read: number[] = [];
    let batches = 0;
    for (let batch = await rows.next(); batch; batch = await rows.next()) {
      batches += 1;
      read.push(...batch.map(([id]) => id as number));
    }
    expect(read).toEqual(ids);
    expect(batches).toBeGreaterThan(1);
    expect(await rows.next()).toBeNull();

    const bad = exportRows(databasePath, "select nonexistent from patients", []);
    await expect(bad.next()).rejects.toThrow(/no such column: nonexistent/);
    await bad.ended;

    // Closed while it passes over rows that never match: it ends once that batch is done.
    const cancelled = exportRows(databasePath, "with recursive n(i) as (select 1 union all select i + 1 from n where i < 300000) select i from n where i < 0", []);
    const pending = cancelled.next();
    cancelled.close();
    await cancelled.ended;
    await expect(pending).resolves.toBeNull();

    const abandoned = exportRows(databasePath, numbers, [], { idleMs: 50 });
    expect(await abandoned.next()).toHaveLength(256);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(abandoned.next()).rejects.toThrow(/export closed/);
    await abandoned.ended;
  });

  it("keeps the page caches small: the server's connection's, and an export's (a read from start to end)", async () => {
    // better-sqlite3 builds SQLite with 16 MB per connection (app/.server/page-cache.ts).
    expect(sqlite.pragma("cache_size", { simple: true })).toBe(-PAGE_CACHE_KIB);
    expect(await runInWorker(databasePath, "PRAGMA cache_size")).toEqual([[-STREAM_PAGE_CACHE_KIB]]);
  });
});
