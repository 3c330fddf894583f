import { ansDueOn } from "../../app/lib/ans-clock";
import { isoDateInClinic } from "../../app/lib/dates";
import type { ReceivableStatus } from "../../app/lib/enums";
import { type PipelineStage, surgeryStatusForStage } from "../../app/lib/pipeline";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import type { Occupancy } from "./appointments";
import { cbhpmCode, FEE_ROLE_SHARE, PORTE_2017_CENTS, PROCEDURES, SURGERY_TYPES, type SurgeryTypeSeed } from "./catalog";
import { busy, insertRows, minDate, overlaps, roundCents, type SeedContext } from "./context";
import type { Staff } from "./doctors";
import type { MasterData } from "./master-data";
import type { PatientPool } from "./patients";
import { addDays, at, DAY, HOUR, isWeekend, MINUTE, weekday } from "./time";

export interface SurgeryDraft {
  stage: PipelineStage;
  type: SurgeryTypeSeed;
  /** Index into `surgeons`. */
  doctorIndex: number;
  patientIndex: number;
  start: number;
  /** The stages the surgery went through, oldest first, ending at `stage`. */
  path: PipelineStage[];
  /** When each move of `path` happened. */
  moves: number[];
  payer: string;
  hospital: MasterData["hospitals"][number];
}

export interface FeePlan {
  lines: Array<{ doctorId: number; role: "principal" | "auxiliar" | "anestesista"; amountCents: number }>;
  total: number;
}

export interface SurgeryBook {
  surgeryDrafts: SurgeryDraft[];
  /** The patient index of each planned surgery, in plan order. */
  surgicalPatients: number[];
  /** Performed surgeries, oldest first. */
  performed: SurgeryDraft[];
  receivable: Map<SurgeryDraft, ReceivableStatus>;
  feePlans: Map<SurgeryDraft, FeePlan>;
  paidAtBySurgery: Map<SurgeryDraft, number>;
  surgeryId: Map<SurgeryDraft, number>;
}

/** Surgeries across all ten pipeline stages, their stage history and, when performed, their fee lines. */
export function seedSurgeries(
  ctx: SeedContext,
  accounts: Accounts,
  staff: Staff,
  pool: PatientPool,
  occupancy: Occupancy,
  master: MasterData,
): SurgeryBook {
  const { surgeryDrafts, surgicalPatients } = planSurgeries(ctx, staff, pool, occupancy, master);
  const { performed, receivable } = planReceivables(surgeryDrafts);
  const { feePlans, paidAtBySurgery, surgeryId } = insertSurgeries(ctx, accounts, staff, pool, master, surgeryDrafts, receivable);
  insertStageHistory(ctx, accounts, surgeryDrafts, surgeryId);
  insertFeeLines(ctx, master, feePlans, surgeryId);
  return { surgeryDrafts, surgicalPatients, performed, receivable, feePlans, paidAtBySurgery, surgeryId };
}

/** Who is operated on, by whom, when and where; the surgeries take their time out of `occupancy`. */
function planSurgeries(
  { random, nowMs, today }: SeedContext,
  { surgeons }: Staff,
  { patients }: PatientPool,
  { doctorBusy, patientBusy }: Occupancy,
  { hospitals }: MasterData,
) {
  const stagePlan: PipelineStage[] = [
    ...Array<PipelineStage>(12).fill("concluido"),
    ...Array<PipelineStage>(2).fill("em_cirurgia"),
    ...Array<PipelineStage>(4).fill("agendado"),
    ...Array<PipelineStage>(3).fill("aprovado"),
    ...Array<PipelineStage>(3).fill("opme_cotacao"),
    ...Array<PipelineStage>(4).fill("aguardando_parecer"),
    ...Array<PipelineStage>(4).fill("enviado_pre_aut"),
    ...Array<PipelineStage>(4).fill("aguarda_docs"),
    ...Array<PipelineStage>(2).fill("negado"),
    ...Array<PipelineStage>(2).fill("cancelado"),
  ];
  // Pre-authorisation stages only make sense with a health plan; private patients go elsewhere.
  const NEEDS_PLAN: PipelineStage[] = ["enviado_pre_aut", "aguardando_parecer", "opme_cotacao", "negado"];
  const shuffled = random.shuffle(patients.map((_, i) => i));
  const insuredPool = shuffled.filter((i) => patients[i].insurance && patients[i].insurance !== "Particular");
  const taken = new Set<number>();
  const surgicalPatients = stagePlan.map((stage) => {
    const pool = NEEDS_PLAN.includes(stage) ? insuredPool : shuffled;
    const chosen = pool.find((i) => !taken.has(i)) ?? shuffled.find((i) => !taken.has(i))!;
    taken.add(chosen);
    return chosen;
  });

  const PRE_SURGERY: PipelineStage[] = ["aguarda_docs", "enviado_pre_aut", "aguardando_parecer"];
  function stagePath(stage: PipelineStage, opme: boolean): PipelineStage[] {
    const main: PipelineStage[] = [...PRE_SURGERY, ...(opme ? (["opme_cotacao"] as const) : []), "aprovado", "agendado", "em_cirurgia", "concluido"];
    if (stage === "negado") return [...PRE_SURGERY, "negado"];
    if (stage === "cancelado") return [...main.slice(0, random.int(1, main.indexOf("agendado") + 1)), "cancelado"];
    return main.slice(0, main.indexOf(stage) + 1);
  }

  /** First start time on `day` when doctor and patient are both free for the whole surgery. */
  function surgeryStart(day: string, doctorIndex: number, patientIndex: number, durationMin: number): number | null {
    for (const minutes of [7 * 60, 7 * 60 + 30, 8 * 60, 13 * 60, 14 * 60, 15 * 60]) {
      const start = at(day, minutes).getTime();
      const end = start + (durationMin + 60) * MINUTE; // room turnover and recovery
      if (!overlaps(doctorBusy.get(doctorIndex), start, end) && !overlaps(patientBusy.get(patientIndex), start, end)) return start;
    }
    return null;
  }

  /** A weekday near `day` on which the surgeon has no clinic (moving `direction` days at a time). */
  function operatingDay(day: string, doctorIndex: number, direction: 1 | -1): string {
    let candidate = day;
    for (let i = 0; i < 14; i++) {
      if (!isWeekend(candidate) && !surgeons[doctorIndex].clinicDays.includes(weekday(candidate))) return candidate;
      candidate = addDays(candidate, direction);
    }
    return candidate;
  }

  const surgeryDrafts: SurgeryDraft[] = [];
  stagePlan.forEach((stage, planIndex) => {
    const patientIndex = surgicalPatients[planIndex];
    const patient = patients[patientIndex];
    let doctorIndex = patient.doctorIndex;
    const area = surgeons[doctorIndex].area;
    const types = SURGERY_TYPES.filter((t) => t.area === area && (stage !== "opme_cotacao" || t.opme));
    const type = random.pick(types.length ? types : SURGERY_TYPES.filter((t) => t.opme));
    if (type.area !== area) doctorIndex = surgeons.findIndex((d) => d.area === type.area);

    let day: string;
    if (stage === "concluido") day = operatingDay(addDays(today, -random.int(4, 118)), doctorIndex, -1);
    else if (stage === "em_cirurgia") day = today;
    else if (stage === "agendado") day = operatingDay(addDays(today, random.int(2, 26)), doctorIndex, 1);
    else if (stage === "aprovado") day = operatingDay(addDays(today, random.int(8, 35)), doctorIndex, 1);
    else if (stage === "cancelado") day = operatingDay(addDays(today, random.int(-12, 30)), doctorIndex, 1);
    else day = operatingDay(addDays(today, random.int(18, 70)), doctorIndex, 1);

    let start = surgeryStart(day, doctorIndex, patientIndex, type.durationMin);
    for (let shift = 1; start === null && shift < 10; shift++) {
      day = operatingDay(addDays(day, stage === "concluido" ? -1 : 1), doctorIndex, stage === "concluido" ? -1 : 1);
      start = surgeryStart(day, doctorIndex, patientIndex, type.durationMin);
    }
    if (start === null) start = at(day, 7 * 60).getTime();
    const end = start + (type.durationMin + 60) * MINUTE;
    busy(doctorBusy, doctorIndex).push({ start, end });
    busy(patientBusy, patientIndex).push({ start, end });

    const path = stagePath(stage, type.opme);
    // Move times, oldest first. Performed surgeries: the last two moves are the operation itself.
    const moves: number[] = new Array(path.length);
    let cursor: number;
    let last = path.length - 1;
    if (stage === "concluido") {
      moves[last] = start + type.durationMin * MINUTE;
      moves[last - 1] = start;
      cursor = start - random.int(2, 9) * DAY;
      last -= 2;
    } else if (stage === "em_cirurgia") {
      moves[last] = Math.min(start, nowMs - 5 * MINUTE);
      cursor = start - random.int(3, 9) * DAY;
      last -= 1;
    } else {
      cursor = nowMs - random.int(2, 140) * HOUR;
    }
    for (let i = last; i >= 0; i--) {
      moves[i] = Math.min(cursor, nowMs - MINUTE);
      cursor -= random.int(1, 6) * DAY + random.int(0, 8) * HOUR;
    }

    const payer = patient.insurance ?? "Particular";
    const hospitalChoices =
      payer === "SUS" ? hospitals.filter((h) => h.type !== "private") : hospitals.filter((h) => h.type !== "public");
    surgeryDrafts.push({
      stage,
      type,
      doctorIndex,
      patientIndex,
      start,
      path,
      moves,
      payer,
      hospital: hospitalChoices[(doctorIndex + planIndex) % hospitalChoices.length],
    });
  });
  return { surgeryDrafts, surgicalPatients };
}

/** Billing of performed surgeries: oldest paid, then in dispute / billed, newest not yet billed. */
function planReceivables(surgeryDrafts: SurgeryDraft[]) {
  const performed = surgeryDrafts.filter((s) => s.stage === "concluido").sort((a, b) => a.start - b.start);
  const receivablePlan: ReceivableStatus[] = ["pago", "pago", "pago", "pago", "pago", "glosa", "pendente", "pendente", "faturado", "faturado", "realizado", "realizado"];
  const receivable = new Map<SurgeryDraft, ReceivableStatus>();
  const unassigned = [...performed];
  for (const status of receivablePlan) {
    if (!unassigned.length) break;
    // Glosas and overdue payments come from health plans, not from private patients.
    const disputed = status === "glosa" || status === "pendente";
    const index = disputed ? Math.max(0, unassigned.findIndex((s) => s.payer !== "Particular" && (status !== "glosa" || s.payer !== "SUS"))) : 0;
    receivable.set(unassigned.splice(index, 1)[0], status);
  }
  for (const s of unassigned) receivable.set(s, "realizado");
  return { performed, receivable };
}

function insertSurgeries(
  { tx, random, nowMs }: SeedContext,
  { officeUsers }: Accounts,
  { surgeons, anaesthetists }: Staff,
  { patientIds }: PatientPool,
  { payerByName }: MasterData,
  surgeryDrafts: SurgeryDraft[],
  receivable: Map<SurgeryDraft, ReceivableStatus>,
) {
  function feePlan(s: SurgeryDraft): FeePlan {
    const procedure = PROCEDURES.find((p) => p.tuss === s.type.tuss)!;
    const factor = payerByName.get(s.payer)?.feeFactor ?? 1;
    const principal = roundCents(PORTE_2017_CENTS[procedure.porte] * factor);
    const assistants = surgeons.filter((d, i) => d.area === s.type.area && i !== s.doctorIndex);
    const assistant = assistants.length ? random.pick(assistants) : random.pick(surgeons.filter((_, i) => i !== s.doctorIndex));
    const lines: FeePlan["lines"] = [
      { doctorId: surgeons[s.doctorIndex].id, role: "principal", amountCents: principal },
      { doctorId: assistant.id, role: "auxiliar", amountCents: roundCents(principal * FEE_ROLE_SHARE.auxiliar) },
      { doctorId: random.pick(anaesthetists).id, role: "anestesista", amountCents: roundCents(principal * FEE_ROLE_SHARE.anestesista) },
    ];
    return { lines, total: lines.reduce((sum, l) => sum + l.amountCents, 0) };
  }

  const surgeryRows: Array<typeof schema.surgeries.$inferInsert> = [];
  const feePlans = new Map<SurgeryDraft, FeePlan>();
  const paidAtBySurgery = new Map<SurgeryDraft, number>();
  for (const s of surgeryDrafts) {
    const payer = payerByName.get(s.payer)!;
    const status = receivable.get(s) ?? null;
    let billedAmountCents: number | null = null;
    let billedAt: Date | null = null;
    let paidAt: Date | null = null;
    let notes: string | null = random.chance(0.4)
      ? random.pick([
          "Paciente com HAS controlada; risco cirúrgico ASA II.",
          "Solicitar reserva de UTI no pós-operatório.",
          "Usar neuronavegação.",
          "Monitorização neurofisiológica intraoperatória autorizada.",
          "Paciente alérgico a cefalosporinas.",
        ])
      : null;
    if (s.stage === "concluido") {
      const plan = feePlan(s);
      feePlans.set(s, plan);
      billedAmountCents = plan.total;
      const done = s.moves[s.moves.length - 1];
      if (status !== "realizado") {
        billedAt = minDate(done + random.int(2, 8) * DAY, nowMs - DAY);
      }
      if (status === "pago") {
        const due = billedAt!.getTime() + payer.paymentTermsDays * DAY + random.int(-3, 6) * DAY;
        paidAt = new Date(Math.max(billedAt!.getTime() + DAY, Math.min(due, nowMs - DAY)));
        paidAtBySurgery.set(s, paidAt.getTime());
      }
      if (status === "glosa") notes = "Glosa parcial: o convênio contestou a quantidade de níveis. Recurso enviado com laudo de imagem.";
      if (status === "pendente") notes = "Prazo de pagamento vencido; cobrança feita ao setor de contas médicas.";
    }
    let denialReason: string | null = null;
    let denialAppeal: boolean | null = null;
    if (s.stage === "negado") {
      notes = "Negado pelo convênio: solicitam 6 semanas adicionais de tratamento conservador. Avaliar recurso.";
      denialReason = denialReasonOf(s);
      denialAppeal = random.chance(0.5);
    }
    // Both ANS clocks start when the pre-authorisation is sent (app/lib/ans.ts).
    const sentAt = s.path.includes("enviado_pre_aut") ? new Date(s.moves[s.path.lastIndexOf("enviado_pre_aut")]) : null;
    if (s.stage === "cancelado") notes = random.pick(["Paciente desistiu do procedimento.", "Cancelado por intercorrência clínica (pneumonia); reavaliar em 60 dias."]);
    const guide =
      s.path.includes("enviado_pre_aut") && s.payer !== "Particular"
        ? s.payer === "SUS"
          ? `35${random.digits(11)}`
          : `${random.int(10, 99)}${random.digits(8)}`
        : null;
    const createdAt = new Date(s.moves[0]);
    surgeryRows.push({
      patientId: patientIds[s.patientIndex],
      doctorId: surgeons[s.doctorIndex].id,
      surgeryType: s.type.name,
      scheduledDate: new Date(s.start),
      status: surgeryStatusForStage(s.stage),
      estimatedDurationMin: s.type.durationMin,
      notes,
      hospital: s.hospital.name,
      hospitalId: s.hospital.id,
      currentStage: s.stage,
      billedAmountCents,
      guideNumber: guide,
      payerName: s.payer,
      payerId: payer.id,
      receivableStatus: status,
      billedAt,
      paidAt,
      createdBy: random.pick(officeUsers),
      ansRequestedAt: sentAt,
      ansDueOn: ansDueOn(s.stage, sentAt ? isoDateInClinic(sentAt) : null),
      denialReason,
      denialAppeal,
      createdAt,
      updatedAt: new Date(Math.max(s.moves[s.moves.length - 1], paidAt?.getTime() ?? 0, billedAt?.getTime() ?? 0)),
    });
  }
  const surgeryIds = insertRows(tx, schema.surgeries, surgeryRows);
  const surgeryId = new Map(surgeryDrafts.map((s, i) => [s, surgeryIds[i]]));
  return { feePlans, paidAtBySurgery, surgeryId };
}

/** What payers write when they deny a pre-authorisation (the clinic's summary of the letter). */
const DENIAL_REASONS = [
  "Convênio exige 6 semanas adicionais de tratamento conservador documentado (fisioterapia) antes da cirurgia.",
  "OPME solicitada fora do rol contratual; convênio autoriza apenas material nacional equivalente.",
];
const denialReasonOf = (s: SurgeryDraft) => DENIAL_REASONS[s.patientIndex % DENIAL_REASONS.length];

function insertStageHistory({ tx, random }: SeedContext, { doctorUserId, officeUsers }: Accounts, surgeryDrafts: SurgeryDraft[], surgeryId: Map<SurgeryDraft, number>) {
  const historyRows: Array<typeof schema.pipelineStages.$inferInsert> = [];
  for (const s of surgeryDrafts) {
    s.path.forEach((stage, i) => {
      const movedAt = new Date(s.moves[i]);
      historyRows.push({
        surgeryId: surgeryId.get(s)!,
        stage,
        fromStage: i === 0 ? null : s.path[i - 1],
        movedBy: stage === "em_cirurgia" || stage === "concluido" ? doctorUserId : random.pick(officeUsers),
        note: stage === "negado" ? denialReasonOf(s) : null,
        createdAt: movedAt,
        updatedAt: movedAt,
      });
    });
  }
  insertRows(tx, schema.pipelineStages, historyRows);
}

function insertFeeLines({ tx }: SeedContext, { codeIdByKey }: MasterData, feePlans: Map<SurgeryDraft, FeePlan>, surgeryId: Map<SurgeryDraft, number>) {
  const feeRows: Array<typeof schema.surgeryFeeLines.$inferInsert> = [];
  for (const [s, plan] of feePlans) {
    const codeId = codeIdByKey.get(`cbhpm:${cbhpmCode(s.type.tuss)}`) ?? null;
    const doneAt = new Date(s.moves[s.moves.length - 1]);
    for (const line of plan.lines) feeRows.push({ surgeryId: surgeryId.get(s)!, ...line, medicalCodeId: codeId, createdAt: doneAt, updatedAt: doneAt });
  }
  insertRows(tx, schema.surgeryFeeLines, feeRows);
}
