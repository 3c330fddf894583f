import type Database from "better-sqlite3";
import type { ReceivableStatus } from "../../../app/lib/enums";
import { type PipelineStage, surgeryStatusForStage } from "../../../app/lib/pipeline";
import { cbhpmCode, FEE_ROLE_SHARE, PORTE_2017_CENTS, PROCEDURES, SURGERY_TYPES, type SurgeryTypeSeed } from "../catalog";
import type { MasterData } from "../master-data";
import type { Random } from "../random";
import { DAY, HOUR, MINUTE } from "../time";
import type { Calendar } from "./calendar";
import { recentPatient, type ScaleDoctor, worksOn } from "./doctors";
import { WeightedTable } from "./names";
import type { OpmeWriter } from "./opme";
import { INSURANCES, type PatientBook } from "./patients";

/** How often each catalogue surgery is done, by the surgeon's kind. */
const TYPE_WEIGHTS: Record<string, number> = {
  "Microdiscectomia lombar L4-L5": 30,
  "Artrodese lombar instrumentada L4-L5": 20,
  "Laminectomia descompressiva lombar": 14,
  "Discectomia cervical anterior com artrodese (ACDF) C5-C6": 10,
  "Cifoplastia T12": 6,
  "Descompressão de canal estreito lombar": 12,
  "Artroplastia discal cervical C6-C7": 4,
  "Microcirurgia de tumor intracraniano (meningioma)": 18,
  "Ressecção transesfenoidal de adenoma hipofisário": 10,
  "Clipagem de aneurisma cerebral": 8,
  "Derivação ventriculoperitoneal": 20,
  "Drenagem de hematoma subdural crônico": 25,
};
const PAEDIATRIC_WEIGHTS: Record<string, number> = {
  "Derivação ventriculoperitoneal": 60,
  "Microcirurgia de tumor intracraniano (meningioma)": 20,
  "Drenagem de hematoma subdural crônico": 20,
};

const NOTES = [
  "Paciente com HAS controlada; risco cirúrgico ASA II.",
  "Solicitar reserva de UTI no pós-operatório.",
  "Usar neuronavegação.",
  "Monitorização neurofisiológica intraoperatória autorizada.",
  "Paciente alérgico a cefalosporinas.",
  "Reservar 2 concentrados de hemácias.",
];

/** A pre-authorisation denial that was appealed and then approved, in the history of a few surgeries. */
const APPEAL: PipelineStage[] = ["negado", "enviado_pre_aut", "aguardando_parecer"];

export interface SurgeryEnv {
  conn: Database.Database;
  random: Random;
  calendar: Calendar;
  today: number;
  nowMs: number;
  adminId: number;
  surgeons: ScaleDoctor[];
  anaesthetists: ScaleDoctor[];
  patients: PatientBook;
  master: MasterData;
  /** Ids assigned as `baseId + n + 1`. */
  baseId: number;
  capacity: number;
  /** Writes the OPME request of each surgery that went through 'OPME em Cotação'. */
  opme: OpmeWriter;
}

/** Money linked to one surgery, kept until the cash book is written (day order differs). */
export class SurgeryMoney {
  count = 0;
  readonly day: Int32Array;
  readonly surgeryId: Int32Array;
  readonly amount: Float64Array;
  /** 0 = fee receipt (receita, Cirurgias), 1 = OPME bought for a private patient (despesa). */
  readonly kind: Uint8Array;
  readonly typeIndex: Uint8Array;
  readonly payerIndex: Uint8Array;

  constructor(capacity: number) {
    this.day = new Int32Array(capacity);
    this.surgeryId = new Int32Array(capacity);
    this.amount = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.typeIndex = new Uint8Array(capacity);
    this.payerIndex = new Uint8Array(capacity);
  }

  add(day: number, surgeryId: number, amount: number, kind: 0 | 1, typeIndex: number, payerIndex: number) {
    const i = this.count++;
    this.day[i] = day;
    this.surgeryId[i] = surgeryId;
    this.amount[i] = amount;
    this.kind[i] = kind;
    this.typeIndex[i] = typeIndex;
    this.payerIndex[i] = payerIndex;
  }
}

/** Prices move with time: the 2017 reference corrected by ~5 % a year, backwards and forwards. */
export function priceIndex(day: number, today: number): number {
  return Math.pow(1.05, (day - today) / 365.25);
}

/**
 * Writes surgeries with their whole pipeline history (every move from the first stage to the
 * current one, `from_stage` chained) and their fee lines (principal, auxiliaries, anaesthetist,
 * each on the procedure's CBHPM code); performed surgeries get their billing state, and those that
 * went through 'OPME em Cotação' their OPME request with its quotes.
 */
export class SurgeryWriter {
  count = 0;
  readonly money: SurgeryMoney;
  private readonly insertSurgery: Database.Statement;
  private readonly insertStage: Database.Statement;
  private readonly insertFee: Database.Statement;
  private readonly byArea: Record<"coluna" | "cranio" | "paediatric", WeightedTable<number>>;
  private readonly shortest: Record<"coluna" | "cranio" | "paediatric", number>;
  private readonly codeIdByType: Array<number | null>;
  private readonly payerIdx: Map<string, number>;
  private readonly sameArea: Record<"coluna" | "cranio", ScaleDoctor[]>;
  stageRows = 0;
  feeRows = 0;

  constructor(private readonly env: SurgeryEnv) {
    const { conn, master } = env;
    this.money = new SurgeryMoney(env.capacity * 2);
    this.insertSurgery = conn.prepare(
      `INSERT INTO surgeries (id, patient_id, doctor_id, surgery_type, scheduled_date, status, estimated_duration_min, notes,
         hospital, hospital_id, current_stage, billed_amount_cents, guide_number, payer_name, payer_id, receivable_status,
         billed_at, paid_at, created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertStage = conn.prepare(
      "INSERT INTO pipeline_stages (surgery_id, stage, from_stage, moved_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.insertFee = conn.prepare(
      "INSERT INTO surgery_fee_lines (surgery_id, doctor_id, role, medical_code_id, amount_cents, service_date, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const table = (area: "coluna" | "cranio", weights: Record<string, number>) =>
      new WeightedTable(SURGERY_TYPES.map((t, i) => [i, t.area === area ? (weights[t.name] ?? 0) : 0] as const));
    this.byArea = { coluna: table("coluna", TYPE_WEIGHTS), cranio: table("cranio", TYPE_WEIGHTS), paediatric: table("cranio", PAEDIATRIC_WEIGHTS) };
    const shortestOf = (area: "coluna" | "cranio", weights: Record<string, number>) =>
      SURGERY_TYPES.reduce((best, t, i) => (t.area === area && weights[t.name] && (best < 0 || t.durationMin < SURGERY_TYPES[best].durationMin) ? i : best), -1);
    this.shortest = { coluna: shortestOf("coluna", TYPE_WEIGHTS), cranio: shortestOf("cranio", TYPE_WEIGHTS), paediatric: shortestOf("cranio", PAEDIATRIC_WEIGHTS) };
    this.codeIdByType = SURGERY_TYPES.map((t) => master.codeIdByKey.get(`cbhpm:${cbhpmCode(t.tuss)}`) ?? null);
    this.payerIdx = new Map(INSURANCES.map((name, i) => [name ?? "Particular", i]));
    this.sameArea = { coluna: env.surgeons.filter((s) => s.area === "coluna"), cranio: env.surgeons.filter((s) => s.area === "cranio") };
  }

  private kindOf(surgeon: ScaleDoctor) {
    return surgeon.specialty === "Neurocirurgia Pediátrica" ? "paediatric" : (surgeon.area as "coluna" | "cranio");
  }

  /** A catalogue surgery for this surgeon, or the shortest one when `maxMinutes` is tight; -1 if none fits. */
  pickType(surgeon: ScaleDoctor, maxMinutes: number): number {
    const kind = this.kindOf(surgeon);
    const t = this.byArea[kind].at(this.env.random.next());
    if (SURGERY_TYPES[t].durationMin <= maxMinutes) return t;
    const s = this.shortest[kind];
    return SURGERY_TYPES[s].durationMin <= maxMinutes ? s : -1;
  }

  /** A patient the surgeon has seen, free that day and registered well before; -1 when none. */
  pickPatient(surgeon: ScaleDoctor, day: number, startMs: number): number {
    const { random, patients } = this.env;
    for (let attempt = 0; attempt < 30; attempt++) {
      let p = attempt < 24 ? recentPatient(surgeon, random) : -1;
      if (p < 0) {
        if (patients.count === 0) return -1;
        const u = random.next();
        p = patients.count - 1 - Math.floor(patients.count * u * u);
      }
      if (patients.lastDay[p] !== day && patients.createdMs[p] < startMs - 7 * DAY) return p;
    }
    return -1;
  }

  private colleague(pool: ScaleDoctor[], day: number, not: number): ScaleDoctor | null {
    const { random } = this.env;
    for (let attempt = 0; attempt < 20; attempt++) {
      const d = pool[Math.floor(random.next() * pool.length)];
      if (d.id !== not && worksOn(d, day)) return d;
    }
    return pool.find((d) => d.id !== not && worksOn(d, day)) ?? null;
  }

  /** The stage a surgery on `day` sits in now, by how far it is from today. */
  private stageFor(day: number, startMs: number, endMs: number, insured: boolean, opme: boolean): PipelineStage {
    const { random, today, nowMs } = this.env;
    const u = random.next();
    let stage: PipelineStage;
    if (day < today - 4) {
      stage = u < 0.905 ? "concluido" : u < 0.96 ? "cancelado" : "negado";
    } else if (day <= today) {
      // The last few days: some cards were never moved on from 'Em Cirurgia'.
      if (startMs > nowMs) stage = u < 0.9 ? "agendado" : "cancelado";
      else if (endMs > nowMs) stage = "em_cirurgia";
      else stage = u < 0.5 - 0.1 * (today - day) ? "em_cirurgia" : "concluido";
    } else {
      const ahead = day - today;
      if (ahead <= 14) stage = u < 0.72 ? "agendado" : u < 0.87 ? "aprovado" : u < 0.95 ? "opme_cotacao" : "cancelado";
      else if (ahead <= 45)
        stage = u < 0.3 ? "aprovado" : u < 0.5 ? "agendado" : u < 0.62 ? "opme_cotacao" : u < 0.78 ? "aguardando_parecer" : u < 0.9 ? "enviado_pre_aut" : u < 0.96 ? "negado" : "cancelado";
      else stage = u < 0.32 ? "aguarda_docs" : u < 0.56 ? "enviado_pre_aut" : u < 0.8 ? "aguardando_parecer" : u < 0.9 ? "opme_cotacao" : u < 0.96 ? "aprovado" : "negado";
    }
    // Private patients skip the health plan's pre-authorisation; only OPME cases quote implants.
    if (!insured) {
      if (stage === "enviado_pre_aut" || stage === "aguardando_parecer") stage = "aguarda_docs";
      if (stage === "negado") stage = "cancelado";
    }
    if (stage === "opme_cotacao" && !opme) stage = insured ? "aguardando_parecer" : "aguarda_docs";
    return stage;
  }

  private pathTo(stage: PipelineStage, insured: boolean, opme: boolean): PipelineStage[] {
    const { random } = this.env;
    const main: PipelineStage[] = [
      "aguarda_docs",
      ...(insured ? (["enviado_pre_aut", "aguardando_parecer"] as const) : []),
      ...(opme ? (["opme_cotacao"] as const) : []),
      "aprovado",
      "agendado",
      "em_cirurgia",
      "concluido",
    ];
    if (stage === "negado") return ["aguarda_docs", "enviado_pre_aut", "aguardando_parecer", "negado"];
    let path: PipelineStage[];
    if (stage === "cancelado") path = [...main.slice(0, random.int(1, main.indexOf("agendado") + 1)), "cancelado"];
    else path = main.slice(0, main.indexOf(stage) + 1);
    if (insured && path.includes("aprovado") && random.chance(0.04)) {
      const at = path.indexOf("aguardando_parecer") + 1;
      path = [...path.slice(0, at), ...APPEAL, ...path.slice(at)];
    }
    return path;
  }

  /** When each move of `path` happened, oldest first, never after now nor before the patient was registered. */
  private movesFor(path: PipelineStage[], stage: PipelineStage, startMs: number, endMs: number, registeredMs: number): number[] {
    const { random, nowMs } = this.env;
    const moves: number[] = new Array(path.length);
    let last = path.length - 1;
    let cursor: number;
    if (stage === "concluido") {
      moves[last] = Math.min(endMs, nowMs - MINUTE);
      moves[last - 1] = Math.min(startMs, moves[last] - MINUTE);
      last -= 2;
      cursor = startMs - random.int(2, 10) * DAY - random.int(0, 8) * HOUR;
    } else if (stage === "em_cirurgia") {
      moves[last] = Math.min(startMs, nowMs - MINUTE);
      last -= 1;
      cursor = startMs - random.int(2, 10) * DAY - random.int(0, 8) * HOUR;
    } else if (stage === "cancelado" || stage === "negado") {
      cursor = startMs - random.int(stage === "negado" ? 10 : 0, stage === "negado" ? 40 : 20) * DAY - random.int(0, 8) * HOUR;
    } else {
      cursor = nowMs - random.int(1, 240) * HOUR;
    }
    cursor = Math.min(cursor, nowMs - MINUTE);
    for (let i = last; i >= 0; i--) {
      moves[i] = cursor;
      cursor -= random.int(1, 8) * DAY + random.int(0, 10) * HOUR;
    }
    // The card cannot predate the patient's record; squeeze the early moves after it, in order.
    moves[0] = Math.max(moves[0], registeredMs + HOUR);
    for (let i = 1; i < moves.length; i++) moves[i] = Math.max(moves[i], moves[i - 1] + MINUTE);
    return moves;
  }

  /** Writes one surgery of `surgeon` on `day` at `startMinutes`; returns the number of rows written. */
  write(surgeon: ScaleDoctor, day: number, startMinutes: number, typeIndex: number, patient: number): number {
    const { random, calendar, nowMs, today, adminId, patients, master } = this.env;
    const type: SurgeryTypeSeed = SURGERY_TYPES[typeIndex];
    const id = this.env.baseId + ++this.count;
    const startMs = calendar.instant(day, startMinutes);
    const endMs = startMs + type.durationMin * MINUTE;
    const insuranceIndex = patients.insurance[patient];
    const payerName = INSURANCES[insuranceIndex] ?? "Particular";
    const payer = master.payerByName.get(payerName)!;
    const insured = payer.type !== "private";
    const stage = this.stageFor(day, startMs, endMs, insured, type.opme);
    const path = this.pathTo(stage, insured, type.opme);
    const moves = this.movesFor(path, stage, startMs, endMs, patients.createdMs[patient]);
    patients.lastDay[patient] = day;

    // Hospital: the surgeon's usual private ones, public hospitals for SUS patients.
    const allowed = surgeon.hospitals.filter((h) => (payerName === "SUS" ? master.hospitals[h].type !== "private" : master.hospitals[h].type !== "public"));
    const hospital = master.hospitals[random.chance(0.85) ? allowed[0] : random.pick(allowed)];

    // Fees: CBHPM porte × the payer's factor, in that year's money.
    const procedure = PROCEDURES.find((p) => p.tuss === type.tuss)!;
    const principal = Math.max(1, Math.round(PORTE_2017_CENTS[procedure.porte] * payer.feeFactor * priceIndex(day, today)));
    const lines: Array<[number, "principal" | "auxiliar" | "anestesista", number]> = [[surgeon.id, "principal", principal]];
    const nAux = type.durationMin >= 240 ? 2 : 1;
    let auxiliaryOf = surgeon.id;
    for (let k = 0; k < nAux; k++) {
      const aux = this.colleague(this.sameArea[surgeon.area === "coluna" ? "coluna" : "cranio"], day, auxiliaryOf) ?? this.colleague(this.env.surgeons, day, surgeon.id);
      if (!aux || lines.some(([id]) => id === aux.id)) continue;
      lines.push([aux.id, "auxiliar", Math.round(principal * FEE_ROLE_SHARE.auxiliar)]);
      auxiliaryOf = aux.id;
    }
    const anaesthetist = this.colleague(this.env.anaesthetists, day, -1);
    if (anaesthetist) lines.push([anaesthetist.id, "anestesista", Math.round(principal * FEE_ROLE_SHARE.anestesista)]);
    const total = lines.reduce((sum, [, , cents]) => sum + cents, 0);

    let receivable: ReceivableStatus | null = null;
    let billedAt: number | null = null;
    let paidAt: number | null = null;
    let notes: string | null = random.chance(0.35) ? random.pick(NOTES) : null;
    const doneAt = moves[moves.length - 1];
    if (stage === "concluido") {
      const outcome = payerName === "Particular" ? "pago" : random.weighted([["pago", 92], [payerName === "SUS" ? "pendente" : "glosa", 5], ["pendente", 3]] as const);
      billedAt = doneAt + random.int(2, 8) * DAY + random.int(0, 8) * HOUR;
      const due = billedAt + payer.paymentTermsDays * DAY;
      paidAt = Math.max(billedAt + DAY, due + random.int(-3, 10) * DAY);
      if (billedAt > nowMs) {
        receivable = "realizado";
        billedAt = paidAt = null;
      } else if (outcome === "pago" && paidAt <= nowMs) {
        receivable = "pago";
      } else {
        receivable = outcome === "glosa" ? "glosa" : due < nowMs - 15 * DAY ? "pendente" : "faturado";
        paidAt = null;
      }
      if (receivable === "glosa") notes = "Glosa parcial: o convênio contestou a quantidade de níveis. Recurso enviado com laudo de imagem.";
      if (receivable === "pendente") notes = "Prazo de pagamento vencido; cobrança feita ao setor de contas médicas.";
      if (receivable === "pago") this.money.add(calendar.dayOf(paidAt!), id, total, 0, typeIndex, this.payerIdx.get(payerName)!);
      if (type.opme && !insured && day <= today) {
        this.money.add(day, id, Math.round(random.int(800_000, 2_400_000) * priceIndex(day, today)), 1, typeIndex, this.payerIdx.get(payerName)!);
      }
    }
    if (stage === "negado") notes = "Negado pelo convênio: solicitam 6 semanas adicionais de tratamento conservador. Avaliar recurso.";
    if (stage === "cancelado") notes = random.pick(["Paciente desistiu do procedimento.", "Cancelado por intercorrência clínica; reavaliar em 60 dias.", "Paciente optou por tratamento conservador."]);
    const guide = path.includes("enviado_pre_aut") ? (payerName === "SUS" ? `35${random.digits(11)}` : `${random.int(10, 99)}${random.digits(8)}`) : null;
    const createdAt = moves[0];
    const updatedAt = Math.max(doneAt, billedAt ?? 0, paidAt ?? 0);

    this.insertSurgery.run(
      id,
      patients.idOf(patient),
      surgeon.id,
      type.name,
      startMs,
      surgeryStatusForStage(stage),
      type.durationMin,
      notes,
      hospital.name,
      hospital.id,
      stage,
      stage === "concluido" ? total : null,
      guide,
      payerName,
      payer.id,
      receivable,
      billedAt,
      paidAt,
      adminId,
      createdAt,
      updatedAt,
    );
    for (let i = 0; i < path.length; i++) {
      this.insertStage.run(id, path[i], i === 0 ? null : path[i - 1], adminId, moves[i], moves[i]);
    }
    this.stageRows += path.length;
    // The fee split is drawn up with the authorisation request and stays with the surgery.
    const feeAt = stage === "concluido" ? doneAt : createdAt;
    for (const [doctorId, role, cents] of lines) this.insertFee.run(id, doctorId, role, this.codeIdByType[typeIndex], cents, startMs, feeAt, feeAt);
    this.feeRows += lines.length;
    const opmeRows = this.env.opme.write(id, type.name, path, moves, priceIndex(day, today));
    return 1 + path.length + lines.length + opmeRows;
  }
}
