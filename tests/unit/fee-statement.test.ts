import { eq } from "drizzle-orm";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, feeStatementImports, pipelineStages, receivableGlosas, receivableMoves, receivablePayments, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { documentsDir } from "~/.server/uploads";
import type { ReceivableStatus } from "~/lib/receivables";
import { decodeStatement, parseStatement } from "~/models/fee-statement-csv.server";
import { FeeStatementError, applyStatement, holdStatement, listImports, matchLine, planStatement, statementPreview } from "~/models/fee-statement.server";
import { moveReceivable } from "~/models/receivable.server";
import { action as pageAction, loader as pageLoader } from "~/routes/financeiro-importar";
import { loader as downloadLoader } from "~/routes/financeiro-importar-arquivo";
import { action as uploadAction } from "~/routes/financeiro-importar-enviar";
import { type SignedIn, capturePrepared, formRequest, getRequest, insertDoctor, insertPatient, insertPayer, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";
import { BOUNDARY, countingStream, multipartBody, multipartRequest } from "../support/multipart";

let admin: SignedIn;
let staff: SignedIn;
let doctorUser: SignedIn;
let doctorId: number;
let unimed: number;
let bradesco: number;

const HEADER = "Guia;Paciente;Código;Data;Valor;Pagador;Data do pagamento;Código da glosa;Motivo da glosa";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const XHR = { "X-Requested-With": "XMLHttpRequest" };
const PAGE = "/financeiro/importar-honorarios";

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctorUser = await loginAs("doctor");
  doctorId = insertDoctor("Dr. Arnaldo Prata");
  unimed = insertPayer("Unimed Campinas");
  bradesco = insertPayer("Bradesco Saúde");
});

let guideSeq = 70_000_000;

/** A surgery of a new patient in `status`, billed R$ 1.000,00, reached through the allowed moves. */
function receivable(status: ReceivableStatus, { patient = `Paciente ${guideSeq}`, day = "2026-03-10", payerId = unimed, guide = true } = {}) {
  const patientId = insertPatient(patient);
  const guideNumber = guide ? String(++guideSeq) : null;
  const id = db
    .insert(surgeries)
    .values({
      patientId,
      doctorId,
      payerId,
      surgeryType: "Artrodese lombar",
      scheduledDate: new Date(`${day}T13:00:00Z`),
      currentStage: "concluido",
      status: "completed",
      receivableStatus: "realizado",
      billedAmountCents: 1_000_00,
      guideNumber,
    })
    .returning({ id: surgeries.id })
    .get().id;
  db.insert(pipelineStages).values({ surgeryId: id, stage: "concluido", fromStage: null }).run();
  if (status !== "realizado") moveReceivable(admin.id, id, "faturado");
  if (status === "pendente") moveReceivable(admin.id, id, "pendente");
  if (status === "glosa") moveReceivable(admin.id, id, "glosa", { glosa: { tissCode: "1705", reason: "Quantidade não autorizada", deniedCents: 300_00 } });
  if (status === "pago") moveReceivable(admin.id, id, "pago", { payment: { paidOn: "2026-04-01" } });
  return { id, guide: guideNumber, patient };
}

const statusOfSurgery = (id: number) => db.select({ s: surgeries.receivableStatus }).from(surgeries).where(eq(surgeries.id, id)).get()!.s;
const paymentsOf = (id: number) => db.select().from(receivablePayments).where(eq(receivablePayments.surgeryId, id)).all();

/** A CSV received as the upload route would: written to a temporary file in the documents directory. */
function received(text: string, name = "demonstrativo.csv") {
  fs.mkdirSync(documentsDir, { recursive: true });
  const bytes = Buffer.from(text, "utf8");
  const tempPath = `${documentsDir}/.upload-${Math.random().toString(16).slice(2)}.tmp`;
  fs.writeFileSync(tempPath, bytes);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { tempPath, originalName: name, mimeType: "text/csv", sizeBytes: bytes.length, sha256 };
}

describe("the fee statement CSV parser", () => {
  it("reads the Brazilian Excel dialect: BOM, ';', decimal comma, dd/mm/yyyy", () => {
    const text = decodeStatement(Buffer.from(`\uFEFF${HEADER}\r\n123;Maria José;30715016;05/03/2026;1.234,56;Unimed;10/04/2026;;\r\n`, "utf8"));
    const parsed = parseStatement(text);
    expect(parsed.fatal).toBeNull();
    expect(parsed.errors).toEqual([]);
    expect(parsed.lines).toEqual([
      { line: 2, guide: "123", patient: "Maria José", code: "30715016", date: "2026-03-05", amountCents: 123_456, payer: "Unimed", paidOn: "2026-04-10", glosaCode: null, glosaReason: null },
    ]);
  });

  it("reads a plain ',' CSV with dot decimals, headers in any order and case, and Windows-1252 text", () => {
    const latin1 = Buffer.from("pagador,VALOR PAGO,data,codigo,paciente,numero da guia\nBradesco Saúde,980.5,2026-03-05,30715016,João Conceição,\n", "latin1");
    const parsed = parseStatement(decodeStatement(latin1));
    expect(parsed.errors).toEqual([]);
    expect(parsed.lines[0]).toMatchObject({ guide: null, patient: "João Conceição", payer: "Bradesco Saúde", amountCents: 98_050, date: "2026-03-05" });
  });

  it("names each bad line and why, and refuses a file without the required columns", () => {
    const parsed = parseStatement(`${HEADER}\n1;Ana;30715016;31/02/2026;100,00;Unimed;;;\n2;;30715016;01/03/2026;abc;Unimed;;;\n\n3;Bia;30715016;01/03/2026;100,00;Unimed;;17X5;x\n`);
    expect(parsed.lines).toEqual([]);
    expect(parsed.errors).toEqual([
      { line: 2, message: "Data '31/02/2026' inválida (use dd/mm/aaaa)." },
      { line: 3, message: "Falta o paciente; valor 'abc' inválido (use 1.234,56)." },
      { line: 5, message: "Código da glosa '17X5' inválido (4 dígitos)." },
    ]);
    expect(parseStatement("Guia;Paciente;Data;Valor\n1;Ana;01/03/2026;10,00\n").fatal).toBe("Falta a coluna Código, Pagador no cabeçalho (a primeira linha do arquivo).");
    expect(parseStatement(`${HEADER}\n`).fatal).toMatch(/só o cabeçalho/);
  });
});

describe("matching a line to a receivable", () => {
  it("finds it by guide number, else by patient, day and payer (accents and case aside)", () => {
    const byGuide = receivable("faturado");
    const byPatient = receivable("faturado", { patient: "Cecília Antunes", day: "2026-03-12", guide: false, payerId: bradesco });
    expect(matchLine({ guide: byGuide.guide, patient: "outro nome", date: "2020-01-01", payer: "x" })).toMatchObject({ by: "guia", match: { surgeryId: byGuide.id } });
    expect(matchLine({ guide: null, patient: "CECILIA antunes", date: "2026-03-12", payer: "bradesco saude" })).toMatchObject({ by: "paciente", match: { surgeryId: byPatient.id } });
    expect(matchLine({ guide: null, patient: "Cecília Antunes", date: "2026-03-13", payer: "Bradesco Saúde" })).toEqual({
      error: "Nenhuma cirurgia de Cecília Antunes em 13/03/2026 pelo pagador Bradesco Saúde.",
    });
    expect(matchLine({ guide: "999", patient: "x", date: "2026-03-12", payer: "x" })).toEqual({ error: "Nenhuma cirurgia com a guia 999." });
  });

  it("previews what each line does: paid in full, partial with a glosa, an appeal's recovery, and refusals", () => {
    const full = receivable("faturado");
    const partial = receivable("pendente");
    const appeal = receivable("glosa");
    const notBilled = receivable("realizado");
    const paid = receivable("pago");
    const plan = planStatement(
      [
        HEADER,
        `${full.guide};${full.patient};30715016;10/03/2026;600,00;Unimed Campinas;;;`,
        `${full.guide};${full.patient};30715024;10/03/2026;400,00;Unimed Campinas;;;`,
        `${partial.guide};${partial.patient};30715016;10/03/2026;800,00;Unimed Campinas;;1705;Quantidade não autorizada`,
        `${appeal.guide};${appeal.patient};30715016;10/03/2026;200,00;Unimed Campinas;;;`,
        `${notBilled.guide};${notBilled.patient};30715016;10/03/2026;1.000,00;Unimed Campinas;;;`,
        `${paid.guide};${paid.patient};30715016;10/03/2026;1.000,00;Unimed Campinas;;;`,
      ].join("\n"),
    );
    expect(plan.lines.map((l) => [l.line, l.outcome, l.differenceCents, l.error])).toEqual([
      [2, "pago", 0, null],
      [3, "pago", 0, null],
      [4, "parcial", 200_00, null],
      [5, "recurso", 100_00, null],
      [6, null, 0, "A cirurgia ainda não foi faturada (status Realizado): fature-a antes de dar baixa."],
      [7, null, 0, "A cirurgia já está paga."],
    ]);
    expect(plan.errors.map((e) => e.line)).toEqual([6, 7]);
  });
});

describe("applying a statement", () => {
  it("applies every line in one transaction: payments, the glosa of a difference, history, audit", () => {
    const full = receivable("faturado");
    const partial = receivable("pendente");
    const csv = [
      HEADER,
      `${full.guide};${full.patient};30715016;10/03/2026;1.000,00;Unimed Campinas;15/04/2026;;`,
      `${partial.guide};${partial.patient};30715016;10/03/2026;750,00;Unimed Campinas;15/04/2026;1705;Quantidade não autorizada`,
    ].join("\n");
    const { pending } = holdStatement(received(csv));
    const applied = applyStatement(admin.id, pending.token, new Date("2026-05-01T12:00:00Z"));
    expect(applied).toMatchObject({ rows: 2, receivables: 2, totalCents: 1_750_00 });
    expect(statusOfSurgery(full.id)).toBe("pago");
    expect(statusOfSurgery(partial.id)).toBe("glosa");
    expect(paymentsOf(full.id)).toMatchObject([{ paidOn: "2026-04-15", amountCents: 1_000_00, importId: applied.id }]);
    expect(db.select().from(receivableGlosas).where(eq(receivableGlosas.surgeryId, partial.id)).all()).toMatchObject([{ tissCode: "1705", deniedCents: 250_00 }]);
    expect(db.select().from(receivableMoves).where(eq(receivableMoves.surgeryId, full.id)).orderBy(receivableMoves.id).all().at(-1)).toMatchObject({ kind: "import", toStatus: "pago" });
    expect(db.select().from(feeStatementImports).where(eq(feeStatementImports.id, applied.id)).get()).toMatchObject({ kind: "csv", rowsApplied: 2, amountCents: 1_750_00, storageName: pending.token });
    expect(db.select().from(auditLog).where(eq(auditLog.entity, "fee_statement_import")).all().map((a) => a.entityId)).toContain(String(applied.id));
    // The preview is gone; the CSV is now the import's stored file.
    expect(statementPreview(pending.token)).toEqual({ status: "expired" });
    expect(fs.existsSync(`${documentsDir}/${pending.token}`)).toBe(true);
  });

  it("a statement with one bad line applies nothing and names the line", () => {
    const good = receivable("faturado");
    const bad = receivable("faturado");
    const csv = [HEADER, `${good.guide};${good.patient};30715016;10/03/2026;1.000,00;Unimed Campinas;;;`, `${bad.guide};${bad.patient};30715016;10/03/2026;1.500,00;Unimed Campinas;;;`].join("\n");
    const { pending } = holdStatement(received(csv));
    expect(() => applyStatement(admin.id, pending.token)).toThrow("Nada foi aplicado: linha 3: O valor pago passa do valor em aberto (R$ 1.000,00).");
    expect(statusOfSurgery(good.id)).toBe("faturado");
    expect(paymentsOf(good.id)).toEqual([]);
  });

  it("rolls back lines already written when a later one fails inside the transaction", () => {
    const first = receivable("faturado");
    const second = receivable("faturado");
    // A payment day in the future passes the preview but is refused by the move: the first line's payment must not stay.
    const csv = [HEADER, `${first.guide};${first.patient};30715016;10/03/2026;1.000,00;Unimed Campinas;01/04/2026;;`, `${second.guide};${second.patient};30715016;10/03/2026;1.000,00;Unimed Campinas;01/01/2099;;`].join(
      "\n",
    );
    const { pending } = holdStatement(received(csv));
    const imports = db.select().from(feeStatementImports).all().length;
    expect(() => applyStatement(admin.id, pending.token)).toThrow("Nada foi aplicado: linha 3: A data de pagamento não pode estar no futuro.");
    expect(statusOfSurgery(first.id)).toBe("faturado");
    expect(paymentsOf(first.id)).toEqual([]);
    expect(db.select().from(feeStatementImports).all()).toHaveLength(imports);
  });

  it("refuses the same file twice (same SHA-256), at preview and at apply", () => {
    const one = receivable("faturado");
    const csv = [HEADER, `${one.guide};${one.patient};30715016;10/03/2026;1.000,00;Unimed Campinas;;;`].join("\n");
    const first = holdStatement(received(csv));
    const second = holdStatement(received(csv)); // held before the first was applied
    applyStatement(admin.id, first.pending.token);
    expect(() => holdStatement(received(csv))).toThrow(FeeStatementError);
    expect(() => applyStatement(admin.id, second.pending.token)).toThrow("Este arquivo já foi importado (mesmo conteúdo).");
    expect(statementPreview(second.pending.token)).toMatchObject({ status: "duplicate" });
    expect(paymentsOf(one.id)).toHaveLength(1);
  });
});

describe("the screen and its upload", () => {
  const upload = (cookie: string, parts: Parameters<typeof multipartBody>[0], headers: Record<string, string> = XHR) =>
    uploadAction(routeArgs(multipartRequest(`${PAGE}/enviar`, cookie, multipartBody(parts), { headers })));

  it("keeps a PDF under an opaque name, lists it with who sent it, and serves it back to staff", async () => {
    const response = (await upload(admin.cookie, [{ name: "intent", value: "upload" }, { name: "file", filename: "folha-sala.pdf", type: "application/pdf", content: PDF }])) as Response;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ location: PAGE, toast: { message: "Importação concluída com sucesso!" } });
    const page = (await pageLoader(routeArgs(getRequest(PAGE, { cookie: staff.cookie })))) as { rows: Array<{ id: number; originalName: string; uploadedByName: string | null; stored: number }>; canImport: boolean };
    const row = page.rows.find((r) => r.originalName === "folha-sala.pdf")!;
    expect(row.stored).toBeTruthy();
    expect(page.canImport).toBe(false);
    const stored = db.select().from(feeStatementImports).where(eq(feeStatementImports.id, row.id)).get()!;
    expect(stored.storageName).toMatch(/^[0-9a-f]{32}$/);
    const file = (await downloadLoader(routeArgs(getRequest(`${PAGE}/${row.id}/arquivo`, { cookie: staff.cookie }), { id: String(row.id) }))) as Response;
    expect(file.headers.get("Content-Disposition")).toContain("folha-sala.pdf");
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it("refuses what is not a PDF or image as a statement file, and a PDF as a CSV", async () => {
    const csvAsFile = (await upload(admin.cookie, [{ name: "intent", value: "upload" }, { name: "file", filename: "x.csv", type: "text/csv", content: Buffer.from(HEADER) }])) as Response;
    expect(csvAsFile.status).toBe(415);
    expect(await csvAsFile.json()).toMatchObject({ error: "Apenas arquivos PDF ou imagens são permitidos", toast: { message: "Erro ao processar arquivo" } });
    const pdfAsCsv = (await upload(admin.cookie, [{ name: "intent", value: "preview" }, { name: "file", filename: "x.pdf", type: "application/pdf", content: PDF }])) as Response;
    expect(pdfAsCsv.status).toBe(415);
    // Without JavaScript: a redirect whose fixed error code the page turns into its message.
    const plain = (await upload(admin.cookie, [{ name: "intent", value: "upload" }, { name: "file", filename: "x.csv", type: "text/csv", content: Buffer.from(HEADER) }], {})) as Response;
    expect(plain.headers.get("Location")).toBe(`${PAGE}?erro=tipo`);
    const page = (await pageLoader(routeArgs(getRequest(`${PAGE}?erro=tipo`, { cookie: admin.cookie })))) as { uploadError: string | null };
    expect(page.uploadError).toBe("Apenas arquivos PDF ou imagens são permitidos");
  });

  it("cuts off a 21 MB upload at the 20 MB limit while it streams (413), keeping nothing", async () => {
    const prefix = Buffer.concat([
      multipartBody([{ name: "intent", value: "upload" }]).subarray(0, -Buffer.byteLength(`--${BOUNDARY}--\r\n`)),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="grande.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`),
    ]);
    const { stream, counter } = countingStream(prefix, 21 * 1024 * 1024);
    const before = db.select().from(feeStatementImports).all().length;
    const response = (await uploadAction(routeArgs(multipartRequest(`${PAGE}/enviar`, admin.cookie, stream, { contentLength: false, headers: XHR })))) as Response;
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "O arquivo passa do limite de 20 MB." });
    expect(counter.pulled).toBeGreaterThan(20 * 1024 * 1024);
    expect(counter.pulled).toBeLessThan(22 * 1024 * 1024);
    expect(db.select().from(feeStatementImports).all()).toHaveLength(before);
    expect(fs.readdirSync(documentsDir).filter((f) => f.startsWith(".upload-"))).toEqual([]);
  });

  it("works without JavaScript: the CSV's preview is a page state, 'Aplicar' a plain form with the opaque id", async () => {
    const one = receivable("faturado");
    const csv = [HEADER, `${one.guide};${one.patient};30715016;10/03/2026;1.000,00;Unimed Campinas;;;`].join("\n");
    const redirect = (await upload(admin.cookie, [{ name: "intent", value: "preview" }, { name: "file", filename: "unimed.csv", type: "text/csv", content: Buffer.from(csv) }], {})) as Response;
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get("Location")!;
    const token = /preview=([0-9a-f]{32})$/.exec(location)![1];
    const page = (await pageLoader(routeArgs(getRequest(location, { cookie: admin.cookie })))) as { preview: { status: string; lines: Array<{ outcome: string }> } };
    expect(page.preview).toMatchObject({ status: "ready", lines: [{ outcome: "pago" }] });
    const applied = (await pageAction(routeArgs(formRequest(PAGE, { intent: "apply", token }, { cookie: admin.cookie })))) as Response;
    expect(applied.status).toBe(302);
    expect(applied.headers.get("Location")).toBe(PAGE);
    expect(statusOfSurgery(one.id)).toBe("pago");
  });

  it("refuses doctors on the page and its download, and staff on every write", async () => {
    const refused = async (call: () => Promise<unknown>) => (await thrownResponse(call())).status;
    expect(await refused(async () => pageLoader(routeArgs(getRequest(PAGE, { cookie: doctorUser.cookie }))))).toBe(403);
    expect(await refused(async () => downloadLoader(routeArgs(getRequest(`${PAGE}/1/arquivo`, { cookie: doctorUser.cookie }), { id: "1" })))).toBe(403);
    expect(await refused(async () => pageLoader(routeArgs(getRequest(`${PAGE}?preview=${"a".repeat(32)}`, { cookie: staff.cookie }))))).toBe(403);
    const staffUpload = await upload(staff.cookie, [{ name: "intent", value: "upload" }, { name: "file", filename: "a.pdf", type: "application/pdf", content: PDF }]).catch((e: unknown) => e);
    expect(statusOf(staffUpload)).toBe(403);
    const staffApply = await pageAction(routeArgs(formRequest(PAGE, { intent: "apply", token: "a".repeat(32) }, { cookie: staff.cookie }))).catch((e: unknown) => e);
    expect(statusOf(staffApply)).toBe(403);
  });
});

describe("query plans at scale (100 000 surgeries)", () => {
  it("finds a line's surgery through the guide's and the date's indexes, and pages the imports by their index", () => {
    const seen = capturePrepared(() => {
      matchLine({ guide: "123", patient: "x", date: "2026-03-10", payer: "x" });
      matchLine({ guide: null, patient: "x", date: "2026-03-10", payer: "x" });
      listImports({ q: "", page: 1, sort: "uploadedAt", dir: "desc" });
    });
    const reads = seen.filter((statement) => /from "(surgeries|fee_statement_imports)"/.test(statement));
    expect(reads.length).toBe(4);
    for (const statement of reads) {
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, statement).not.toMatch(/SCAN (surgeries|fee_statement_imports)(?! USING)/);
      expect(plan, statement).not.toMatch(/TEMP B-TREE/);
    }
  });
});
