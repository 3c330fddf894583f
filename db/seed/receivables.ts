import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { documentsDir, newStorageName } from "../../app/.server/uploads";
import type { ReceivableStatus } from "../../app/lib/enums";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import { type SeedContext, slug } from "./context";
import { DAY, isoDay } from "./time";

/**
 * The receivables' money and history (ADR 0019) for the surgeries db/seed/surgeries.ts billed: every
 * move logged, a payment for each paid surgery (some imported from a Unimed CSV statement kept like
 * an upload), partial payments whose difference became a glosa, and glosas with their appeals —
 * one awaiting the payer's answer, one recovered in full, one in part. Draws nothing from the
 * generator, so the families seeded before and after it are unchanged.
 */
export function seedReceivables({ tx, nowMs }: SeedContext, { adminId, staffId }: Accounts) {
  const rows = tx
    .select({
      id: schema.surgeries.id,
      status: schema.surgeries.receivableStatus,
      billed: schema.surgeries.billedAmountCents,
      billedAt: schema.surgeries.billedAt,
      paidAt: schema.surgeries.paidAt,
      scheduledDate: schema.surgeries.scheduledDate,
      guide: schema.surgeries.guideNumber,
      patient: schema.patients.name,
      payer: schema.surgeries.payerName,
    })
    .from(schema.surgeries)
    .innerJoin(schema.patients, eq(schema.patients.id, schema.surgeries.patientId))
    .where(isNotNull(schema.surgeries.receivableStatus))
    .orderBy(asc(schema.surgeries.scheduledDate), asc(schema.surgeries.id))
    .all();

  const move = (surgeryId: number, at: number, from: ReceivableStatus | null, to: ReceivableStatus, extra: { amountCents?: number; reason?: string; kind?: "concluded" | "move" | "import" } = {}) =>
    tx
      .insert(schema.receivableMoves)
      .values({
        surgeryId,
        kind: extra.kind ?? (from ? "move" : "concluded"),
        fromStatus: from,
        toStatus: to,
        amountCents: extra.amountCents ?? null,
        reason: extra.reason ?? null,
        movedBy: from ? adminId : staffId,
        createdAt: new Date(at),
        updatedAt: new Date(at),
      })
      .run();
  const pay = (surgeryId: number, at: number, amountCents: number, extra: { glosaId?: number; importId?: number } = {}) =>
    tx
      .insert(schema.receivablePayments)
      .values({ surgeryId, paidOn: isoDay(at), amountCents, glosaId: extra.glosaId ?? null, importId: extra.importId ?? null, createdBy: adminId, createdAt: new Date(at), updatedAt: new Date(at) })
      .run();
  /** A glosa of the surgery's assistant line (the payer contested the number of levels). */
  const glosa = (surgeryId: number, at: number, appeal: { sentAt: number; outcome: "deferido" | "parcial" | null; recoveredShare: number } | null) => {
    const line = tx
      .select({ id: schema.surgeryFeeLines.id, amount: schema.surgeryFeeLines.amountCents })
      .from(schema.surgeryFeeLines)
      .where(and(eq(schema.surgeryFeeLines.surgeryId, surgeryId), eq(schema.surgeryFeeLines.role, "auxiliar")))
      .get();
    const denied = line?.amount ?? 500_00;
    const recovered = appeal ? Math.round(denied * appeal.recoveredShare) : 0;
    const id = tx
      .insert(schema.receivableGlosas)
      .values({
        surgeryId,
        tissCode: "1705",
        reason: "Quantidade de níveis acima da autorizada na guia",
        deniedCents: denied,
        appealJustification: appeal ? "Laudo de ressonância e descrição cirúrgica anexados: os níveis operados constam da solicitação original." : null,
        appealSentOn: appeal ? isoDay(appeal.sentAt) : null,
        appealOutcome: appeal?.outcome ?? null,
        recoveredCents: recovered,
        createdBy: adminId,
        createdAt: new Date(at),
        updatedAt: new Date(appeal ? appeal.sentAt : at),
      })
      .returning({ id: schema.receivableGlosas.id })
      .get().id;
    tx.insert(schema.receivableGlosaLines).values({ glosaId: id, feeLineId: line?.id ?? null, description: "Honorário do 1º auxiliar", deniedCents: denied }).run();
    return { id, denied, recovered };
  };

  // A payer's statement imported as CSV: its most recently paid surgeries, paid in full, in one file.
  const paid = rows.filter((r) => r.status === "pago");
  const statementPayer = paid.find((r, i) => i >= 3 && r.guide)?.payer;
  const fromCsv = paid.filter((r, i) => i >= 3 && r.guide && r.payer === statementPayer);
  let importId: number | undefined;
  if (fromCsv.length) {
    const csv = [
      "Guia;Paciente;Código;Data;Valor;Pagador;Data do pagamento",
      ...fromCsv.map((r) =>
        [r.guide, r.patient, "30715016", brDate(r.scheduledDate.getTime()), reais(r.billed ?? 0), r.payer, brDate(r.paidAt!.getTime())].join(";"),
      ),
    ].join("\r\n");
    const content = Buffer.from(`\uFEFF${csv}\r\n`, "utf8");
    const storageName = newStorageName();
    fs.mkdirSync(documentsDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(documentsDir, storageName), content, { mode: 0o600 });
    const at = Math.max(...fromCsv.map((r) => r.paidAt!.getTime())) + 2 * 60 * 60 * 1000;
    importId = tx
      .insert(schema.feeStatementImports)
      .values({
        kind: "csv",
        originalName: `demonstrativo-${slug(statementPayer ?? "convenio")}.csv`,
        storageName,
        mimeType: "text/csv",
        sizeBytes: content.length,
        sha256: createHash("sha256").update(content).digest("hex"),
        rowsApplied: fromCsv.length,
        amountCents: fromCsv.reduce((sum, r) => sum + (r.billed ?? 0), 0),
        uploadedBy: adminId,
        uploadedAt: new Date(Math.min(at, nowMs - DAY)),
      })
      .returning({ id: schema.feeStatementImports.id })
      .get().id;
  }

  paid.forEach((r, i) => {
    const billedAt = r.billedAt!.getTime();
    const paidAt = r.paidAt!.getTime();
    const billed = r.billed ?? 0;
    move(r.id, r.scheduledDate.getTime() + 6 * 60 * 60 * 1000, null, "realizado");
    move(r.id, billedAt, "realizado", "faturado", { amountCents: billed });
    if (i === 1 || i === 2) {
      // Paid in part; the difference was a glosa, appealed: recovered in part (i = 1) or in full (i = 2).
      const firstPay = billedAt + Math.floor((paidAt - billedAt) / 2);
      const g = glosa(r.id, firstPay, { sentAt: firstPay + Math.floor((paidAt - firstPay) / 3), outcome: i === 1 ? "parcial" : "deferido", recoveredShare: i === 1 ? 0.5 : 1 });
      pay(r.id, firstPay, billed - g.denied);
      move(r.id, firstPay, "faturado", "glosa", { amountCents: billed - g.denied, reason: "Pagamento parcial; glosa 1705 — Quantidade de níveis acima da autorizada na guia" });
      pay(r.id, paidAt, g.recovered, { glosaId: g.id });
      move(r.id, paidAt, "glosa", "pago", { amountCents: g.recovered });
      return;
    }
    const imported = importId !== undefined && fromCsv.includes(r);
    pay(r.id, paidAt, billed, { importId: imported ? importId : undefined });
    move(r.id, paidAt, "faturado", "pago", { amountCents: billed, kind: imported ? "import" : "move" });
  });

  for (const r of rows.filter((row) => row.status !== "pago")) {
    const billed = r.billed ?? 0;
    move(r.id, r.scheduledDate.getTime() + 6 * 60 * 60 * 1000, null, "realizado");
    if (r.status === "realizado") continue;
    const billedAt = r.billedAt!.getTime();
    move(r.id, billedAt, "realizado", "faturado", { amountCents: billed });
    if (r.status === "pendente") move(r.id, Math.min(billedAt + 35 * DAY, nowMs - DAY), "faturado", "pendente");
    if (r.status === "glosa") {
      // Paid in part; the glosa's appeal was sent and awaits the payer.
      const at = Math.min(billedAt + 25 * DAY, nowMs - 4 * DAY);
      const g = glosa(r.id, at, { sentAt: at + 2 * DAY, outcome: null, recoveredShare: 0 });
      pay(r.id, at, billed - g.denied);
      move(r.id, at, "faturado", "glosa", { amountCents: billed - g.denied, reason: "Pagamento parcial; glosa 1705 — Quantidade de níveis acima da autorizada na guia" });
    }
  }
}

const brDate = (ms: number) => isoDay(ms).split("-").reverse().join("/");
const reais = (cents: number) => `${Math.floor(cents / 100).toLocaleString("pt-BR")},${String(cents % 100).padStart(2, "0")}`;
