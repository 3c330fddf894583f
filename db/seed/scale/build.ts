import type Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { normalizeEmail } from "../../../app/.server/credentials";
import { hashPassword } from "../../../app/.server/password";
import { fillSearchKeys } from "../../../app/.server/search-keys";
import type { AppointmentStatus } from "../../../app/lib/enums";
import { buildSearchText } from "../../../app/lib/search";
import * as schema from "../../schema";
import { SURGERY_TYPES } from "../catalog";
import { seedContext } from "../context";
import { seedMasterData, seedReferrers } from "../master-data";
import { Random } from "../random";
import { addDays, DAY, HOUR, isoDay, MINUTE } from "../time";
import { Batch, Quota, type SeededRows } from "./batch";
import { Calendar, dayOfIso, isoOfDay, weekdayOfDay } from "./calendar";
import {
  clinicSlots,
  insertDoctors,
  isLastOfBlock,
  planDoctors,
  ramp,
  rememberPatient,
  recentPatient,
  type ScaleDoctor,
  SLOT_MIN,
  slotMinutes,
  worksOn,
} from "./doctors";
import { writeAuditTrail } from "./audit";
import { writeTransactions } from "./finance";
import { WeightedTable } from "./names";
import { referralWriter } from "./referrals";
import { PatientBook } from "./patients";
import { OpmeWriter } from "./opme";
import { SurgeryWriter } from "./surgeries";
import { WHATSAPP_YEARS, writeMessages } from "./messages";
import { writeTasks } from "./tasks";
import { writeDocuments } from "./documents";

/** The full-size practice (SCALE_FACTOR=1): 20 years of a large neurosurgery and spine group. */
export const SCALE_BASE = { patients: 200_000, appointments: 1_000_000, surgeries: 100_000, transactions: 500_000, auditEntries: 2_000_000, tasks: 60_000, messages: 200_000 } as const;
export const SCALE_YEARS = 20;
export const DEFAULT_SCALE_SEED = 20_050_301;
/** Mixed into the seed for the OPME requests' own random stream ("OPME" in ASCII). */
const OPME_STREAM = 0x4f504d45;
/** Mixed into the seed for the audit trail's own random stream ("AUDT" in ASCII). */
const AUDIT_STREAM = 0x41554454;
/** Mixed into the seed for the tasks' own random stream ("TASK" in ASCII). */
const TASK_STREAM = 0x5441534b;
/** Mixed into the seed for the WhatsApp messages' own random stream ("WAPP" in ASCII). */
const MESSAGE_STREAM = 0x57415050;
/** Mixed into the seed for the referrers' and referrals' own random stream ("REFR" in ASCII). */
const REFERRAL_STREAM = 0x52454652;
/** Mixed into the seed for the documents' own random stream ("DOCS" in ASCII). */
const DOCUMENT_STREAM = 0x444f4353;


export interface ScaleOptions {
  factor: number;
  seed: number;
  /** The build's clock: everything is placed relative to it (20 years back, a few months ahead). */
  now: Date;
  adminEmail: string;
  adminPassword: string;
  adminName?: string;
  log?: (message: string) => void;
}

export interface ScaleResult {
  targets: ReturnType<typeof scaleTargets>;
  counts: Record<string, number>;
  adminEmail: string;
  elapsedMs: number;
}

export function scaleTargets(factor: number) {
  return {
    patients: Math.round(SCALE_BASE.patients * factor),
    appointments: Math.round(SCALE_BASE.appointments * factor),
    surgeries: Math.round(SCALE_BASE.surgeries * factor),
    transactions: Math.round(SCALE_BASE.transactions * factor),
    auditEntries: Math.round(SCALE_BASE.auditEntries * factor),
    tasks: Math.round(SCALE_BASE.tasks * factor),
    messages: Math.round(SCALE_BASE.messages * factor),
  };
}

/** The big tables, whose secondary indexes are built once after the load rather than row by row. */
export const BULK_TABLES = [
  "patients",
  "appointments",
  "surgeries",
  "pipeline_stages",
  "surgery_fee_lines",
  "financial_transactions",
  "opme_items",
  "opme_quotes",
  "opme_quote_prices",
  "audit_log",
  "tasks",
  "subtasks",
  "messages",
  "documents",
];

/**
 * The indexes the triggers read (the KPI ones of migrations 0024, 0027 and 0030 on every insert): a
 * surgery's earlier visits and surgeries of its patient, a surgery's stage history and fee lines,
 * an OPME request's quotes and items, an item's prices; a patient's documents (migration 0050's trigger re-indexes
 * them when the patient's key changes). Without them each insert scans the table written so far, and
 * the build grows with the square of its size (without the OPME two, a full-size build took over
 * half an hour). tests/unit/seed-scale.test.ts plans every trigger without the others.
 */
export const TRIGGER_INDEXES = [
  "appointments_patient_start_idx",
  "surgeries_patient_created_idx",
  "pipeline_stages_surgery_created_idx",
  "surgery_fee_lines_surgery_idx",
  "opme_quotes_request_supplier_idx",
  "opme_items_request_position_idx",
  "opme_quote_prices_item_idx",
  "documents_patient_created_idx",
];

/**
 * Drops the plain (non-unique) indexes of the big tables and returns a function that recreates
 * them from their own stored SQL: sorting a million keys once is far cheaper than a million
 * B-tree insertions into an index bigger than the cache. Unique indexes, the indexes the triggers
 * read (TRIGGER_INDEXES) and the triggers stay.
 */
export function deferIndexes(conn: Database.Database): () => void {
  const list = BULK_TABLES.map((t) => `'${t}'`).join(", ");
  const indexes = (
    conn
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${list}) AND sql NOT LIKE 'CREATE UNIQUE%'`)
      .all() as Array<{ name: string; sql: string }>
  ).filter(({ name }) => !TRIGGER_INDEXES.includes(name));
  for (const { name } of indexes) conn.exec(`DROP INDEX "${name}"`);
  return () => {
    for (const { name, sql } of indexes) {
      if (!conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name)) conn.exec(sql);
    }
  };
}

/** How many rows the build left in each table it writes. */
export function countScaleRows(conn: Database.Database): Record<string, number> {
  const tables = [
    "users",
    "doctors",
    "payers",
    "hospitals",
    "suppliers",
    "medical_codes",
    "referrers",
    "patients",
    "patient_referrals",
    "appointments",
    "surgeries",
    "pipeline_stages",
    "surgery_fee_lines",
    "opme_requests",
    "opme_quotes",
    "financial_transactions",
    "tasks",
    "messages",
    "documents",
    "audit_log",
  ];
  return Object.fromEntries(tables.map((t) => [t, (conn.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]));
}

const APPOINTMENT_NOTES = new WeightedTable<string | null>([
  [null, 80],
  ["Trazer RM de coluna recente.", 5],
  ["Retorno com resultado de exames.", 6],
  ["Paciente solicitou encaixe por dor intensa.", 3],
  ["Acompanhante virá junto (paciente com dificuldade de locomoção).", 3],
  ["Trazer laudos e exames anteriores.", 3],
]);

/** Follow-up visit types: [with teleconsultation (from March 2020)][with infiltrations (spine, pain)]. */
function followUpTypes(tele: boolean, infiltration: boolean) {
  return new WeightedTable<string>([
    ["Retorno", 55],
    ["Pós-operatório", 12],
    ["Avaliação pré-operatória", 10],
    ["Teleconsulta", tele ? 10 : 0],
    ["Infiltração", infiltration ? 8 : 0],
  ]);
}

/**
 * Builds the scale data set into `conn` (already migrated, holding no patients). Deterministic for
 * a given seed, factor and clock. Rows are generated day by day and written in batches, so memory
 * stays bounded whatever the factor.
 */
export async function buildScaleDatabase(conn: Database.Database, options: ScaleOptions): Promise<ScaleResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const targets = scaleTargets(options.factor);
  const random = new Random(options.seed);
  const nowMs = options.now.getTime();
  const todayIso = isoDay(nowMs);
  const today = dayOfIso(todayIso);
  const firstDay = dayOfIso(addDays(`${Number(todayIso.slice(0, 4)) - SCALE_YEARS}-${todayIso.slice(5, 7)}-01`, 0));
  const lastAppointmentDay = today + 60;
  const lastSurgeryDay = today + 120;
  const calendar = new Calendar(firstDay - 60, lastSurgeryDay + 1);
  const foundedMs = calendar.instant(firstDay - 30, 9 * 60);
  const passwordHash = await hashPassword(options.adminPassword);
  const adminEmail = normalizeEmail(options.adminEmail);
  const adminName = options.adminName ?? "Administrador Sinapse";

  // Bulk-load settings for this connection only; the app's own connections keep synchronous=FULL.
  conn.pragma("synchronous = OFF");
  conn.pragma("cache_size = -131072");
  conn.pragma("temp_store = MEMORY");

  // Accounts and Cadastros through the demo seed's own families (Drizzle), in one transaction.
  const orm = drizzle(conn, { schema });
  const { master, adminId } = orm.transaction(
    (tx) => {
      const ctx = seedContext(tx, random, options.now);
      // The same three rows as the demo's accounts family: user (Argon2id hash), profile, role.
      const admin = tx
        .insert(schema.users)
        .values({ email: adminEmail, passwordHash, searchText: buildSearchText(adminName, adminEmail), createdAt: options.now, updatedAt: options.now })
        .returning({ id: schema.users.id })
        .get();
      tx.insert(schema.profiles).values({ id: admin.id, name: adminName, createdAt: options.now, updatedAt: options.now }).run();
      tx.insert(schema.userRoles).values({ userId: admin.id, role: "admin", grantedBy: null, createdAt: options.now, updatedAt: options.now }).run();
      const master = seedMasterData(ctx);
      seedReferrers(ctx);
      return { master, adminId: admin.id };
    },
    { behavior: "immediate" },
  );
  // Cadastros were registered when the practice opened, not at the moment of the build.
  for (const table of ["payers", "hospitals", "suppliers", "medical_codes", "reference_fee_schedules", "referrers"]) {
    conn.prepare(`UPDATE "${table}" SET created_at = ?, updated_at = ?`).run(foundedMs, foundedMs);
  }

  const planned = planDoctors(random, firstDay, today, master.hospitals);
  const doctors = conn.transaction(() => insertDoctors(conn, random, planned, (d) => calendar.instant(d, 0))).immediate();
  const clinicDoctors = doctors.filter((d) => d.clinic.some(Boolean));
  const surgeons = doctors.filter((d) => d.surgeon);
  const anaesthetists = doctors.filter((d) => d.area === "anestesia");

  const baseId = (table: string) => (conn.prepare(`SELECT coalesce(max(id), 0) AS n FROM "${table}"`).get() as { n: number }).n;
  // The ids the build's rows start after (the audit trail and the tasks name them: `SeededRows`).
  const patientBase = baseId("patients");
  const surgeryBase = baseId("surgeries");
  const patients = new PatientBook(conn, random, targets.patients, patientBase, nowMs);
  const surgeries = new SurgeryWriter({
    conn,
    random,
    calendar,
    today,
    nowMs,
    adminId,
    surgeons,
    anaesthetists,
    patients,
    master,
    baseId: surgeryBase,
    capacity: targets.surgeries,
    opme: new OpmeWriter({
      conn,
      // A stream of its own: the other tables of a seed are the same with or without OPME requests.
      random: new Random((options.seed ^ OPME_STREAM) >>> 0),
      calendar,
      nowMs,
      adminId,
      suppliers: [...master.supplierByName.values()].filter((s) => s.type === "opme").map((s) => s.id),
      baseIds: { requests: baseId("opme_requests"), items: baseId("opme_items"), quotes: baseId("opme_quotes") },
    }),
  });
  const appointmentBase = baseId("appointments");
  const insertAppointment = conn.prepare(
    `INSERT INTO appointments (id, patient_id, doctor_id, start_time, end_time, status, type, notes, location, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  // Seasons (quiet holidays in December–January, school holidays in July) and the booking horizon.
  const season = new Float64Array(lastSurgeryDay - firstDay + 1);
  for (let d = firstDay; d <= lastSurgeryDay; d++) {
    const month = Number(isoOfDay(d).slice(5, 7));
    season[d - firstDay] = month === 12 || month === 1 ? 0.75 : month === 7 ? 0.9 : 1;
  }
  // Far-ahead agendas are still filling up; far-ahead surgeries are tentative dates in the pipeline.
  const appointmentHorizon = (d: number) => (d <= today ? 1 : Math.max(0.03, 1 - (d - today) / 60));
  const surgeryHorizon = (d: number) => (d <= today + 30 ? 1 : Math.max(0.4, 1 - (0.6 * (d - today - 30)) / 90));
  const appointmentWeight = (doctor: ScaleDoctor, d: number, wd: number) => {
    const session = doctor.clinic[wd];
    if (!session || !worksOn(doctor, d)) return 0;
    return doctor.occupancy * clinicSlots(session) * ramp(doctor, d) * season[d - firstDay] * appointmentHorizon(d);
  };
  const surgeryWeight = (doctor: ScaleDoctor, d: number, wd: number) => {
    if (!doctor.operating[wd] || !worksOn(doctor, d)) return 0;
    return doctor.surgicalLoad * ramp(doctor, d) * season[d - firstDay] * surgeryHorizon(d) * (wd === 6 ? 0.5 : 1);
  };
  let appointmentWeights = 0;
  let surgeryWeights = 0;
  for (let d = firstDay; d <= lastSurgeryDay; d++) {
    const wd = weekdayOfDay(d);
    if (d <= lastAppointmentDay) for (const doctor of clinicDoctors) appointmentWeights += appointmentWeight(doctor, d, wd);
    for (const doctor of surgeons) surgeryWeights += surgeryWeight(doctor, d, wd);
  }
  const appointmentQuota = new Quota(targets.appointments, appointmentWeights);
  const surgeryQuota = new Quota(targets.surgeries, surgeryWeights);
  const busiest = Math.max(...clinicDoctors.map((d) => d.occupancy));
  log(
    `Agenda: até ${((busiest * targets.appointments) / appointmentWeights).toFixed(2)} da grade ocupada nos dias mais cheios; ` +
      `cirurgias: ${(targets.surgeries / surgeryWeights).toFixed(2)} por dia cirúrgico de um cirurgião de carga 1.`,
  );

  const teleSince = dayOfIso("2020-03-16");
  const visitTypes = [
    [followUpTypes(false, false), followUpTypes(false, true)],
    [followUpTypes(true, false), followUpTypes(true, true)],
  ];
  const order = new Int32Array(64);
  const chosen = new Uint8Array(64);
  const batch = new Batch(conn);
  let appointments = 0;

  /** A returning patient for this doctor on day `d` (one booking per patient per day); -1 if none. */
  const followUp = (doctor: ScaleDoctor, d: number): number => {
    for (let attempt = 0; attempt < 30; attempt++) {
      let p = attempt < 24 && random.chance(0.75) ? recentPatient(doctor, random) : -1;
      if (p < 0) {
        if (patients.count === 0) return -1;
        // Anyone registered so far, most likely someone recent.
        const u = random.next();
        p = patients.count - 1 - Math.floor(patients.count * u * u);
      }
      if (patients.lastDay[p] !== d) return p;
    }
    return -1;
  };

  const refer = conn.transaction(() => referralWriter(conn, new Random((options.seed ^ REFERRAL_STREAM) >>> 0), foundedMs)).immediate();
  const restoreIndexes = deferIndexes(conn);
  batch.begin();
  try {
    for (let d = firstDay; d <= lastSurgeryDay; d++) {
      const wd = weekdayOfDay(d);
      if (d <= lastAppointmentDay) {
        for (const doctor of clinicDoctors) {
          const weight = appointmentWeight(doctor, d, wd);
          if (weight === 0) continue;
          const wanted = appointmentQuota.next(weight);
          if (wanted <= 0) continue;
          const session = doctor.clinic[wd];
          const slots = clinicSlots(session);
          const take = Math.min(wanted, slots);
          // Distinct slots of the grid (a partial shuffle), in time order: no double booking.
          for (let i = 0; i < slots; i++) order[i] = i;
          for (let i = 0; i < take; i++) {
            const j = i + Math.floor(random.next() * (slots - i));
            const t = order[i];
            order[i] = order[j];
            order[j] = t;
          }
          const picked = Array.from(order.subarray(0, take)).sort((a, b) => a - b);
          chosen.fill(0, 0, slots);
          for (const i of picked) chosen[i] = 1;
          let placed = 0;
          const types = visitTypes[d >= teleSince ? 1 : 0][doctor.area === "coluna" || doctor.specialty === "Medicina da Dor" ? 1 : 0];
          for (const slot of picked) {
            const start = calendar.instant(d, slotMinutes(session, slot));
            const remainingPatients = patients.capacity - patients.count;
            const remainingVisits = targets.appointments - appointments;
            let isNew = remainingPatients > 0 && (patients.count === 0 || random.next() * remainingVisits < remainingPatients);
            let patient = isNew ? -1 : followUp(doctor, d);
            if (patient < 0) {
              if (remainingPatients === 0) continue;
              isNew = true;
            }
            if (isNew) {
              patient = patients.create(d, start, doctor.specialty === "Neurocirurgia Pediátrica");
              refer(patients.idOf(patient), patients.createdMs[patient]);
            }
            // First visits take two slots when the next one is free.
            const long = !chosen[slot + 1] && !isLastOfBlock(session, slot) && random.chance(isNew ? 0.8 : 0.2);
            const end = start + (long ? 2 : 1) * SLOT_MIN * MINUTE;
            let status: AppointmentStatus;
            if (end <= nowMs) status = random.chance(0.87) ? "completed" : "cancelled";
            else if (start <= nowMs) status = "confirmed";
            else if (random.chance(0.04)) status = "cancelled";
            else if (start - nowMs < 2 * DAY) status = random.chance(0.7) ? "confirmed" : "scheduled";
            else status = random.chance(0.15) ? "confirmed" : "scheduled";
            const type = isNew ? "Primeira consulta" : types.at(random.next());
            const notes = APPOINTMENT_NOTES.at(random.next());
            const booked = Math.min(
              Math.max(start - random.int(1, 30) * DAY - random.int(0, 9) * HOUR, patients.createdMs[patient] + MINUTE),
              nowMs - 10 * MINUTE,
            );
            const updated = status === "completed" || (status === "cancelled" && end <= nowMs) ? Math.min(end + random.int(5, 180) * MINUTE, nowMs - MINUTE) : booked;
            insertAppointment.run(
              appointmentBase + ++appointments,
              patients.idOf(patient),
              doctor.id,
              start,
              end,
              status,
              type,
              notes,
              type === "Teleconsulta" ? "Teleconsulta (vídeo)" : doctor.location,
              adminId,
              booked,
              Math.max(booked, updated),
            );
            patients.lastDay[patient] = d;
            rememberPatient(doctor, patient);
            placed++;
            batch.written(isNew ? 2 : 1);
          }
          appointmentQuota.giveBack(wanted - placed);
        }
      }
      for (const surgeon of surgeons) {
        const weight = surgeryWeight(surgeon, d, wd);
        if (weight === 0) continue;
        const wanted = surgeryQuota.next(weight);
        if (wanted <= 0) continue;
        // One operating list per surgeon and day, 07:00–19:00, with an hour of turnover between cases.
        let cursor = 7 * 60;
        let placed = 0;
        for (let k = 0; k < wanted && surgeries.count < targets.surgeries; k++) {
          const type = surgeries.pickType(surgeon, 19 * 60 - cursor - 60);
          if (type < 0) break;
          const start = calendar.instant(d, cursor);
          const patient = surgeries.pickPatient(surgeon, d, start);
          if (patient < 0) break;
          batch.written(surgeries.write(surgeon, d, cursor, type, patient));
          cursor += Math.ceil((SURGERY_TYPES[type].durationMin + 60) / 30) * 30;
          placed++;
        }
        surgeryQuota.giveBack(wanted - placed);
      }
      if (isoOfDay(d).endsWith("-01-01") || d === lastSurgeryDay) {
        log(`  ${isoOfDay(d)}: ${patients.count} pacientes, ${appointments} consultas, ${surgeries.count} cirurgias (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
    }
    batch.commit();
    batch.begin();
    writeTransactions({
      conn,
      batch,
      random,
      calendar,
      firstDay,
      today,
      nowMs,
      adminId,
      clinicDoctors,
      money: surgeries.money,
      total: targets.transactions,
    });
    batch.commit();
    const seeded: SeededRows = {
      patients: { base: patientBase, count: patients.count },
      appointments: { base: appointmentBase, count: appointments },
      surgeries: { base: surgeryBase, count: surgeries.count },
    };
    const daily = { conn, batch, calendar, firstDay, today, nowMs, adminId, rows: seeded };
    log(`Tarefas: ${targets.tasks}…`);
    batch.begin();
    writeTasks({ ...daily, random: new Random((options.seed ^ TASK_STREAM) >>> 0), total: targets.tasks });
    batch.commit();
    log(`WhatsApp: ${targets.messages} mensagens dos últimos ${WHATSAPP_YEARS} anos…`);
    batch.begin();
    writeMessages({ ...daily, random: new Random((options.seed ^ MESSAGE_STREAM) >>> 0), total: targets.messages });
    batch.commit();
    log("Documentos dos pacientes: guias, termos, laudos e exames…");
    batch.begin();
    writeDocuments({ ...daily, random: new Random((options.seed ^ DOCUMENT_STREAM) >>> 0) });
    batch.commit();
    log(`Trilha de auditoria: ${targets.auditEntries} registros encadeados…`);
    batch.begin();
    writeAuditTrail({ ...daily, random: new Random((options.seed ^ AUDIT_STREAM) >>> 0), total: targets.auditEntries });
    batch.commit();
  } catch (error) {
    batch.rollback();
    throw error;
  } finally {
    log("Índices: criando os índices das tabelas grandes…");
    restoreIndexes();
  }

  log("Índices: chaves de busca das consultas e cirurgias…");
  fillSearchKeys(conn);
  log("Índices: otimizando a busca de pacientes e atualizando estatísticas (ANALYZE)…");
  // The trigram indexes were filled by their triggers row by row (the surgeries' guides as their keys were
  // stored); merge their segments and check them against the tables, so a search finds exactly what
  // the tables hold.
  for (const index of ["patients_search", "surgery_guides_search", "surgery_patients_search", "documents_search"]) {
    conn.exec(`INSERT INTO ${index}(${index}) VALUES ('optimize')`);
    conn.exec(`INSERT INTO ${index}(${index}, rank) VALUES ('integrity-check', 1)`);
  }
  conn.exec("ANALYZE");
  conn.pragma("wal_checkpoint(TRUNCATE)");
  conn.pragma("synchronous = FULL");

  const counts = countScaleRows(conn);
  for (const key of ["patients", "appointments", "surgeries"] as const) {
    if (counts[key] !== targets[key]) log(`Atenção: ${counts[key]} ${key}, ${targets[key]} pedidos.`);
  }
  return { targets, counts, adminEmail, elapsedMs: Date.now() - started };
}
