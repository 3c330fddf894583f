import { and, eq } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, documents, patients, surgeries, tasks } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { documentsDir, sniff } from "~/.server/uploads";
import { listDocuments } from "~/models/document.server";
import { patientSearchText } from "~/models/patient.server";
import { action, loader } from "~/routes/files";
import { loader as download } from "~/routes/files.download";
import { BOUNDARY, type Part, countingStream, multipartBody, multipartRequest } from "../support/multipart";
import { capturePrepared, formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e3a45f0000000049454e44ae426082",
  "hex",
);
const HTML = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");

const uploadRequest = (cookie: string, body: Buffer | ReadableStream<Uint8Array>, { contentLength = true, query = "" } = {}) =>
  multipartRequest(`/files${query}`, cookie, body, { contentLength });

const fields = (patientId: number, extra: Record<string, string> = {}): Part[] => [
  { name: "patientId", value: String(patientId) },
  { name: "category", value: "laudo" },
  { name: "note", value: "Ressonância lombar" },
  ...Object.entries(extra).map(([name, value]) => ({ name, value })),
];

const documentsOf = (patientId: number) => db.select().from(documents).where(eq(documents.patientId, patientId)).all();
const tempFiles = () => (fs.existsSync(documentsDir) ? fs.readdirSync(documentsDir).filter((f) => f.startsWith(".upload-")) : []);

let admin: Awaited<ReturnType<typeof loginAs>>;
let staff: Awaited<ReturnType<typeof loginAs>>;
let doctor: Awaited<ReturnType<typeof loginAs>>;
let pending: Awaited<ReturnType<typeof loginAs>>;
let patientId: number;

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctor = await loginAs("doctor");
  pending = await loginAs(null);
  patientId = insertPatient("Paciente dos Arquivos");
});

describe("type by content", () => {
  it("recognises PDF and PNG by their bytes and refuses HTML whatever its name", async () => {
    expect(await sniff(PDF)).toBe("application/pdf");
    expect(await sniff(PNG)).toBe("image/png");
    expect(await sniff(HTML)).toBeNull();
    expect(await sniff(Buffer.from("MZ\x90\x00 not a document"))).toBeNull();
  });

  it("refuses an HTML page named .pdf and sent as application/pdf (415), keeping nothing", async () => {
    const body = multipartBody([
      ...fields(patientId),
      {
        name: "file",
        filename: "exame.pdf",
        type: "application/pdf",
        content: HTML,
      },
    ]);
    const result = await action(routeArgs(uploadRequest(staff.cookie, body)));
    expect(statusOf(result)).toBe(415);
    expect(JSON.stringify(result)).toContain("Apenas arquivos PDF ou imagens são permitidos");
    expect(documentsOf(patientId)).toHaveLength(0);
    expect(tempFiles()).toEqual([]);
  });
});

describe("upload", () => {
  it("keeps a PDF under an opaque name, mode 0600, with its checksum, atomically", async () => {
    const body = multipartBody([
      ...fields(patientId),
      {
        name: "file",
        filename: "../../etc/Laudo Ressonância.pdf",
        type: "text/html",
        content: PDF,
      },
    ]);
    const response = await action(routeArgs(uploadRequest(staff.cookie, body)));
    expect(statusOf(response)).toBe(302);
    const [doc] = documentsOf(patientId);
    expect(doc).toMatchObject({
      category: "laudo",
      note: "Ressonância lombar",
      mimeType: "application/pdf",
      sizeBytes: PDF.length,
      originalName: "Laudo Ressonância.pdf",
    });
    expect(doc.storageName).toMatch(/^[0-9a-f]{32}$/);
    const stored = path.join(documentsDir, doc.storageName);
    expect(fs.readFileSync(stored).equals(PDF)).toBe(true);
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
    expect(tempFiles()).toEqual([]);
    const audit = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "document"), eq(auditLog.entityId, String(doc.id))))
      .all();
    expect(audit.map((a) => a.action)).toEqual(["create"]);
  });

  it("refuses a body announced larger than the limit before reading a byte (413)", async () => {
    const { stream, counter } = countingStream(Buffer.alloc(0), 0);
    const request = uploadRequest(staff.cookie, stream);
    request.headers.set("Content-Length", String(21 * 1024 * 1024));
    const result = await action(routeArgs(request));
    expect(statusOf(result)).toBe(413);
    expect(counter.pulled).toBe(0);
  });

  it("cuts off a 21 MB file sent without a length at the 20 MB limit (413), while it streams", async () => {
    const prefix = Buffer.concat([
      multipartBody(fields(patientId)).subarray(0, -Buffer.byteLength(`--${BOUNDARY}--\r\n`)),
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="grande.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
      ),
    ]);
    const { stream, counter } = countingStream(prefix, 21 * 1024 * 1024);
    const before = documentsOf(patientId).length;
    const result = await action(routeArgs(uploadRequest(staff.cookie, stream, { contentLength: false })));
    expect(statusOf(result)).toBe(413);
    expect(JSON.stringify(result)).toContain("O arquivo passa do limite de 20 MB.");
    // It streamed up to the limit and stopped reading there instead of taking the whole body.
    expect(counter.pulled).toBeGreaterThan(20 * 1024 * 1024);
    expect(counter.pulled).toBeLessThan(20 * 1024 * 1024 + 2 * 1024 * 1024);
    expect(documentsOf(patientId)).toHaveLength(before);
    expect(tempFiles()).toEqual([]);
  });

  it("answers 400 with the field's message for a missing category, an unknown patient or a missing file, keeping nothing", async () => {
    const before = documentsOf(patientId).length;
    const noCategory = multipartBody([
      { name: "patientId", value: String(patientId) },
      {
        name: "file",
        filename: "a.pdf",
        type: "application/pdf",
        content: PDF,
      },
    ]);
    const r1 = await action(routeArgs(uploadRequest(staff.cookie, noCategory)));
    expect(statusOf(r1)).toBe(400);
    expect(JSON.stringify(r1)).toContain("Escolha a categoria do documento");
    const unknown = multipartBody([
      ...fields(999_999),
      {
        name: "file",
        filename: "a.pdf",
        type: "application/pdf",
        content: PDF,
      },
    ]);
    const r2 = await action(routeArgs(uploadRequest(staff.cookie, unknown)));
    expect(statusOf(r2)).toBe(400);
    expect(JSON.stringify(r2)).toContain("Paciente não encontrado");
    const r3 = await action(routeArgs(uploadRequest(staff.cookie, multipartBody(fields(patientId)))));
    expect(statusOf(r3)).toBe(400);
    expect(documentsOf(patientId)).toHaveLength(before);
    expect(tempFiles()).toEqual([]);
    expect(fs.readdirSync(documentsDir).length).toBe(before);
  });

  it("checks the right to upload before reading the body: a doctor and an account without a role get 403", async () => {
    for (const user of [doctor, pending]) {
      const { stream, counter } = countingStream(Buffer.from("x"), 1024);
      const refused = await thrownResponse(action(routeArgs(uploadRequest(user.cookie, stream, { contentLength: false }))));
      expect(refused.status).toBe(403);
      expect(counter.pulled).toBe(0);
    }
  });
});

describe("download", () => {
  const firstDocument = () => documentsOf(patientId)[0];
  const get = (cookie: string, id: number) =>
    download(
      routeArgs(getRequest(`/files/${id}/download`, { cookie }), {
        id: String(id),
      }),
    );

  it("serves the file to staff and doctors as an attachment with nosniff, and logs the download", async () => {
    const doc = firstDocument();
    for (const user of [staff, doctor]) {
      const response = (await get(user.cookie, doc.id)) as Response;
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/pdf");
      expect(response.headers.get("Content-Disposition")).toMatch(
        /^attachment; filename="Laudo Ressonancia\.pdf"; filename\*=UTF-8''Laudo%20Resson%C3%A2ncia\.pdf$/,
      );
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(Buffer.from(await response.arrayBuffer()).equals(PDF)).toBe(true);
    }
    const logged = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "document"), eq(auditLog.entityId, String(doc.id)), eq(auditLog.action, "download")))
      .all();
    expect(logged.map((a) => a.userId)).toEqual([staff.id, doctor.id]);
  });

  it("refuses an account without a role (403) and an unknown id (404)", async () => {
    expect((await thrownResponse(get(pending.cookie, firstDocument().id))).status).toBe(403);
    expect((await thrownResponse(get(staff.cookie, 987_654))).status).toBe(404);
  });

  it("reports a corrupted (409) or missing (410) file instead of serving it", async () => {
    const doc = firstDocument();
    const stored = path.join(documentsDir, doc.storageName);
    const original = fs.readFileSync(stored);
    const tampered = Buffer.from(original);
    tampered[10] ^= 0xff;
    fs.writeFileSync(stored, tampered);
    const corrupt = await thrownResponse(get(staff.cookie, doc.id));
    expect(corrupt.status).toBe(409);
    expect(await corrupt.text()).toContain("soma de verificação não confere");
    fs.rmSync(stored);
    expect((await thrownResponse(get(staff.cookie, doc.id))).status).toBe(410);
    fs.writeFileSync(stored, original, { mode: 0o600 });
    expect(((await get(staff.cookie, doc.id)) as Response).status).toBe(200);
  });
});

describe("/files list and delete", () => {
  it("lists, searches and filters documents", async () => {
    const other = insertPatient("Outra Pessoa");
    const body = multipartBody([...fields(other), { name: "file", filename: "foto.png", type: "image/png", content: PNG }]);
    expect(statusOf(await action(routeArgs(uploadRequest(staff.cookie, body))))).toBe(302);
    const list = async (query: string) =>
      (await loader(routeArgs(getRequest(`/files${query}`, { cookie: doctor.cookie })))).rows.map((r) => r.originalName);
    expect(await list("")).toEqual(["foto.png", "Laudo Ressonância.pdf"]);
    expect(await list("?q=laudo")).toEqual(["Laudo Ressonância.pdf"]);
    expect(await list("?q=outra")).toEqual(["foto.png"]);
    expect(await list(`?patient=${patientId}`)).toEqual(["Laudo Ressonância.pdf"]);
    expect(await list("?category=exame")).toEqual([]);
    expect(await list("?de=2999-01-01")).toEqual([]);
    expect(await list("?de=junk&category=junk&patient=abc")).toHaveLength(2);
  });

  it("keeps a page until a document, a patient or a surgery is written: a task written meanwhile leaves it, a renamed patient shows at once", () => {
    /** A page of /files as its loader reads it, and the statements reading it prepared. */
    const viewed = (q = "") => {
      let page!: ReturnType<typeof listDocuments>;
      const statements = capturePrepared(() => (page = listDocuments({ q, page: 1, sort: "createdAt", dir: "desc" }, {})));
      return { page, read: statements.some((statement) => /\bfrom "documents"/.test(statement)), counted: statements.some((statement) => /count\(/i.test(statement)) };
    };
    const first = viewed().page;
    const again = viewed();
    expect(again.read).toBe(false);
    expect(again.page).toBe(first);

    // Written meanwhile, a task leaves the pages.
    db.insert(tasks).values({ title: "Conferir os exames enviados" }).run();
    expect(viewed()).toEqual({ page: first, read: false, counted: false });

    // The patient renamed: the page shows the new name at once. Its total is the counter (migration 0051), not a count.
    const name = "Outra Pessoa Renomeada";
    db.update(patients).set({ name, searchText: patientSearchText({ name, cpf: null, email: null, phone: null }) }).where(eq(patients.name, "Outra Pessoa")).run();
    const renamed = viewed();
    expect([renamed.read, renamed.counted]).toEqual([true, false]);
    expect(renamed.page.rows.map((row) => row.patientName)).toContain("Outra Pessoa Renomeada");
    expect(renamed.page.total).toBe(sqlite.prepare("select count(*) from documents").pluck().get());
    expect(viewed().page).toBe(renamed.page);
    // A search is a page of its own, kept too.
    const searched = viewed("renomeada");
    expect([searched.read, searched.page.rows.map((row) => row.originalName)]).toEqual([true, ["foto.png"]]);
    expect(viewed("renomeada").page).toBe(searched.page);

    // A surgery written (its type is the page's 'Cirurgia' column): read again.
    const doctorId = insertDoctor("Dr. Arquivos Guardados", { crm: "771122" });
    db.insert(surgeries).values({ patientId, doctorId, surgeryType: "Artrodese lombar", hospital: "Hospital Central", scheduledDate: new Date("2026-05-04T12:00:00Z") }).run();
    expect(viewed().read).toBe(true);
  });

  it("lets only an admin delete, removing the file and keeping an audit entry", async () => {
    const doc = documentsOf(patientId)[0];
    const listed = async () => loader(routeArgs(getRequest("/files", { cookie: doctor.cookie })));
    expect((await listed()).rows.map((row) => row.id)).toContain(doc.id);
    const refused = await thrownResponse(
      action(routeArgs(formRequest("/files", { intent: "delete", id: doc.id }, { cookie: staff.cookie }))),
    );
    expect(refused.status).toBe(403);
    const done = await action(routeArgs(formRequest("/files", { intent: "delete", id: doc.id }, { cookie: admin.cookie })));
    expect(statusOf(done)).toBe(302);
    expect(documentsOf(patientId)).toHaveLength(0);
    // The list kept before the deletion is not shown again.
    const after = await listed();
    expect(after.rows.map((row) => row.id)).not.toContain(doc.id);
    expect(after.total).toBe(1);
    expect(fs.existsSync(path.join(documentsDir, doc.storageName))).toBe(false);
    const audit = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "document"), eq(auditLog.entityId, String(doc.id)), eq(auditLog.action, "delete")))
      .get();
    expect(audit?.userId).toBe(admin.id);
  });
});
