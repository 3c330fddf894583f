import fs from "node:fs";
import path from "node:path";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { feeStatementImports, patients, payers, profiles, receivableGlosas, receivablePayments, surgeries } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { type KeysetOrder, keysetList } from "~/.server/pagination";
import { type ReceivedFile, documentsDir, keepUpload, newStorageName, removeStored } from "~/.server/uploads";
import { addDaysInClinic, startOfIsoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { IMPORT_MESSAGES, type LineOutcome } from "~/lib/fee-statement";
import type { ListParams } from "~/lib/list-params";
import { formatBRL } from "~/lib/money";
import type { ReceivableStatus } from "~/lib/receivables";
import { normalizeSearch } from "~/lib/search";
import { type LineError, type StatementLine, decodeStatement, parseStatement } from "./fee-statement-csv.server";
import { moveReceivableIn } from "./receivable.server";

/**
 * /financeiro/importar-honorarios (docs/decisions/0019-receivables-glosas-and-tiss.md): fee
 * statements received as files (PDF or image, kept under an opaque name) and CSV statements whose
 * lines are matched to the surgeries' receivables, previewed, and applied all in one transaction.
 */

/** A refused import (a duplicate, an expired preview, a line that no longer fits): shown on the page. */
export class FeeStatementError extends DomainError {}

// ---------------------------------------------------------------------------- matching

export interface MatchedReceivable {
  surgeryId: number;
  patientName: string;
  payerName: string | null;
  guideNumber: string | null;
  status: ReceivableStatus;
  billedCents: number;
  paidCents: number;
  openGlosaCents: number;
}

/** One line of the preview: the line as read, the receivable it pays, and what applying does. */
export interface PlannedLine extends Pick<StatementLine, "line" | "guide" | "patient" | "code" | "date" | "amountCents" | "payer"> {
  surgeryId: number | null;
  matchedBy: "guia" | "paciente" | null;
  outcome: LineOutcome | null;
  /** The glosa the difference opens (parcial) or what stays lost after the appeal (recurso). */
  differenceCents: number;
  error: string | null;
}

export interface StatementPlan {
  lines: PlannedLine[];
  /** Every refused line, with its number (lines the parser refused included). */
  errors: LineError[];
  fatal: string | null;
  totalCents: number;
}

const matchFields = {
  surgeryId: surgeries.id,
  patientName: patients.name,
  payerName: sql<string | null>`coalesce(${payers.name}, ${surgeries.payerName})`,
  guideNumber: surgeries.guideNumber,
  status: surgeries.receivableStatus,
  billedCents: sql<number>`coalesce(${surgeries.billedAmountCents}, 0)`,
  paidCents: sql<number>`coalesce((select sum(${receivablePayments.amountCents}) from ${receivablePayments} where ${receivablePayments.surgeryId} = ${surgeries.id}), 0)`,
  openGlosaCents: sql<number>`coalesce((select sum(${receivableGlosas.deniedCents} - ${receivableGlosas.recoveredCents}) from ${receivableGlosas} where ${receivableGlosas.surgeryId} = ${surgeries.id} and ${receivableGlosas.appealOutcome} is null), 0)`,
};

function candidates(conn: Tx | typeof db, where: ReturnType<typeof and>) {
  return conn
    .select(matchFields)
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .leftJoin(payers, eq(payers.id, surgeries.payerId))
    .where(where)
    .limit(200)
    .all();
}

type Candidate = ReturnType<typeof candidates>[number];

/**
 * The surgery a line pays: by its guide number when it has one (through the guide's index), else
 * by the patient's name, the surgery's day and the payer (the day's surgeries, compared without
 * accents or case). None, or more than one, is the line's error.
 */
export function matchLine(line: Pick<StatementLine, "guide" | "patient" | "date" | "payer">, conn: Tx | typeof db = db): { match: MatchedReceivable; by: "guia" | "paciente" } | { error: string } {
  let found: Candidate[];
  let by: "guia" | "paciente";
  if (line.guide) {
    by = "guia";
    found = candidates(conn, eq(surgeries.guideNumber, line.guide));
    if (!found.length) return { error: `Nenhuma cirurgia com a guia ${line.guide}.` };
  } else {
    by = "paciente";
    const day = startOfIsoDateInClinic(line.date)!;
    const patient = normalizeSearch(line.patient);
    const payer = normalizeSearch(line.payer);
    found = candidates(conn, and(gte(surgeries.scheduledDate, day), lt(surgeries.scheduledDate, addDaysInClinic(day, 1)))).filter(
      (row) => normalizeSearch(row.patientName) === patient && normalizeSearch(row.payerName) === payer,
    );
    if (!found.length) return { error: `Nenhuma cirurgia de ${line.patient} em ${brDate(line.date)} pelo pagador ${line.payer}.` };
  }
  const receivable = found.filter((row) => row.status !== null);
  if (!receivable.length) return { error: "A cirurgia encontrada não está em Cirurgias a receber." };
  if (receivable.length > 1) return { error: `Mais de uma cirurgia confere com a linha (${by === "guia" ? "mesma guia" : "mesmo paciente, dia e pagador"}): informe a guia.` };
  const row = receivable[0];
  return { match: { ...row, status: row.status!, billedCents: Number(row.billedCents), paidCents: Number(row.paidCents), openGlosaCents: Number(row.openGlosaCents) }, by };
}

const brDate = (iso: string) => iso.split("-").reverse().join("/");

/**
 * What the receivable's lines (all the statement's lines that matched it, summed) do, following the
 * allowed moves: from faturado or pendente, all that is owed → pago; less → pago with a glosa of the
 * difference (its TISS code and text from the lines); from glosa, the appeal's recovery. Anything
 * else — not billed yet, already paid, more than is open — is refused.
 */
export function outcomeOf(receivable: MatchedReceivable, totalCents: number, hasGlosaCode: boolean): { outcome: LineOutcome; differenceCents: number } | { error: string } {
  const status = receivable.status;
  if (status === "realizado") return { error: "A cirurgia ainda não foi faturada (status Realizado): fature-a antes de dar baixa." };
  if (status === "pago") return { error: "A cirurgia já está paga." };
  if (status === "glosa") {
    const open = receivable.openGlosaCents;
    if (open <= 0) return { error: "A glosa desta cirurgia não tem valor em aberto." };
    if (totalCents > open) return { error: `O valor pago passa do valor glosado em aberto (${formatBRL(open)}).` };
    return { outcome: "recurso", differenceCents: open - totalCents };
  }
  const owed = Math.max(receivable.billedCents - receivable.paidCents, 0);
  if (owed <= 0) return { error: "A cirurgia não tem valor em aberto." };
  if (totalCents > owed) return { error: `O valor pago passa do valor em aberto (${formatBRL(owed)}).` };
  if (totalCents === owed) return { outcome: "pago", differenceCents: 0 };
  if (!hasGlosaCode) return { error: `Pagamento menor que o devido (${formatBRL(owed)}): informe o código e o motivo da glosa da diferença.` };
  return { outcome: "parcial", differenceCents: owed - totalCents };
}


/** Reads, checks and matches every line of a statement; writes nothing. */
export function planStatement(text: string, conn: Tx | typeof db = db): StatementPlan {
  const parsed = parseStatement(text);
  if (parsed.fatal) return { lines: [], errors: [], fatal: parsed.fatal, totalCents: 0 };
  const planned: PlannedLine[] = parsed.lines.map((line) => {
    const base = { line: line.line, guide: line.guide, patient: line.patient, code: line.code, date: line.date, amountCents: line.amountCents, payer: line.payer };
    const matched = matchLine(line, conn);
    if ("error" in matched) return { ...base, surgeryId: null, matchedBy: null, outcome: null, differenceCents: 0, error: matched.error };
    return { ...base, surgeryId: matched.match.surgeryId, matchedBy: matched.by, outcome: null, differenceCents: 0, error: null };
  });
  // The lines of one receivable are judged together: a statement may list each procedure of a guide.
  const bySurgery = new Map<number, StatementLine[]>();
  parsed.lines.forEach((line, i) => {
    const id = planned[i].surgeryId;
    if (id !== null) bySurgery.set(id, [...(bySurgery.get(id) ?? []), line]);
  });
  for (const [surgeryId, group] of bySurgery) {
    const first = group[0];
    const matched = matchLine(first, conn);
    if ("error" in matched) continue;
    const total = group.reduce((sum, line) => sum + line.amountCents, 0);
    const result = outcomeOf(matched.match, total, group.some((line) => line.glosaCode));
    for (const plan of planned.filter((p) => p.surgeryId === surgeryId)) {
      if ("error" in result) plan.error = result.error;
      else Object.assign(plan, result);
    }
  }
  const errors = [...parsed.errors, ...planned.filter((p) => p.error).map((p) => ({ line: p.line, message: p.error! }))].sort((a, b) => a.line - b.line);
  return { lines: planned, errors, fatal: null, totalCents: parsed.lines.reduce((sum, line) => sum + line.amountCents, 0) };
}

/** The first refused line, as the page names it. */
export function firstErrorText(plan: StatementPlan): string {
  if (plan.fatal) return plan.fatal;
  const first = plan.errors[0];
  const more = plan.errors.length > 1 ? ` (e mais ${plan.errors.length - 1})` : "";
  return first ? `Nada foi aplicado: linha ${first.line}: ${first.message}${more}` : "";
}

// ---------------------------------------------------------------------------- files kept between preview and apply

/** Where a CSV waits between its preview and 'Aplicar', under an opaque token (never re-uploaded). */
const pendingPath = (token: string) => path.join(documentsDir, `.pending-${token}`);
const TOKEN = /^[0-9a-f]{32}$/;
/** A preview not applied within a day is dropped. */
const PENDING_TTL_MS = 24 * 60 * 60 * 1000;

export interface PendingStatement {
  token: string;
  originalName: string;
  sizeBytes: number;
  sha256: string;
}

function dropStalePending(now: Date) {
  try {
    for (const name of fs.readdirSync(documentsDir)) {
      if (!name.startsWith(".pending-")) continue;
      const file = path.join(documentsDir, name);
      if (now.getTime() - fs.statSync(file).mtimeMs > PENDING_TTL_MS) fs.rmSync(file, { force: true });
    }
  } catch {
    // Nothing to tidy.
  }
}

function alreadyImported(sha256: string) {
  return db
    .select({ id: feeStatementImports.id, uploadedAt: feeStatementImports.uploadedAt })
    .from(feeStatementImports)
    .where(eq(feeStatementImports.sha256, sha256))
    .get();
}

/**
 * A CSV received for preview: refused when the same bytes were already imported; otherwise kept
 * under a fresh token (with its name and hash beside it) until applied or a day old.
 */
export function holdStatement(file: ReceivedFile, now = new Date()): { pending: PendingStatement } {
  dropStalePending(now);
  if (alreadyImported(file.sha256)) {
    fs.rmSync(file.tempPath, { force: true });
    throw new FeeStatementError(IMPORT_MESSAGES.duplicate);
  }
  const token = newStorageName();
  const pending: PendingStatement = { token, originalName: file.originalName, sizeBytes: file.sizeBytes, sha256: file.sha256 };
  fs.renameSync(file.tempPath, pendingPath(token));
  fs.writeFileSync(`${pendingPath(token)}.json`, JSON.stringify(pending), { mode: 0o600 });
  return { pending };
}

/** The statement waiting under `token`, or null when there is none (expired, applied, made up). */
export function pendingStatement(token: string | null | undefined): (PendingStatement & { text: string }) | null {
  if (!token || !TOKEN.test(token)) return null;
  try {
    const meta = JSON.parse(fs.readFileSync(`${pendingPath(token)}.json`, "utf8")) as PendingStatement;
    return { ...meta, token, text: decodeStatement(fs.readFileSync(pendingPath(token))) };
  } catch {
    return null;
  }
}

export function discardPending(token: string) {
  if (!TOKEN.test(token)) return;
  fs.rmSync(pendingPath(token), { force: true });
  fs.rmSync(`${pendingPath(token)}.json`, { force: true });
}

/** Lines the preview page draws (every refused line is listed apart, whatever their number). */
export const PREVIEW_ROWS = 500;

/** The preview page's state for `?preview=<token>`: the statement's lines as they would be applied. */
export function statementPreview(token: string) {
  const pending = pendingStatement(token);
  if (!pending) return { status: "expired" as const };
  const plan = planStatement(pending.text);
  return {
    status: alreadyImported(pending.sha256) ? ("duplicate" as const) : ("ready" as const),
    token: pending.token,
    originalName: pending.originalName,
    fatal: plan.fatal,
    errors: plan.errors.slice(0, PREVIEW_ROWS),
    errorCount: plan.errors.length,
    lines: plan.lines.slice(0, PREVIEW_ROWS),
    lineCount: plan.lines.length,
    totalCents: plan.totalCents,
    receivables: new Set(plan.lines.map((line) => line.surgeryId)).size,
  };
}

// ---------------------------------------------------------------------------- applying

/**
 * 'Aplicar': the statement waiting under `token` is matched again (the receivables may have moved
 * since the preview) and, when every line fits, applied in ONE transaction — the import's row,
 * each receivable's payment (and glosa of a difference) through the allowed moves, their history
 * and audit entries. Any refused line refuses the whole file, naming the line.
 */
export function applyStatement(userId: number, token: string, now = new Date()) {
  const pending = pendingStatement(token);
  if (!pending) throw new FeeStatementError(IMPORT_MESSAGES.expired);
  if (alreadyImported(pending.sha256)) throw new FeeStatementError(IMPORT_MESSAGES.duplicate);
  const parsed = parseStatement(pending.text);
  const today = todayIsoInClinic(now);
  const result = db.transaction((tx) => {
    const plan = planStatement(pending.text, tx);
    if (plan.fatal || plan.errors.length) throw new FeeStatementError(firstErrorText(plan));
    const imported = tx
      .insert(feeStatementImports)
      .values({
        kind: "csv",
        originalName: pending.originalName,
        storageName: pending.token,
        mimeType: "text/csv",
        sizeBytes: pending.sizeBytes,
        sha256: pending.sha256,
        rowsApplied: plan.lines.length,
        amountCents: plan.totalCents,
        uploadedBy: userId,
        uploadedAt: now,
      })
      .returning({ id: feeStatementImports.id })
      .get();
    const groups = new Map<number, StatementLine[]>();
    plan.lines.forEach((p, i) => groups.set(p.surgeryId!, [...(groups.get(p.surgeryId!) ?? []), parsed.lines[i]]));
    for (const [surgeryId, lines] of groups) {
      const amountCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
      const withGlosa = lines.find((line) => line.glosaCode);
      const paidOn = lines.map((line) => line.paidOn).find(Boolean) ?? today;
      try {
        moveReceivableIn(
          tx,
          userId,
          surgeryId,
          "pago",
          { payment: { paidOn, amountCents, glosa: withGlosa ? { tissCode: withGlosa.glosaCode!, reason: withGlosa.glosaReason! } : undefined } },
          now,
          { importId: imported.id },
        );
      } catch (error) {
        if (error instanceof DomainError) throw new FeeStatementError(`Nada foi aplicado: linha ${lines[0].line}: ${error.message}`);
        throw error;
      }
    }
    recordAudit(tx, {
      userId,
      action: "create",
      entity: "fee_statement_import",
      entityId: imported.id,
      changes: { kind: "csv", originalName: pending.originalName, sha256: pending.sha256, rowsApplied: plan.lines.length, amountCents: plan.totalCents, receivables: groups.size },
    });
    return { id: imported.id, rows: plan.lines.length, receivables: groups.size, totalCents: plan.totalCents };
  });
  // Committed: the CSV becomes the import's stored file (downloadable like any other).
  fs.renameSync(pendingPath(token), path.join(documentsDir, token));
  fs.rmSync(`${pendingPath(token)}.json`, { force: true });
  return result;
}

// ---------------------------------------------------------------------------- files (PDF, images)

/** A statement kept as a file (PDF or image): stored under an opaque name, listed, audited. */
export function storeStatementFile(userId: number, file: ReceivedFile, now = new Date()) {
  if (alreadyImported(file.sha256)) {
    fs.rmSync(file.tempPath, { force: true });
    throw new FeeStatementError(IMPORT_MESSAGES.duplicate);
  }
  const storageName = newStorageName();
  keepUpload(file, storageName);
  try {
    return db.transaction((tx) => {
      const row = tx
        .insert(feeStatementImports)
        .values({ kind: "arquivo", originalName: file.originalName, storageName, mimeType: file.mimeType, sizeBytes: file.sizeBytes, sha256: file.sha256, uploadedBy: userId, uploadedAt: now })
        .returning({ id: feeStatementImports.id })
        .get();
      recordAudit(tx, { userId, action: "create", entity: "fee_statement_import", entityId: row.id, changes: { kind: "arquivo", originalName: file.originalName, sizeBytes: file.sizeBytes, sha256: file.sha256 } });
      return row.id;
    });
  } catch (error) {
    removeStored(storageName);
    throw error;
  }
}

// ---------------------------------------------------------------------------- the list

/** One page of what was received, newest first (keyset on `uploaded_at`, its index). */
export function listImports(state: ListParams<"uploadedAt">) {
  const order: KeysetOrder = { key: feeStatementImports.uploadedAt, id: feeStatementImports.id, dir: state.dir };
  return keysetList(
    feeStatementImports,
    undefined,
    state,
    order,
    (at, orderBy, limit, offset) =>
      db
        .select({
          id: feeStatementImports.id,
          cursorKey: feeStatementImports.uploadedAt,
          kind: feeStatementImports.kind,
          originalName: feeStatementImports.originalName,
          mimeType: feeStatementImports.mimeType,
          sizeBytes: feeStatementImports.sizeBytes,
          rowsApplied: feeStatementImports.rowsApplied,
          amountCents: feeStatementImports.amountCents,
          uploadedAt: feeStatementImports.uploadedAt,
          uploadedByName: profiles.name,
          stored: sql<number>`${feeStatementImports.storageName} is not null`,
        })
        .from(feeStatementImports)
        .leftJoin(profiles, eq(profiles.id, feeStatementImports.uploadedBy))
        .where(at)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  );
}

export function getImport(id: number) {
  return db.select().from(feeStatementImports).where(eq(feeStatementImports.id, id)).get() ?? null;
}
