/**
 * Demo data set: `npm run seed:demo` (add `--force` to replace existing data).
 *
 * Fills an empty database with a realistic Brazilian neurosurgery/spine practice: patients,
 * doctors, agenda, surgeries across the whole pipeline, fees, finance, tasks, master data and
 * messaging, plus one login per role. Everything is written in one transaction, with a seeded
 * pseudo-random generator, so a run is reproducible (dates are relative to today).
 */
import { sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { databasePath, db, runMigrations, sqlite, type Tx } from "../app/.server/db";
import { hashPassword } from "../app/.server/password";
import { doctorSearchText } from "../app/models/doctor.server";
import { patientSearchText } from "../app/models/patient.server";
import { type BrazilUf, formatCnpj, formatCpf, formatPhone, isValidCnpj, isValidCpf } from "../app/lib/documents";
import {
  type AppointmentStatus,
  HOSPITAL_TYPE_LABELS,
  MEDICAL_CODE_TYPE_LABELS,
  type MessageStatus,
  type OrderStatus,
  PAYER_TYPE_LABELS,
  type ReceivableStatus,
  SUPPLIER_TYPE_LABELS,
  type TaskCategory,
  type TaskPriority,
  type TaskStatus,
} from "../app/lib/enums";
import { type PipelineStage, surgeryStatusForStage } from "../app/lib/pipeline";
import type { Role } from "../app/lib/permissions";
import { buildSearchText, normalizeSearch } from "../app/lib/search";
import * as schema from "./schema";
import {
  AUTOMATION_RULES,
  cbhpmCode,
  CUSTOM_CODES,
  DOCTORS,
  EMAIL_DOMAINS,
  FEE_ROLE_SHARE,
  FEMALE_NAMES,
  HOSPITALS,
  ICD10_CODES,
  INSURANCE_WEIGHTS,
  MALE_NAMES,
  MEDICAL_HISTORY,
  MESSAGE_TEMPLATES,
  NEIGHBORHOODS,
  PAYERS,
  PORTE_2017_CENTS,
  PROCEDURES,
  REFERRERS,
  SOPS,
  STREETS,
  SUPPLIERS,
  SURGERY_TYPES,
  SURNAMES,
  type SurgeryTypeSeed,
} from "./seed/catalog";
import { generateCnpj, generateCpf, generateLandline, generateMobile } from "./seed/documents";
import { Random } from "./seed/random";
import { addDays, at, DAY, formatBrDate, formatBrTime, HOUR, isoDay, isWeekend, MINUTE, weekday } from "./seed/time";

const SEED = 20_240_915;
const DEMO_PASSWORD = "demo12345";
const PATIENT_COUNT = 120;

const LOGINS: Array<{ email: string; name: string; role: Role; label: string }> = [
  { email: "admin@sinapse.demo", name: "Ana Paula Rezende", role: "admin", label: "administrador" },
  { email: "equipe@sinapse.demo", name: "Beatriz Gonçalves Lima", role: "staff", label: "equipe" },
  { email: "medico@sinapse.demo", name: "Dr. Ricardo Almeida Figueiredo", role: "doctor", label: "médico" },
];

/**
 * Tables the seed owns, children first. `--force` empties them (and the accounts) before seeding.
 * Clinic settings and the Google connection/files are configuration, not demo data: kept.
 */
const SEEDED_TABLES = [
  "automation_rules",
  "messages",
  "message_templates",
  "subtasks",
  "tasks",
  "surgery_fee_lines",
  "pipeline_stages",
  "financial_transactions",
  "orders",
  "surgeries",
  "appointments",
  "referrers",
  "sops",
  "medical_codes",
  "reference_fee_schedules",
  "suppliers",
  "hospitals",
  "payers",
  "doctors",
  "patients",
  "sessions",
  "user_roles",
  "profiles",
  "audit_log",
  "users",
] as const;

// ── small helpers ───────────────────────────────────────────────────────────

/** Inserts rows in chunks and returns their ids in the order of `rows`. */
function insertRows<T extends SQLiteTable & { id: SQLiteColumn }>(tx: Tx, table: T, rows: T["$inferInsert"][]): number[] {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- generic over tables
    const result = (tx.insert(table as any).values(chunk as any) as any).returning({ id: table.id }).all() as Array<{ id: number }>;
    // One multi-row INSERT assigns increasing rowids in VALUES order.
    ids.push(...result.map((r) => r.id).sort((a, b) => a - b));
  }
  return ids;
}

function slug(text: string): string {
  return normalizeSearch(text).replace(/[^a-z0-9]+/g, ".").replace(/^\.|\.$/g, "");
}

function roundCents(value: number): number {
  return Math.round(value);
}

function minDate(a: number, b: number): Date {
  return new Date(Math.min(a, b));
}

function renderTemplate(body: string, values: Record<string, string>): string {
  return body.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (match, key: string) => values[key] ?? match);
}

interface Interval {
  start: number;
  end: number;
}

function overlaps(list: Interval[] | undefined, start: number, end: number): boolean {
  return !!list?.some((i) => i.start < end && start < i.end);
}

// ── the seed ────────────────────────────────────────────────────────────────

function wipe(tx: Tx) {
  // Checked at COMMIT, so the delete order cannot trip a foreign key midway.
  tx.run(sql`PRAGMA defer_foreign_keys = ON`);
  for (const table of SEEDED_TABLES) tx.run(sql.raw(`DELETE FROM "${table}"`));
  const names = SEEDED_TABLES.map((t) => `'${t}'`).join(", ");
  tx.run(sql.raw(`DELETE FROM sqlite_sequence WHERE name IN (${names})`));
}

function seed(tx: Tx, passwordHashes: string[], now: Date) {
  const random = new Random(SEED);
  const nowMs = now.getTime();
  const today = isoDay(now);

  // ── accounts ──
  const userIds = insertRows(
    tx,
    schema.users,
    LOGINS.map((login, i) => ({
      email: login.email,
      passwordHash: passwordHashes[i],
      searchText: buildSearchText(login.name, login.email),
    })),
  );
  const [adminId, staffId, doctorUserId] = userIds;
  tx.insert(schema.profiles).values(LOGINS.map((login, i) => ({ id: userIds[i], name: login.name }))).run();
  tx.insert(schema.userRoles)
    .values(LOGINS.map((login, i) => ({ userId: userIds[i], role: login.role, grantedBy: i === 0 ? null : adminId })))
    .run();
  const officeUsers = [staffId, staffId, adminId];

  // ── master data ──
  const payerRows = PAYERS.map((p) => {
    const cnpj = p.type === "private" ? null : generateCnpj(random);
    return {
      name: p.name,
      type: p.type,
      cnpj,
      contactEmail: p.email,
      contactPhone: p.phone,
      paymentTermsDays: p.paymentTermsDays,
      coveragePercentage: p.coveragePercentage,
      active: true,
      notes: p.notes,
      searchText: buildSearchText(p.name, formatCnpj(cnpj), p.email, PAYER_TYPE_LABELS[p.type]),
    };
  });
  const payerIds = insertRows(tx, schema.payers, payerRows);
  const payerByName = new Map(PAYERS.map((p, i) => [p.name, { ...p, id: payerIds[i] }]));

  const hospitalIds = insertRows(
    tx,
    schema.hospitals,
    HOSPITALS.map((h) => {
      const cnpj = generateCnpj(random);
      return {
        name: h.name,
        cnpj,
        address: h.address,
        city: h.city,
        state: "SP",
        postalCode: h.postalCode,
        contactEmail: h.email,
        contactPhone: h.phone,
        type: h.type,
        accreditation: h.accreditation,
        active: true,
        notes: h.type === "public" ? "Atendimento de pacientes SUS via regulação (CROSS)." : null,
        searchText: buildSearchText(h.name, h.city, formatCnpj(cnpj), HOSPITAL_TYPE_LABELS[h.type]),
      };
    }),
  );
  const hospitals = HOSPITALS.map((h, i) => ({ ...h, id: hospitalIds[i] }));

  const supplierIds = insertRows(
    tx,
    schema.suppliers,
    SUPPLIERS.map((s) => {
      const cnpj = generateCnpj(random);
      return {
        name: s.name,
        cnpj,
        type: s.type,
        contactEmail: s.email,
        contactPhone: s.phone,
        address: s.address,
        paymentTermsDays: s.paymentTermsDays,
        qualityRating: s.qualityRating,
        active: s.name !== "LavClean Esterilização",
        notes: s.notes,
        searchText: buildSearchText(s.name, formatCnpj(cnpj), s.email, SUPPLIER_TYPE_LABELS[s.type]),
      };
    }),
  );
  const supplierByName = new Map(SUPPLIERS.map((s, i) => [s.name, { ...s, id: supplierIds[i] }]));

  const codeRows: Array<typeof schema.medicalCodes.$inferInsert> = [];
  for (const p of PROCEDURES) {
    const code = cbhpmCode(p.tuss);
    codeRows.push({
      code,
      type: "cbhpm",
      description: p.description,
      category: p.category,
      priceCents: PORTE_2017_CENTS[p.porte],
      active: true,
      searchText: buildSearchText(code, p.description, p.category, MEDICAL_CODE_TYPE_LABELS.cbhpm),
    });
  }
  for (const p of PROCEDURES.filter((_, i) => i % 2 === 0)) {
    codeRows.push({
      code: p.tuss,
      type: "tuss",
      description: p.description,
      category: p.category,
      priceCents: null,
      active: true,
      searchText: buildSearchText(p.tuss, p.description, p.category, MEDICAL_CODE_TYPE_LABELS.tuss),
    });
  }
  for (const c of ICD10_CODES) {
    codeRows.push({
      code: c.code,
      type: "icd10",
      description: c.description,
      category: c.category,
      priceCents: null,
      active: true,
      searchText: buildSearchText(c.code, c.description, c.category, MEDICAL_CODE_TYPE_LABELS.icd10),
    });
  }
  for (const c of CUSTOM_CODES) {
    codeRows.push({
      code: c.code,
      type: "custom",
      description: c.description,
      category: c.category,
      priceCents: c.priceCents,
      active: c.code !== "SIN-TELE-01",
      searchText: buildSearchText(c.code, c.description, c.category, MEDICAL_CODE_TYPE_LABELS.custom),
    });
  }
  const codeIds = insertRows(tx, schema.medicalCodes, codeRows);
  const cbhpmCodeId = new Map(codeRows.map((row, i) => [`${row.type}:${row.code}`, codeIds[i]]));

  // Reference tables: CBHPM 2017, two payers' negotiated TUSS tables for this year, private prices.
  const year = Number(today.slice(0, 4));
  const scheduleRows: Array<typeof schema.referenceFeeSchedules.$inferInsert> = [];
  for (const p of PROCEDURES) {
    const base = PORTE_2017_CENTS[p.porte];
    scheduleRows.push({ kind: "CBHPM", year: 2017, version: "", code: cbhpmCode(p.tuss), description: p.description, baseValueCents: base });
    for (const payer of ["Unimed", "Bradesco Saúde"]) {
      const factor = payerByName.get(payer)!.feeFactor;
      scheduleRows.push({ kind: "TUSS", year, version: payer, code: p.tuss, description: p.description, baseValueCents: roundCents(base * factor) });
    }
  }
  for (const c of CUSTOM_CODES) {
    scheduleRows.push({ kind: "CUSTOM", year, version: "Particular", code: c.code, description: c.description, baseValueCents: c.priceCents });
  }
  insertRows(tx, schema.referenceFeeSchedules, scheduleRows);

  // ── doctors ──
  const doctorIds = insertRows(
    tx,
    schema.doctors,
    DOCTORS.map((d, i) => {
      const phone = i % 2 === 0 ? generateMobile(random) : generateLandline(random);
      return {
        name: d.name,
        specialty: d.specialty,
        crm: d.crm,
        crmUf: d.crmUf,
        phone,
        email: d.email,
        commissionRate: d.commissionRate,
        active: true,
        userId: d.email === "medico@sinapse.demo" ? doctorUserId : null,
        searchText: doctorSearchText({ name: d.name, specialty: d.specialty, crm: d.crm, crmUf: d.crmUf as BrazilUf, email: d.email, phone }),
      };
    }),
  );
  const doctors = DOCTORS.map((d, i) => ({
    ...d,
    id: doctorIds[i],
    location:
      d.area === "cranio"
        ? "Consultório Paulista – Av. Paulista, 1578, conj. 1204"
        : "Consultório Moema – Av. Ibirapuera, 2120, sala 51",
  }));
  const surgeons = doctors.filter((d) => d.area !== "anestesia");
  const anaesthetists = doctors.filter((d) => d.area === "anestesia");

  // ── patients (built in memory first: the agenda decides who is a new patient) ──
  interface PatientDraft {
    row: typeof schema.patients.$inferInsert;
    name: string;
    phone: string;
    insurance: string | null;
    doctorIndex: number;
    isNew: boolean;
  }
  const usedNames = new Set<string>();
  const usedCpfs = new Set<string>();
  const patients: PatientDraft[] = [];
  while (patients.length < PATIENT_COUNT) {
    const female = random.chance(0.52);
    const first = random.pick(female ? FEMALE_NAMES : MALE_NAMES);
    const [s1, s2] = random.sample(SURNAMES, 2);
    const particle = ["Conceição", "Silva", "Assunção", "Rocha"].includes(s1) && random.chance(0.6) ? "da " : "";
    const name = `${first} ${particle}${s1} ${s2}`;
    if (usedNames.has(name)) continue;
    usedNames.add(name);

    let cpf: string | null = null;
    if (random.chance(0.93)) {
      do cpf = generateCpf(random);
      while (usedCpfs.has(cpf));
      usedCpfs.add(cpf);
    }
    const child = random.chance(0.05);
    const birthYear = child ? random.int(2012, 2021) : random.int(1946, 2004);
    const dateOfBirth = `${birthYear}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`;
    const area = random.weighted([["11", 80], ["12", 5], ["13", 6], ["19", 5], ["21", 4]] as const);
    const phone = generateMobile(random, area);
    const email = random.chance(0.82)
      ? `${slug(first)}.${slug(s2)}${random.chance(0.4) ? random.int(1, 99) : ""}@${random.pick(EMAIL_DOMAINS)}`
      : null;
    const address = random.chance(0.85)
      ? `${random.pick(STREETS)}, ${random.int(10, 3200)} - ${random.pick(NEIGHBORHOODS)}, São Paulo - SP, 0${random.int(1000, 5899)}-${random.digits(3)}`
      : null;
    const insurance = child && random.chance(0.5) ? "Unimed" : random.weighted(INSURANCE_WEIGHTS);
    const optIn = random.chance(0.65);
    const history = random.chance(0.6)
      ? random.sample(MEDICAL_HISTORY, random.int(1, 2)).join(" ")
      : null;
    // Children see the paediatric neurosurgeon; adults a surgeon of any area.
    const doctorIndex = child ? surgeons.findIndex((d) => d.specialty === "Neurocirurgia Pediátrica") : random.int(0, surgeons.length - 1);
    const createdAt = new Date(nowMs - random.int(60, 900) * DAY - random.int(0, 10) * HOUR);
    patients.push({
      name,
      phone,
      insurance,
      doctorIndex,
      isNew: false,
      row: {
        name,
        cpf,
        dateOfBirth,
        phone,
        email,
        address,
        insurance,
        medicalHistory: history,
        whatsappOptIn: optIn,
        whatsappOptInAt: optIn ? new Date(createdAt.getTime() + random.int(0, 30) * DAY) : null,
        searchText: patientSearchText({ name, cpf, email, phone }),
        createdAt,
        updatedAt: createdAt,
      },
    });
  }

  // ── appointments: 6 weeks back, 4 weeks ahead, business hours, no double booking ──
  interface AppointmentDraft {
    patientIndex: number;
    doctorIndex: number;
    start: number;
    end: number;
  }
  const drafts: AppointmentDraft[] = [];
  const doctorBusy = new Map<number, Interval[]>();
  const patientBusy = new Map<number, Interval[]>();
  const patientDays = new Map<number, Set<string>>();
  const byDoctor = surgeons.map((_, i) => patients.map((p, pi) => (p.doctorIndex === i ? pi : -1)).filter((pi) => pi >= 0));
  const busy = (map: Map<number, Interval[]>, key: number) => {
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    return list;
  };

  for (let offset = -42; offset <= 28; offset++) {
    const day = addDays(today, offset);
    if (isWeekend(day)) continue;
    const wd = weekday(day);
    surgeons.forEach((doctor, doctorIndex) => {
      if (!doctor.clinicDays.includes(wd)) return;
      const [open, close] = doctor.clinicPeriod === "morning" ? [8 * 60, 12 * 60] : [13 * 60 + 30, 18 * 60];
      let cursor = open;
      while (cursor < close) {
        const duration = random.pick([30, 30, 45, 60]);
        if (cursor + duration > close) break;
        if (!random.chance(0.62)) {
          cursor += random.pick([15, 30]);
          continue;
        }
        const start = at(day, cursor).getTime();
        const end = start + duration * MINUTE;
        // Mostly the doctor's own patients; sometimes anyone free (second opinions, referrals).
        const pool = random.chance(0.8) && byDoctor[doctorIndex].length ? byDoctor[doctorIndex] : patients.map((_, i) => i);
        let chosen = -1;
        for (let attempt = 0; attempt < 25 && chosen < 0; attempt++) {
          const candidate = random.pick(pool);
          if (patientDays.get(candidate)?.has(day)) continue;
          if (overlaps(patientBusy.get(candidate), start, end)) continue;
          chosen = candidate;
        }
        if (chosen >= 0 && !overlaps(doctorBusy.get(doctorIndex), start, end)) {
          drafts.push({ patientIndex: chosen, doctorIndex, start, end });
          busy(doctorBusy, doctorIndex).push({ start, end });
          busy(patientBusy, chosen).push({ start, end });
          if (!patientDays.has(chosen)) patientDays.set(chosen, new Set());
          patientDays.get(chosen)!.add(day);
        }
        cursor += duration;
      }
    });
  }
  drafts.sort((a, b) => a.start - b.start);

  // About a quarter of the patients seen in the window are new: registered shortly before their first visit.
  const firstVisit = new Map<number, number>();
  for (const d of drafts) if (!firstVisit.has(d.patientIndex)) firstVisit.set(d.patientIndex, d.start);
  for (const [patientIndex, start] of firstVisit) {
    if (!random.chance(0.28)) continue;
    const p = patients[patientIndex];
    p.isNew = true;
    const createdAt = minDate(start - random.int(2, 12) * DAY - random.int(0, 8) * HOUR, nowMs - HOUR);
    p.row.createdAt = createdAt;
    p.row.updatedAt = createdAt;
    if (p.row.whatsappOptIn) p.row.whatsappOptInAt = createdAt;
  }

  const patientIds = insertRows(tx, schema.patients, patients.map((p) => p.row));

  const seenBefore = new Set<number>();
  const appointmentRows = drafts.map((d) => {
    const patient = patients[d.patientIndex];
    const doctor = surgeons[d.doctorIndex];
    const first = patient.isNew && !seenBefore.has(d.patientIndex);
    seenBefore.add(d.patientIndex);
    const type = first
      ? "Primeira consulta"
      : random.weighted([
          ["Retorno", 50],
          ["Pós-operatório", 14],
          ["Avaliação pré-operatória", 12],
          ["Teleconsulta", 10],
          [doctor.area === "coluna" ? "Infiltração" : "Retorno", 5],
        ] as const);
    let status: AppointmentStatus;
    if (d.end <= nowMs) status = random.chance(0.88) ? "completed" : "cancelled";
    else if (d.start <= nowMs) status = "confirmed";
    else if (random.chance(0.05)) status = "cancelled";
    else if (d.start - nowMs < 3 * DAY) status = random.chance(0.7) ? "confirmed" : "scheduled";
    else status = random.chance(0.2) ? "confirmed" : "scheduled";
    const notes = random.weighted([
      [null, 70],
      ["Trazer RM de coluna lombar recente.", 6],
      ["Retorno com resultado de exames.", 8],
      ["Paciente solicitou encaixe por dor intensa.", 4],
      ["Acompanhante virá junto (paciente com dificuldade de locomoção).", 4],
      ["Enviar link da teleconsulta 30 min antes.", type === "Teleconsulta" ? 20 : 0],
    ] as const);
    const createdAt = minDate(d.start - random.int(1, 25) * DAY - random.int(0, 9) * HOUR, nowMs - 10 * MINUTE);
    return {
      patientId: patientIds[d.patientIndex],
      doctorId: doctor.id,
      startTime: new Date(d.start),
      endTime: new Date(d.end),
      status,
      type,
      notes,
      location: type === "Teleconsulta" ? "Teleconsulta (vídeo)" : doctor.location,
      createdBy: random.pick(officeUsers),
      createdAt,
      updatedAt: createdAt,
    } satisfies typeof schema.appointments.$inferInsert;
  });
  insertRows(tx, schema.appointments, appointmentRows);

  // ── surgeries across all ten pipeline stages ──
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

  interface SurgeryDraft {
    stage: PipelineStage;
    type: SurgeryTypeSeed;
    doctorIndex: number;
    patientIndex: number;
    start: number;
    path: PipelineStage[];
    moves: number[];
    payer: string;
    hospital: (typeof hospitals)[number];
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

  // Billing of performed surgeries: oldest paid, then in dispute / billed, newest not yet billed.
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

  interface FeePlan {
    lines: Array<{ doctorId: number; role: "principal" | "auxiliar" | "anestesista"; amountCents: number }>;
    total: number;
  }
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
    if (s.stage === "negado") notes = "Negado pelo convênio: solicitam 6 semanas adicionais de tratamento conservador. Avaliar recurso.";
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
      createdAt,
      updatedAt: new Date(Math.max(s.moves[s.moves.length - 1], paidAt?.getTime() ?? 0, billedAt?.getTime() ?? 0)),
    });
  }
  const surgeryIds = insertRows(tx, schema.surgeries, surgeryRows);
  const surgeryId = new Map(surgeryDrafts.map((s, i) => [s, surgeryIds[i]]));

  const historyRows: Array<typeof schema.pipelineStages.$inferInsert> = [];
  for (const s of surgeryDrafts) {
    s.path.forEach((stage, i) => {
      const movedAt = new Date(s.moves[i]);
      historyRows.push({
        surgeryId: surgeryId.get(s)!,
        stage,
        fromStage: i === 0 ? null : s.path[i - 1],
        movedBy: stage === "em_cirurgia" || stage === "concluido" ? doctorUserId : random.pick(officeUsers),
        createdAt: movedAt,
        updatedAt: movedAt,
      });
    });
  }
  insertRows(tx, schema.pipelineStages, historyRows);

  const feeRows: Array<typeof schema.surgeryFeeLines.$inferInsert> = [];
  for (const [s, plan] of feePlans) {
    const codeId = cbhpmCodeId.get(`cbhpm:${cbhpmCode(s.type.tuss)}`) ?? null;
    const doneAt = new Date(s.moves[s.moves.length - 1]);
    for (const line of plan.lines) feeRows.push({ surgeryId: surgeryId.get(s)!, ...line, medicalCodeId: codeId, createdAt: doneAt, updatedAt: doneAt });
  }
  insertRows(tx, schema.surgeryFeeLines, feeRows);

  // ── finance: the last four months ──
  const transactions: Array<typeof schema.financialTransactions.$inferInsert> = [];
  const addTransaction = (
    type: "receita" | "despesa",
    category: string,
    description: string,
    amountCents: number,
    date: string,
    surgery: number | null = null,
  ) => {
    if (date > today || amountCents <= 0) return;
    const createdAt = minDate(at(date, 10 * 60 + random.int(0, 480)).getTime(), nowMs - MINUTE);
    transactions.push({ type, category, description, amountCents, transactionDate: date, surgeryId: surgery, createdBy: adminId, createdAt, updatedAt: createdAt });
  };
  const fromDay = addDays(today, -120);
  const months = new Set<string>();
  for (let d = fromDay; d <= today; d = addDays(d, 1)) months.add(d.slice(0, 7));
  const monthName = (ym: string) =>
    new Intl.DateTimeFormat("pt-BR", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ym}-15T12:00:00Z`));
  for (const ym of months) {
    const dayOf = (n: number) => `${ym}-${String(n).padStart(2, "0")}`;
    const inRange = (date: string) => date >= fromDay && date <= today;
    const monthly: Array<[string, string, number, number]> = [
      ["Aluguel", `Aluguel do consultório – ${monthName(ym)}`, 1_250_000, 5],
      ["Folha de pagamento", `Salários e encargos – ${monthName(ym)}`, 2_640_000 + random.int(-80_000, 80_000), 5],
      ["Software e sistemas", "Licenças de software (prontuário, PACS, telefonia)", 89_000, 10],
      ["Serviços", "Honorários da contabilidade", 250_000, 15],
      ["Serviços", "Energia elétrica", 78_000 + random.int(0, 35_000), 18],
      ["Serviços", "Internet e telefonia", 32_990, 18],
      ["Impostos", "ISS e tributos federais (Simples Nacional)", 780_000 + random.int(0, 220_000), 20],
    ];
    for (const [category, description, amount, day] of monthly) if (inRange(dayOf(day))) addTransaction("despesa", category, description, amount, dayOf(day));
    if (random.chance(0.6) && inRange(dayOf(12))) addTransaction("despesa", "Marketing", "Campanha de divulgação em redes sociais", 150_000, dayOf(12));
    for (let i = 0; i < 3; i++) {
      const date = dayOf(random.int(1, 28));
      if (inRange(date))
        addTransaction("despesa", "Materiais", random.pick(["Materiais descartáveis do consultório", "Material de escritório", "Kit de infiltração e agulhas espinhais"]), random.int(25_000, 240_000), date);
    }
    // Insurance payouts for consultations come once a month, per payer.
    for (const payer of ["Unimed", "Bradesco Saúde", "SulAmérica", "Amil", "Porto Seguro Saúde"]) {
      const date = dayOf(random.int(8, 18));
      if (inRange(date)) addTransaction("receita", "Consultas", `Repasse ${payer} – consultas do mês anterior`, random.int(35, 80) * (payer === "Amil" ? 12_000 : 15_500), date);
    }
    // Surgical fees of the whole team paid through the hospitals (beyond the surgeries tracked one by one).
    for (const hospital of ["Hospital Santa Aurora", "Hospital São Lucas da Paulista"]) {
      const date = dayOf(random.int(10, 25));
      if (inRange(date)) addTransaction("receita", "Honorários médicos", `Repasse de honorários cirúrgicos – ${hospital}`, random.int(2_200_000, 4_800_000), date);
    }
  }
  // Private consultations actually held in the agenda, one entry per day.
  const privateByDay = new Map<string, { count: number; total: number }>();
  appointmentRows.forEach((a, i) => {
    const patient = patients[drafts[i].patientIndex];
    if (a.status !== "completed" || (patient.insurance && patient.insurance !== "Particular")) return;
    const day = isoDay(a.startTime);
    const entry = privateByDay.get(day) ?? { count: 0, total: 0 };
    entry.count += 1;
    entry.total += a.type === "Teleconsulta" ? 35_000 : a.type === "Infiltração" ? 180_000 : 65_000;
    privateByDay.set(day, entry);
  });
  for (const [day, { count, total }] of [...privateByDay].sort()) {
    addTransaction("receita", "Consultas", `Consultas particulares (${count})`, total, day);
  }
  // Before the agenda window, weekly totals stand in for the private consultations.
  for (let d = addDays(today, -120); d < addDays(today, -42); d = addDays(d, 7)) {
    const count = random.int(4, 11);
    addTransaction("receita", "Consultas", `Consultas particulares – semana de ${formatBrDate(at(d, 12 * 60))} (${count})`, count * 65_000, d);
  }
  for (const [s, paidAt] of paidAtBySurgery) {
    const plan = feePlans.get(s)!;
    addTransaction(
      "receita",
      "Cirurgias",
      `Honorários – ${s.type.name} (${patients[s.patientIndex].name}) – ${s.payer}`,
      plan.total,
      isoDay(paidAt),
      surgeryId.get(s)!,
    );
  }
  for (const s of performed.filter((p) => p.type.opme && p.payer === "Particular")) {
    addTransaction("despesa", "OPME", `OPME – ${s.type.name} (${patients[s.patientIndex].name})`, random.int(800_000, 2_400_000), isoDay(s.start));
  }
  transactions.sort((a, b) => (a.transactionDate < b.transactionDate ? -1 : a.transactionDate > b.transactionDate ? 1 : 0));
  insertRows(tx, schema.financialTransactions, transactions);

  // ── tasks with checklists ──
  interface TaskDraft {
    title: string;
    description: string | null;
    category: TaskCategory;
    priority: TaskPriority;
    status: TaskStatus;
    dueOffset: number | null;
    patientIndex?: number;
    surgery?: SurgeryDraft;
    assigneeId: number;
    subtasks: string[];
  }
  const taskDrafts: TaskDraft[] = [];
  const short = (i: number) => {
    const parts = patients[i].name.split(" ");
    return `${parts[0]} ${parts[parts.length - 1]}`;
  };
  for (const s of surgeryDrafts) {
    const who = short(s.patientIndex);
    if (s.stage === "aguarda_docs")
      taskDrafts.push({
        title: `Coletar documentos para pré-autorização – ${who}`,
        description: `${s.type.name} (${s.payer}). Falta documentação para enviar ao convênio.`,
        category: "surgery",
        priority: "high",
        status: random.pick(["pending", "in_progress"] as const),
        dueOffset: random.int(-2, 5),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: staffId,
        subtasks: ["Pedido médico assinado", "Laudo de RM recente", "Cópia da carteirinha e documento", "Relatório clínico com CID-10"],
      });
    if (s.stage === "opme_cotacao")
      taskDrafts.push({
        title: `Cotar OPME – ${s.type.name}`,
        description: `Paciente ${who}. O convênio exige três cotações de fornecedores diferentes.`,
        category: "surgery",
        priority: "high",
        status: "in_progress",
        dueOffset: random.int(1, 6),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: staffId,
        subtasks: ["Cotação NeoSpine", "Cotação Vértebra", "Cotação NeuroMed", "Enviar cotações ao convênio"],
      });
    if (s.stage === "aguardando_parecer")
      taskDrafts.push({
        title: `Cobrar parecer do convênio – ${s.payer} (${who})`,
        description: s.path.includes("enviado_pre_aut") ? "Guia enviada; prazo da ANS para resposta: até 21 dias úteis." : null,
        category: "administrative",
        priority: "medium",
        status: "pending",
        dueOffset: random.int(-4, 4),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: staffId,
        subtasks: [],
      });
    if (s.stage === "agendado")
      taskDrafts.push({
        title: `Confirmar sala e materiais – ${who} (${formatBrDate(s.start)})`,
        description: `${s.type.name} no ${s.hospital.name}.`,
        category: "scheduling",
        priority: "medium",
        status: random.pick(["pending", "in_progress"] as const),
        dueOffset: Math.max(0, Math.round((s.start - nowMs) / DAY) - 2),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: staffId,
        subtasks: ["Reservar sala no centro cirúrgico", "Confirmar microscópio e intensificador de imagem", "Enviar orientações pré-operatórias ao paciente"],
      });
    if (s.stage === "negado")
      taskDrafts.push({
        title: `Preparar recurso da negativa – ${who}`,
        description: "Reunir evolução clínica e falha do tratamento conservador para o recurso.",
        category: "surgery",
        priority: "high",
        status: "pending",
        dueOffset: random.int(-1, 3),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: doctorUserId,
        subtasks: ["Relatório médico detalhado", "Anexar laudos e evolução da fisioterapia"],
      });
    const billing = receivable.get(s);
    if (billing === "glosa" || billing === "pendente")
      taskDrafts.push({
        title: billing === "glosa" ? `Recurso de glosa – ${s.payer}` : `Cobrar pagamento em atraso – ${s.payer}`,
        description: `${s.type.name}, paciente ${who}.`,
        category: "administrative",
        priority: billing === "glosa" ? "high" : "medium",
        status: "pending",
        dueOffset: random.int(-6, 2),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: adminId,
        subtasks: billing === "glosa" ? ["Conferir demonstrativo de glosa", "Redigir recurso", "Protocolar no portal do convênio"] : [],
      });
  }
  const general: Array<Omit<TaskDraft, "patientIndex" | "surgery">> = [
    { title: "Renovar alvará da Vigilância Sanitária", description: "Vence no fim do mês; agendar vistoria.", category: "administrative", priority: "high", status: "pending", dueOffset: 18, assigneeId: adminId, subtasks: ["Separar licença atual e plantas", "Pagar taxa (DAMSP)", "Agendar vistoria"] },
    { title: "Conferir repasses dos convênios do mês", description: null, category: "administrative", priority: "medium", status: "in_progress", dueOffset: 3, assigneeId: adminId, subtasks: ["Unimed", "Bradesco Saúde", "SulAmérica", "Amil"] },
    { title: "Atualizar tabela de preços particulares", description: "Reajuste anual pelo IPCA.", category: "administrative", priority: "low", status: "pending", dueOffset: 35, assigneeId: adminId, subtasks: [] },
    { title: "Reagendar pacientes da Dra. Helena (congresso)", description: "Congresso Brasileiro de Neurocirurgia: sem agenda na semana.", category: "scheduling", priority: "high", status: "in_progress", dueOffset: 2, assigneeId: staffId, subtasks: ["Listar pacientes afetados", "Ligar e oferecer novos horários", "Atualizar agenda"] },
    { title: "Organizar escala de férias da recepção", description: null, category: "scheduling", priority: "medium", status: "pending", dueOffset: 12, assigneeId: staffId, subtasks: [] },
    { title: "Treinamento da equipe no Sinapse", description: "Cadastro de pacientes, agenda e pipeline cirúrgico.", category: "general", priority: "medium", status: "completed", dueOffset: -10, assigneeId: adminId, subtasks: ["Módulo de pacientes", "Agenda e confirmações", "Pipeline cirúrgico"] },
    { title: "Comprar materiais de escritório", description: null, category: "general", priority: "low", status: "completed", dueOffset: -5, assigneeId: staffId, subtasks: ["Papel A4", "Toner da impressora"] },
    { title: "Revisar POP de confirmação de consultas", description: "Incluir o envio automático pelo WhatsApp.", category: "general", priority: "medium", status: "pending", dueOffset: -3, assigneeId: adminId, subtasks: [] },
    { title: "Responder avaliações dos pacientes no Google", description: null, category: "general", priority: "low", status: "pending", dueOffset: null, assigneeId: staffId, subtasks: [] },
    { title: "Enviar notas fiscais de honorários à Unimed", description: null, category: "administrative", priority: "medium", status: "completed", dueOffset: -8, assigneeId: adminId, subtasks: [] },
  ];
  taskDrafts.push(...general);

  const taskRows = taskDrafts.map((t) => {
    const createdAt = new Date(nowMs - random.int(2, 20) * DAY - random.int(0, 8) * HOUR);
    const completedAt = t.status === "completed" ? new Date(Math.min(nowMs - HOUR, createdAt.getTime() + random.int(1, 6) * DAY)) : null;
    return {
      title: t.title,
      description: t.description,
      priority: t.priority,
      status: t.status,
      category: t.category,
      dueDate: t.dueOffset === null ? null : addDays(today, t.dueOffset),
      patientId: t.patientIndex === undefined ? null : patientIds[t.patientIndex],
      surgeryId: t.surgery ? surgeryId.get(t.surgery)! : null,
      assigneeId: t.assigneeId,
      completedAt,
      createdBy: random.pick(officeUsers),
      searchText: buildSearchText(t.title, t.description),
      createdAt,
      updatedAt: completedAt ?? createdAt,
    } satisfies typeof schema.tasks.$inferInsert;
  });
  const taskIds = insertRows(tx, schema.tasks, taskRows);
  const subtaskRows: Array<typeof schema.subtasks.$inferInsert> = [];
  taskDrafts.forEach((t, i) => {
    const done = t.status === "completed" ? t.subtasks.length : t.status === "in_progress" ? random.int(1, Math.max(1, t.subtasks.length - 1)) : random.int(0, 1);
    t.subtasks.forEach((title, position) => subtaskRows.push({ taskId: taskIds[i], title, position, completed: position < done }));
  });
  insertRows(tx, schema.subtasks, subtaskRows);

  // ── SOPs ──
  insertRows(
    tx,
    schema.sops,
    SOPS.map((s, i) => {
      const createdAt = new Date(nowMs - (400 - i * 45) * DAY);
      return {
        title: s.title,
        category: s.category,
        contentMd: s.contentMd,
        status: s.status,
        version: s.version,
        createdBy: adminId,
        searchText: buildSearchText(s.title, s.category),
        createdAt,
        updatedAt: new Date(createdAt.getTime() + (s.version - 1) * 30 * DAY),
      };
    }),
  );

  // ── orders: OPME for surgeries in progress plus clinic purchases ──
  const OPME_ITEMS: Record<string, Array<{ description: string; quantity: number; unitCents: number }>> = {
    "30715016": [
      { description: "Parafuso pedicular poliaxial 6,5 x 45 mm", quantity: 4, unitCents: 180_000 },
      { description: "Haste de titânio 5,5 x 80 mm", quantity: 2, unitCents: 95_000 },
      { description: "Cage intersomático PEEK TLIF 10 mm", quantity: 1, unitCents: 420_000 },
    ],
    "30715393": [
      { description: "Placa cervical anterior 1 nível", quantity: 1, unitCents: 380_000 },
      { description: "Cage cervical PEEK 6 mm", quantity: 1, unitCents: 310_000 },
    ],
    "30715563": [
      { description: "Kit de cifoplastia com balão", quantity: 1, unitCents: 860_000 },
      { description: "Cimento ósseo PMMA de alta viscosidade", quantity: 1, unitCents: 120_000 },
    ],
    "30715598": [{ description: "Prótese de disco cervical", quantity: 1, unitCents: 1_900_000 }],
    "31401171": [{ description: "Clipe de aneurisma em titânio", quantity: 2, unitCents: 280_000 }],
    "31401236": [{ description: "Válvula de DVP de pressão programável", quantity: 1, unitCents: 1_250_000 }],
  };
  const orderStatusByStage: Partial<Record<PipelineStage, OrderStatus>> = {
    opme_cotacao: "pending",
    aprovado: "approved",
    agendado: "ordered",
    em_cirurgia: "delivered",
    concluido: "delivered",
    cancelado: "cancelled",
  };
  const orderRows: Array<typeof schema.orders.$inferInsert> = [];
  const addOrder = (
    orderType: string,
    status: OrderStatus,
    supplierName: string | null,
    items: Array<{ description: string; quantity: number; unitCents: number }>,
    createdAtMs: number,
    patientIndex: number | null,
    extra: { notes?: string; surgeryId?: number } = {},
  ) => {
    const supplier = supplierName ? supplierByName.get(supplierName)! : null;
    const createdAt = minDate(createdAtMs, nowMs - MINUTE);
    const patientName = patientIndex === null ? null : patients[patientIndex].name;
    orderRows.push({
      patientId: patientIndex === null ? null : patientIds[patientIndex],
      orderType,
      status,
      supplierId: supplier?.id ?? null,
      totalCents: items.reduce((sum, item) => sum + item.quantity * item.unitCents, 0),
      detailsJson: { items, notes: extra.notes ?? null, surgeryId: extra.surgeryId ?? null },
      createdBy: random.pick(officeUsers),
      searchText: buildSearchText(orderType, patientName, supplier?.name, ...items.map((item) => item.description)),
      createdAt,
      updatedAt: createdAt,
    });
  };
  for (const s of surgeryDrafts) {
    const items = OPME_ITEMS[s.type.tuss];
    const status = orderStatusByStage[s.stage];
    if (!items || !status || !s.path.includes("opme_cotacao")) continue;
    if (s.stage === "concluido" && s.start < nowMs - 60 * DAY) continue;
    const supplier = s.type.area === "cranio" ? "NeuroMed Materiais Neurocirúrgicos" : s.type.tuss === "30715563" ? "Vértebra Distribuidora de OPME" : "NeoSpine Implantes Ortopédicos Ltda";
    const quoteAt = s.moves[s.path.indexOf("opme_cotacao")];
    addOrder("OPME", status, supplier, items, quoteAt, s.patientIndex, { surgeryId: surgeryId.get(s)!, notes: `${s.type.name} – ${s.hospital.name}` });
  }
  addOrder("Medicamentos", "delivered", "FarmaHosp Distribuidora de Medicamentos", [
    { description: "Dexametasona 4 mg/ml – ampola", quantity: 50, unitCents: 390 },
    { description: "Lidocaína 2% sem vasoconstritor 20 ml", quantity: 30, unitCents: 650 },
    { description: "Triancinolona hexacetonida 20 mg/ml", quantity: 10, unitCents: 6_900 },
  ], nowMs - 40 * DAY, null, { notes: "Reposição para infiltrações." });
  addOrder("Material de consultório", "delivered", "Cirúrgica Paulista Suprimentos", [
    { description: "Luvas de procedimento M (caixa com 100)", quantity: 20, unitCents: 3_290 },
    { description: "Papel lençol 70 cm x 50 m", quantity: 12, unitCents: 2_150 },
    { description: "Agulha espinhal 22G x 3,5\"", quantity: 40, unitCents: 1_480 },
  ], nowMs - 25 * DAY, null);
  addOrder("Material de consultório", "ordered", "Cirúrgica Paulista Suprimentos", [
    { description: "Seringa descartável 10 ml (caixa com 100)", quantity: 3, unitCents: 8_900 },
    { description: "Álcool 70% 1 litro", quantity: 12, unitCents: 1_290 },
  ], nowMs - 3 * DAY, null);
  addOrder("Locação de equipamento", "approved", "Imagem Cirúrgica Equipamentos Médicos", [
    { description: "Locação de neuronavegador – diária", quantity: 1, unitCents: 450_000 },
  ], nowMs - 6 * DAY, null, { notes: "Para cirurgia de tumor intracraniano agendada." });
  addOrder("Equipamento", "pending", "Imagem Cirúrgica Equipamentos Médicos", [
    { description: "Manutenção preventiva do aparelho de eletroneuromiografia", quantity: 1, unitCents: 180_000 },
  ], nowMs - 1 * DAY, null);
  addOrder("Esterilização", "cancelled", "LavClean Esterilização", [
    { description: "Esterilização de caixas de instrumental (mensal)", quantity: 1, unitCents: 180_000 },
  ], nowMs - 50 * DAY, null, { notes: "Contrato suspenso." });
  addOrder("Exame de imagem", "approved", null, [
    { description: "Ressonância magnética de coluna lombar com contraste", quantity: 1, unitCents: 95_000 },
  ], nowMs - 2 * DAY, surgicalPatients[surgicalPatients.length - 1], { notes: "Paciente particular; laboratório a definir." });
  orderRows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
  insertRows(tx, schema.orders, orderRows);

  // ── referrers ──
  insertRows(
    tx,
    schema.referrers,
    REFERRERS.map((r) => {
      const phone = generateLandline(random);
      return {
        name: r.name,
        specialty: r.specialty,
        crm: r.crm,
        phone,
        email: r.email,
        commissionRate: 0,
        notes: r.notes,
        active: true,
        searchText: buildSearchText(r.name, r.specialty, r.crm, r.email, formatPhone(phone)),
      };
    }),
  );

  // ── messaging: templates, rules and a month of messages ──
  const templateIds = insertRows(
    tx,
    schema.messageTemplates,
    MESSAGE_TEMPLATES.map((t, i) => {
      const createdAt = new Date(nowMs - (200 - i * 7) * DAY);
      return { title: t.title, category: t.category, status: t.status, body: t.body, createdAt, updatedAt: createdAt };
    }),
  );
  const templateByTitle = new Map(MESSAGE_TEMPLATES.map((t, i) => [t.title, { ...t, id: templateIds[i] }]));
  insertRows(
    tx,
    schema.automationRules,
    AUTOMATION_RULES.map((r) => ({
      name: r.name,
      templateId: templateByTitle.get(r.templateTitle)!.id,
      trigger: r.trigger,
      offsetMinutes: r.offsetMinutes,
      enabled: r.enabled,
    })),
  );

  const messageRows: Array<typeof schema.messages.$inferInsert> = [];
  // Reminders go out the day before; thank-you notes after completed visits. Only what is already due.
  const recent = appointmentRows
    .map((a, i) => ({ a, d: drafts[i] }))
    .filter(
      ({ a, d }) =>
        patients[d.patientIndex].row.whatsappOptIn &&
        a.startTime.getTime() > nowMs - 28 * DAY &&
        a.startTime.getTime() < nowMs + 20 * HOUR &&
        a.status !== "cancelled",
    );
  for (const { a, d } of random.sample(recent, Math.min(18, recent.length))) {
    const patient = patients[d.patientIndex];
    const doctor = surgeons[d.doctorIndex];
    const start = a.startTime.getTime();
    const reminder = a.status !== "completed" || random.chance(0.5);
    const template = templateByTitle.get(
      reminder ? random.pick(["Confirmação de consulta", "Lembrete 24h antes"]) : random.pick(["Agradecimento pós-consulta", "Orientações e exames solicitados"]),
    )!;
    const sentAt = reminder ? Math.min(start - random.int(20, 30) * HOUR, nowMs - 5 * MINUTE) : Math.min(a.endTime.getTime() + random.int(1, 5) * HOUR, nowMs - 5 * MINUTE);
    const ageHours = (nowMs - sentAt) / HOUR;
    const status: MessageStatus =
      ageHours < 0.5
        ? "queued"
        : random.weighted([
            ["read", ageHours > 6 ? 6 : 2],
            ["delivered", 4],
            ["sent", ageHours > 24 ? 1 : 3],
            ["failed", 1],
          ] as const);
    const body = renderTemplate(template.body, {
      "paciente.nome": patient.name,
      "medico.nome": doctor.name,
      data: formatBrDate(start),
      horario: formatBrTime(start),
      local: a.location ?? "",
      link_confirmacao: `https://sinapse.demo/c/${random.int(100_000, 999_999).toString(36)}`,
    });
    messageRows.push({
      patientId: patientIds[d.patientIndex],
      templateId: template.id,
      patientName: patient.name,
      templateTitle: template.title,
      body,
      toPhone: `+55${patient.phone}`,
      status,
      error: status === "failed" ? "Número não possui conta no WhatsApp." : null,
      externalId: status === "queued" || status === "failed" ? null : `wamid.${random.int(1e8, 9e8).toString(36)}${random.int(1e8, 9e8).toString(36)}`,
      sentBy: random.chance(0.6) ? null : staffId,
      createdAt: new Date(sentAt),
      updatedAt: new Date(sentAt),
    });
  }
  messageRows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
  insertRows(tx, schema.messages, messageRows);
}

function countRows(): Array<[string, number]> {
  return SEEDED_TABLES.filter((t) => t !== "sessions" && t !== "audit_log")
    .slice()
    .reverse()
    .map((t) => [t, (sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]);
}

async function main() {
  const force = process.argv.includes("--force");
  runMigrations(sqlite);

  const existing = sqlite.prepare("SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM patients) AS patients").get() as {
    users: number;
    patients: number;
  };
  if ((existing.users > 0 || existing.patients > 0) && !force) {
    console.error(
      `Recusado: o banco ${databasePath} já tem dados (${existing.users} usuário(s), ${existing.patients} paciente(s)).\n` +
        "O seed de demonstração só roda num banco vazio. Para APAGAR os dados e recriar a demonstração, rode:\n" +
        "  npm run seed:demo -- --force",
    );
    process.exit(1);
  }

  const started = Date.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = new Date();
  db.transaction(
    (tx) => {
      if (force) wipe(tx);
      seed(
        tx,
        LOGINS.map(() => passwordHash),
        now,
      );
    },
    { behavior: "immediate" },
  );

  // Cheap self-checks of the generated documents (a broken generator would fail loudly here).
  const badCpf = (sqlite.prepare("SELECT cpf FROM patients WHERE cpf IS NOT NULL").all() as Array<{ cpf: string }>).filter((r) => !isValidCpf(r.cpf));
  const badCnpj = (
    sqlite.prepare("SELECT cnpj FROM payers WHERE cnpj IS NOT NULL UNION ALL SELECT cnpj FROM hospitals UNION ALL SELECT cnpj FROM suppliers").all() as Array<{
      cnpj: string | null;
    }>
  ).filter((r) => r.cnpj && !isValidCnpj(r.cnpj));
  if (badCpf.length || badCnpj.length) throw new Error(`Documentos inválidos gerados: ${badCpf.length} CPF, ${badCnpj.length} CNPJ`);

  console.log(`Demonstração criada em ${databasePath} (${Date.now() - started} ms).\n`);
  for (const [table, n] of countRows()) console.log(`  ${table.padEnd(26)} ${n}`);
  console.log("\nLogins (senha para todos: demo12345):");
  for (const login of LOGINS) console.log(`  ${login.email.padEnd(22)} ${login.label}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
