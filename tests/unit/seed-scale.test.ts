import type Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyChainSync } from "~/.server/audit-chain";
import { verifyLogin } from "~/.server/credentials";
import { openDatabase, runMigrations, sqlite } from "~/.server/db";
import { isValidCpf } from "~/lib/documents";
import { PIPELINE_STAGE_IDS, type PipelineStage, surgeryStatusForStage } from "~/lib/pipeline";
import { buildSearchText, normalizeSearch } from "~/lib/search";
import { computeOpmeKpis } from "~/models/kpi-opme.server";
import { documentSearchText, listDocuments } from "~/models/document.server";
import { listPatients, patientSearchText } from "~/models/patient.server";
import { BULK_TABLES, buildScaleDatabase, deferIndexes, scaleTargets, TRIGGER_INDEXES, type ScaleOptions } from "~db/seed/scale/build";
import { EXAM_SHARE, REPORT_SHARE } from "~db/seed/scale/documents";
import { WHATSAPP_YEARS } from "~db/seed/scale/messages";
import { REFERRED_SHARE, SCALE_REFERRERS } from "~db/seed/scale/referrals";
import { isoDay } from "~db/seed/time";
import { referenceOpmeKpis } from "../support/kpi-reference/opme";

// A 0.4 % practice: 800 patients, 4 000 appointments, 400 surgeries, 2 000 transactions, 8 000 audit entries, 240 tasks.
const FACTOR = 0.004;
// A fixed clock (a Wednesday afternoon in São Paulo) makes the build reproducible.
const OPTIONS: ScaleOptions = {
  factor: FACTOR,
  seed: 424_242,
  now: new Date("2026-03-04T15:30:00-03:00"),
  adminEmail: "Admin@Escala.Test",
  adminPassword: "escala-teste-1",
};
const targets = scaleTargets(FACTOR);
const temporaryFiles: string[] = [];

function temporaryDatabase(): string {
  const file = path.join(os.tmpdir(), `sinapse-scale-${process.pid}-${Date.now()}-${temporaryFiles.length}.sqlite`);
  temporaryFiles.push(file);
  return file;
}

const count = (conn: Database.Database, sql: string) => conn.prepare(sql).pluck().get() as number;

/** A digest of every row of the tables, in id order. */
function checksum(conn: Database.Database, tables: string[]): Record<string, string> {
  return Object.fromEntries(
    tables.map((table) => {
      const hash = createHash("sha256");
      for (const row of conn.prepare(`SELECT * FROM "${table}" ORDER BY id`).raw().iterate()) hash.update(JSON.stringify(row));
      return [table, hash.digest("hex")];
    }),
  );
}
const CHECKED_TABLES = [
  "patients",
  "doctors",
  "appointments",
  "surgeries",
  "pipeline_stages",
  "surgery_fee_lines",
  "financial_transactions",
  "opme_requests",
  "opme_items",
  "opme_quotes",
  "tasks",
  "subtasks",
  "messages",
  "documents",
  "audit_log",
];

beforeAll(async () => {
  await buildScaleDatabase(sqlite, OPTIONS);
}, 120_000);

afterAll(() => {
  for (const file of temporaryFiles) for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
});

describe("scale seed (db/seed-scale.ts)", () => {
  it("writes the counts the factor asks for, with 40 doctors of whom a few are inactive", () => {
    expect(targets).toEqual({ patients: 800, appointments: 4000, surgeries: 400, transactions: 2000, auditEntries: 8000, tasks: 240, messages: 800 });
    expect(count(sqlite, "select count(*) from patients")).toBe(targets.patients);
    expect(count(sqlite, "select count(*) from appointments")).toBe(targets.appointments);
    expect(count(sqlite, "select count(*) from surgeries")).toBe(targets.surgeries);
    expect(count(sqlite, "select count(*) from financial_transactions")).toBe(targets.transactions);
    expect(count(sqlite, "select count(*) from doctors")).toBe(40);
    expect(count(sqlite, "select count(*) from doctors where active = 0")).toBe(3);
    // Every surgery has its history (at least the first stage) and its fee lines.
    expect(count(sqlite, "select count(*) from surgeries s where not exists (select 1 from pipeline_stages p where p.surgery_id = s.id)")).toBe(0);
    expect(count(sqlite, "select count(*) from surgeries s where not exists (select 1 from surgery_fee_lines f where f.surgery_id = s.id)")).toBe(0);
    expect(count(sqlite, "select count(*) from payers")).toBeGreaterThan(0);
    expect(count(sqlite, "select count(*) from medical_codes")).toBeGreaterThan(0);
  });

  it("books no doctor and no patient twice at the same time", () => {
    for (const who of ["doctor_id", "patient_id"]) {
      const clashes = count(
        sqlite,
        `select count(*) from appointments a join appointments b
           on a.${who} = b.${who} and a.id < b.id and a.start_time < b.end_time and b.start_time < a.end_time
         where a.status != 'cancelled' and b.status != 'cancelled'`,
      );
      expect(clashes, who).toBe(0);
    }
    // Past appointments are settled; future ones are scheduled or confirmed (a few cancelled).
    const now = OPTIONS.now.getTime();
    expect(count(sqlite, `select count(*) from appointments where end_time <= ${now} and status in ('scheduled', 'confirmed')`)).toBe(0);
    expect(count(sqlite, `select count(*) from appointments where start_time > ${now} and status = 'completed'`)).toBe(0);
    expect(count(sqlite, `select count(*) from appointments where start_time > ${now}`)).toBeGreaterThan(0);
    expect(count(sqlite, `select count(*) from appointments where status = 'cancelled'`)).toBeGreaterThan(0);
  });

  it("keeps every surgery's stage history coherent with its current stage and status", () => {
    const lastStageMismatch = count(
      sqlite,
      `select count(*) from surgeries s
        where s.current_stage != (select p.stage from pipeline_stages p where p.surgery_id = s.id order by p.created_at desc, p.id desc limit 1)`,
    );
    expect(lastStageMismatch).toBe(0);
    // Each move starts where the previous one ended; the first starts nowhere, in 'aguarda_docs'.
    const brokenChain = count(
      sqlite,
      `select count(*) from pipeline_stages p
        where p.from_stage is not (select q.stage from pipeline_stages q where q.surgery_id = p.surgery_id and q.id < p.id order by q.id desc limit 1)`,
    );
    expect(brokenChain).toBe(0);
    expect(count(sqlite, "select count(*) from pipeline_stages where from_stage is null and stage != 'aguarda_docs'")).toBe(0);
    expect(count(sqlite, `select count(*) from pipeline_stages where created_at > ${OPTIONS.now.getTime()}`)).toBe(0);

    const rows = sqlite.prepare("select current_stage as stage, status, count(*) as n from surgeries group by 1, 2").all() as Array<{ stage: PipelineStage; status: string; n: number }>;
    for (const row of rows) expect(row.status, row.stage).toBe(surgeryStatusForStage(row.stage));
    const stages = new Set(rows.map((r) => r.stage));
    expect(stages.has("concluido") && stages.has("cancelado") && stages.has("negado")).toBe(true);
    expect(stages.size).toBeGreaterThanOrEqual(PIPELINE_STAGE_IDS.length - 3);
    // Nothing is concluded on a day still to come; fee lines point at real codes.
    expect(count(sqlite, `select count(*) from surgeries where status = 'completed' and scheduled_date > ${OPTIONS.now.getTime()}`)).toBe(0);
    expect(count(sqlite, "select count(*) from surgery_fee_lines f left join medical_codes m on m.id = f.medical_code_id where m.id is null")).toBe(0);
    // Fee receipts are linked to paid surgeries, for their billed amount.
    const unpaidLinks = count(
      sqlite,
      `select count(*) from financial_transactions t join surgeries s on s.id = t.surgery_id
        where t.category = 'Cirurgias' and (s.receivable_status != 'pago' or t.amount_cents != s.billed_amount_cents)`,
    );
    expect(unpaidLinks).toBe(0);
    expect(count(sqlite, "select count(*) from financial_transactions where surgery_id is not null")).toBeGreaterThan(0);
  });

  it("gives every surgery that went through 'OPME em Cotação' its OPME request, quotes and (once approved) the chosen one", () => {
    const throughOpme = count(sqlite, "select count(distinct surgery_id) from pipeline_stages where stage = 'opme_cotacao'");
    const requests = count(sqlite, "select count(*) from opme_requests");
    expect(requests).toBe(throughOpme);
    // A share of the surgeries, not all nor a handful (the catalogue's fusions, kyphoplasties, shunts, clippings …).
    expect(requests / targets.surgeries).toBeGreaterThan(0.15);
    expect(requests / targets.surgeries).toBeLessThan(0.6);
    expect(count(sqlite, "select count(*) from opme_requests r where not exists (select 1 from pipeline_stages p where p.surgery_id = r.surgery_id and p.stage = 'opme_cotacao')")).toBe(0);
    expect(count(sqlite, "select count(*) from opme_requests r where not exists (select 1 from opme_items i where i.request_id = r.id)")).toBe(0);
    expect(count(sqlite, "select count(*) from opme_quotes")).toBeGreaterThan(requests * 2);
    expect(count(sqlite, "select count(*) from opme_quote_prices")).toBeGreaterThan(requests * 4);
    // Quotes come from OPME suppliers, at most three different ones a request, priced in that year's money.
    expect(count(sqlite, "select count(*) from opme_quotes q join suppliers s on s.id = q.supplier_id where s.type != 'opme'")).toBe(0);
    expect(count(sqlite, "select count(*) from (select request_id from opme_quotes group by request_id having count(distinct supplier_id) > 3)")).toBe(0);
    expect(count(sqlite, "select count(*) from opme_quote_prices where unit_price_cents <= 0")).toBe(0);
    // A quote arrives while the card is in the stage, never after now; the choice is one of the request's own quotes.
    const now = OPTIONS.now.getTime();
    expect(count(sqlite, `select count(*) from opme_quotes where created_at > ${now}`)).toBe(0);
    expect(count(sqlite, "select count(*) from opme_quotes q join opme_requests r on r.id = q.request_id where q.created_at < r.created_at")).toBe(0);
    expect(count(sqlite, "select count(*) from opme_requests r join opme_quotes q on q.id = r.chosen_quote_id where q.request_id != r.id")).toBe(0);
    // Chosen exactly when the surgery was approved after the quotation; still-open cards have none.
    const approvedAfterQuotes = count(
      sqlite,
      `select count(*) from opme_requests r
        where exists (select 1 from pipeline_stages p where p.surgery_id = r.surgery_id and p.stage = 'aprovado' and p.from_stage = 'opme_cotacao')`,
    );
    expect(count(sqlite, "select count(*) from opme_requests where chosen_quote_id is not null")).toBe(approvedAfterQuotes);
    expect(approvedAfterQuotes).toBeGreaterThan(0);
    expect(count(sqlite, "select count(*) from opme_requests r join surgeries s on s.id = r.surgery_id where s.current_stage = 'opme_cotacao' and r.chosen_quote_id is not null")).toBe(0);
    expect(count(sqlite, "select count(*) from opme_requests where chosen_quote_id is not null and choice_reason is null")).toBe(0);
  });

  it("fills kpi_opme_requests through the triggers: one row per request with its surgery's São Paulo day, doctor, payer and procedure", () => {
    const requests = sqlite
      .prepare(
        `select r.id as requestId, r.surgery_id as surgeryId, s.scheduled_date as scheduledMs, s.doctor_id as doctorId, s.payer_id as payerId, s.surgery_type as procedure
           from opme_requests r join surgeries s on s.id = r.surgery_id order by r.id`,
      )
      .all() as Array<{ requestId: number; surgeryId: number; scheduledMs: number; doctorId: number; payerId: number | null; procedure: string }>;
    const kpiRows = sqlite
      .prepare("select request_id as requestId, surgery_id as surgeryId, day, doctor_id as doctorId, payer_id as payerId, procedure from kpi_opme_requests order by request_id")
      .all();
    expect(requests.length).toBeGreaterThan(0);
    expect(kpiRows).toEqual(requests.map(({ scheduledMs, ...r }) => ({ requestId: r.requestId, surgeryId: r.surgeryId, day: isoDay(scheduledMs), doctorId: r.doctorId, payerId: r.payerId, procedure: r.procedure })));

    // The screen's figures over the aggregate equal those found from the surgeries, and have something to sum.
    const today = isoDay(OPTIONS.now);
    const year = { from: `${today.slice(0, 4)}-01-01`, to: today };
    for (const period of [{ from: "2000-01-01", to: "2030-12-31" }, year]) {
      expect(computeOpmeKpis(period), `${period.from}..${period.to}`).toEqual(referenceOpmeKpis(period));
    }
    const all = computeOpmeKpis({ from: "2000-01-01", to: "2030-12-31" });
    expect(all.requests).toBe(requests.length);
    expect(all.quotes).toBe(count(sqlite, "select count(*) from opme_quotes"));
    expect(all.spendCents).toBeGreaterThan(0);
    expect(all.compared).toBeGreaterThan(0);
    expect(all.savingsCents).toBeGreaterThan(0);
    expect(all.bySupplier.length).toBe(3);
  });

  it("stores the app's own search keys, so the patient search finds about 1 in 20 for 'silva'", () => {
    const patients = sqlite.prepare("select name, cpf, email, phone, search_text as searchText from patients").all() as Array<{
      name: string;
      cpf: string | null;
      email: string | null;
      phone: string | null;
      searchText: string;
    }>;
    expect(patients.filter((p) => p.searchText !== patientSearchText(p))).toEqual([]);
    const cpfs = patients.map((p) => p.cpf).filter((c): c is string => c !== null);
    expect(cpfs.length / patients.length).toBeGreaterThan(0.85);
    expect(cpfs.every(isValidCpf)).toBe(true);
    expect(new Set(cpfs).size).toBe(cpfs.length);

    // The trigram index (migration 0002) agrees with the table.
    expect(() => sqlite.exec("INSERT INTO patients_search(patients_search, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    // The index of the patients with surgeries (migration 0038) holds exactly them, with their keys.
    const withSurgeries = "select id, search_text from patients where id in (select patient_id from surgeries)";
    const indexed = "select rowid, search_text from surgery_patients_search";
    expect(sqlite.prepare(`${indexed} except ${withSurgeries}`).all()).toEqual([]);
    expect(sqlite.prepare(`${withSurgeries} except ${indexed}`).all()).toEqual([]);
    expect(sqlite.prepare(indexed).all().length).toBeGreaterThan(0);
    const { total, rows } = listPatients({ q: "silva", page: 1, sort: "name", dir: "asc" });
    const expected = patients.filter((p) => p.searchText.includes("silva")).length;
    expect(total).toBe(expected);
    expect(total / patients.length).toBeGreaterThan(0.03);
    expect(total / patients.length).toBeLessThan(0.08);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(normalizeSearch(`${row.name} ${row.email ?? ""}`)).toContain("silva");
    // A rare surname finds few.
    expect(listPatients({ q: "wanderley", page: 1, sort: "name", dir: "asc" }).total / patients.length).toBeLessThan(0.01);
  });

  it("writes 20 years of audit trail through the chain: intact, every id, times in order, naming seeded rows", () => {
    expect(count(sqlite, "select count(*) from audit_log")).toBe(targets.auditEntries);
    expect(verifyChainSync(sqlite)).toMatchObject({ intact: true, entries: targets.auditEntries });
    // Every id from 1 (migration 0045: the screen's pages by arithmetic), times never going back.
    expect(count(sqlite, "select max(id) from audit_log")).toBe(targets.auditEntries);
    expect(count(sqlite, "select first_id from audit_log_dense")).toBe(1);
    expect(count(sqlite, "select count(*) from audit_log a join audit_log b on b.id = a.id + 1 where b.created_at < a.created_at")).toBe(0);
    const span = sqlite.prepare("select min(created_at) as first, max(created_at) as last from audit_log").get() as { first: number; last: number };
    expect(span.last).toBeLessThanOrEqual(OPTIONS.now.getTime());
    expect((OPTIONS.now.getTime() - span.first) / (365.25 * 24 * 3600 * 1000)).toBeGreaterThan(19);
    // Mostly views of patient data, then the day's writes and sign-ins; ids name seeded rows.
    const share = (where: string) => count(sqlite, `select count(*) from audit_log where ${where}`) / targets.auditEntries;
    expect(share("action = 'view' and entity = 'patient'")).toBeGreaterThan(0.4);
    expect(share("action in ('create', 'update') and entity = 'appointment'")).toBeGreaterThan(0.2);
    expect(share("action in ('login', 'logout', 'login_failed')")).toBeGreaterThan(0.03);
    for (const [entity, table] of [["patient", "patients"], ["appointment", "appointments"], ["surgery", "surgeries"]]) {
      expect(count(sqlite, `select count(*) from audit_log a where a.entity = '${entity}' and a.entity_id is not null and not exists (select 1 from ${table} t where t.id = a.entity_id)`), entity).toBe(0);
    }
    // Patients' fields are named, not copied (app/.server/audit.ts).
    expect(count(sqlite, "select count(*) from audit_log where entity = 'patient' and action = 'create' and changes not like '{\"fields\":%'")).toBe(0);
  });

  it("writes the office's tasks over the years: done when old, open lately, linked to real surgeries and patients", () => {
    expect(count(sqlite, "select count(*) from tasks")).toBe(targets.tasks);
    const now = OPTIONS.now.getTime();
    const monthAgo = now - 30 * 24 * 3600 * 1000;
    // Old tasks are done (a rare one forgotten), with their time of completion and every checklist item ticked.
    expect(count(sqlite, `select count(*) from tasks where created_at < ${monthAgo} and status != 'completed'`)).toBeLessThan(targets.tasks * 0.02);
    expect(count(sqlite, "select count(*) from tasks where status = 'completed' and completed_at is null")).toBe(0);
    expect(count(sqlite, "select count(*) from tasks where status != 'completed' and completed_at is not null")).toBe(0);
    expect(count(sqlite, "select count(*) from subtasks s join tasks t on t.id = s.task_id where t.status = 'completed' and s.completed = 0")).toBe(0);
    expect(count(sqlite, "select count(*) from subtasks")).toBeGreaterThan(targets.tasks / 2);
    expect(count(sqlite, `select count(*) from tasks where created_at >= ${monthAgo} and status != 'completed'`)).toBeGreaterThan(0);
    // A surgery's task names its patient; the search finds a task by its patient's name, as the app stores it.
    expect(count(sqlite, "select count(*) from tasks t join surgeries s on s.id = t.surgery_id where t.patient_id is not s.patient_id")).toBe(0);
    expect(count(sqlite, "select count(*) from tasks where patient_id is not null")).toBeGreaterThan(targets.tasks / 2);
    const task = sqlite.prepare("select title, search_text as searchText from tasks where patient_id is not null limit 1").get() as { title: string; searchText: string };
    expect(task.searchText).toBe(buildSearchText(task.title, null));
    expect(count(sqlite, `select count(*) from tasks where created_at > ${now} or completed_at > ${now}`)).toBe(0);
  });

  it("writes five years of WhatsApp: each message about a real visit of a patient who agreed, sent before it, through an approved template", () => {
    expect(count(sqlite, "select count(*) from messages")).toBe(targets.messages);
    const now = OPTIONS.now.getTime();
    expect(count(sqlite, `select count(*) from messages where created_at > ${now} or created_at < ${now - (WHATSAPP_YEARS * 365 + 1) * 24 * 3600 * 1000}`)).toBe(0);
    // Only to patients who agreed to WhatsApp, at their number, through a template approved and mapped to Meta.
    expect(count(sqlite, "select count(*) from messages m join patients p on p.id = m.patient_id where p.whatsapp_opt_in = 0 or m.to_phone is not '55' || p.phone or m.patient_name is not p.name")).toBe(0);
    expect(count(sqlite, "select count(*) from messages m left join message_templates t on t.id = m.template_id where m.direction = 'outbound' and (t.status is not 'aprovado' or m.template_name is not t.meta_name or m.template_title is not t.title)")).toBe(0);
    // A reminder names its visit: one of its patient's, not cancelled, the next day (as the template says).
    const reminder = sqlite
      .prepare("select m.patient_id as patientId, m.body, m.created_at as sentAt, m.params from messages m where m.template_title = 'Lembrete 24h antes' limit 1")
      .get() as { patientId: number; body: string; sentAt: number; params: string };
    const visits = sqlite
      .prepare("select start_time as start from appointments where patient_id = ? and status <> 'cancelled' and start_time > ? and start_time < ?")
      .all(reminder.patientId, reminder.sentAt, reminder.sentAt + 48 * 3600 * 1000) as { start: number }[];
    expect(visits.some((visit) => reminder.body.includes(`às ${new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", hour: "2-digit", minute: "2-digit" }).format(visit.start)}`))).toBe(true);
    expect(JSON.parse(reminder.params).length).toBeGreaterThan(0);
    // The provider's statuses: mostly read or delivered, a few failed with the reason; patients' replies come in.
    expect(count(sqlite, "select count(*) from messages where status in ('read', 'delivered')")).toBeGreaterThan(targets.messages / 2);
    expect(count(sqlite, "select count(*) from messages where status = 'failed' and error is null")).toBe(0);
    expect(count(sqlite, "select count(*) from messages where direction = 'inbound'")).toBeGreaterThan(0);
    // The counter and the KPI's daily counts (their triggers) saw every message.
    expect(count(sqlite, "select n from row_counts where table_name = 'messages'")).toBe(targets.messages);
    expect(count(sqlite, "select sum(n) from kpi_outbound_messages where grain = 'd'")).toBe(count(sqlite, "select count(*) from messages where direction = 'outbound'"));
  });

  it("sends about a third of the patients through 150 referrers, a few of them sending most, when each patient registered", () => {
    const referred = count(sqlite, "select count(*) from patient_referrals");
    expect(referred / targets.patients).toBeGreaterThan(REFERRED_SHARE - 0.06);
    expect(referred / targets.patients).toBeLessThan(REFERRED_SHARE + 0.06);
    expect(count(sqlite, "select count(*) from referrers")).toBeGreaterThanOrEqual(SCALE_REFERRERS);
    // The busiest referrer sends several times what the median one does.
    const perReferrer = sqlite.prepare("select count(*) from patient_referrals group by referrer_id order by 1 desc").pluck().all() as number[];
    expect(perReferrer[0]).toBeGreaterThan(5 * perReferrer[Math.floor(perReferrer.length / 2)]);
    expect(count(sqlite, "select count(*) from patient_referrals r join patients p on p.id = r.patient_id where r.created_at <> p.created_at")).toBe(0);
    // The kept figures (migration 0049's triggers) saw every referral, surgery and payment.
    expect(count(sqlite, "select sum(patients) from referrer_counts")).toBe(referred);
    expect(count(sqlite, "select sum(surgeries) from referrer_counts")).toBe(count(sqlite, "select count(*) from patient_referrals r join surgeries s on s.patient_id = r.patient_id"));
    expect(count(sqlite, "select sum(n) from referrer_paid_days")).toBe(
      count(sqlite, "select count(*) from patient_referrals r join surgeries s on s.patient_id = r.patient_id where s.receivable_status = 'pago' and s.paid_at is not null"),
    );
    expect(count(sqlite, "select sum(n) from kpi_new_patient_referrers where grain = 'd'")).toBe(referred);
  });

  it("files the patients' documents as the office does: a guide and a consent form per surgery, exams after a quarter of the visits, all found by the search", () => {
    const now = OPTIONS.now.getTime();
    const surgeriesFiled = count(sqlite, "select count(distinct surgery_id) from documents where category = 'guia'");
    // Every surgery whose guide was due by now has it; the consent form is there for those not cancelled.
    expect(surgeriesFiled).toBeGreaterThan(targets.surgeries * 0.6);
    expect(count(sqlite, "select count(*) from documents where category = 'guia'")).toBe(surgeriesFiled);
    expect(count(sqlite, "select count(*) from documents d join surgeries s on s.id = d.surgery_id where d.category = 'termo_consentimento' and s.status = 'cancelled'")).toBe(0);
    expect(count(sqlite, "select count(*) from documents where category = 'termo_consentimento'")).toBeGreaterThan(surgeriesFiled * 0.5);
    const reports = count(sqlite, "select count(*) from documents where category = 'laudo'");
    expect(reports / surgeriesFiled).toBeGreaterThan(REPORT_SHARE - 0.15);
    expect(reports / surgeriesFiled).toBeLessThan(REPORT_SHARE + 0.15);
    const visits = count(sqlite, `select count(*) from appointments where status = 'completed' and start_time < ${now}`);
    const exams = count(sqlite, "select count(*) from documents where category = 'exame'");
    expect(exams / visits).toBeGreaterThan(EXAM_SHARE - 0.05);
    expect(exams / visits).toBeLessThan(EXAM_SHARE + 0.05);
    // A surgery's papers are its patient's; nothing is filed before the patient registered or after now.
    expect(count(sqlite, "select count(*) from documents d join surgeries s on s.id = d.surgery_id where s.patient_id <> d.patient_id")).toBe(0);
    expect(count(sqlite, `select count(*) from documents d join patients p on p.id = d.patient_id where d.created_at < p.created_at or d.created_at > ${now}`)).toBe(0);
    // Stored as an upload is: the app's search key, a random-looking storage name of its own, a digest.
    const rows = sqlite.prepare("select original_name as name, note, search_text as searchText, storage_name as storage, sha256 from documents").all() as Array<{
      name: string;
      note: string | null;
      searchText: string;
      storage: string;
      sha256: string;
    }>;
    expect(rows.filter((d) => d.searchText !== documentSearchText(d.name, d.note))).toEqual([]);
    expect(rows.every((d) => /^[0-9a-f]{32}$/.test(d.storage) && /^[0-9a-f]{64}$/.test(d.sha256))).toBe(true);
    expect(new Set(rows.map((d) => d.storage)).size).toBe(rows.length);
    // The search index (migration 0050) agrees with the tables: a common and a rare search find what a pass over every document finds.
    expect(() => sqlite.exec("INSERT INTO documents_search(documents_search, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    for (const q of ["silva", "cranio"]) {
      const word = normalizeSearch(q);
      const expected = count(sqlite, `select count(*) from documents d join patients p on p.id = d.patient_id where d.search_text like '%${word}%' or p.search_text like '%${word}%'`);
      expect(expected, q).toBeGreaterThan(0);
      expect(listDocuments({ q, page: 1, sort: "createdAt", dir: "desc" }, {}).total, q).toBe(expected);
    }
    // The newest first: page 1 starts at the latest upload. Its total is the counter (migration 0051), which saw every document.
    const listed = listDocuments({ q: "", page: 1, sort: "createdAt", dir: "desc" }, {});
    expect(listed.rows[0].createdAt.getTime()).toBe(count(sqlite, "select max(created_at) from documents"));
    expect([listed.total, listed.totalCapped]).toEqual([count(sqlite, "select count(*) from documents"), false]);
  });

  it("creates one admin who can sign in with the given password", async () => {
    const admin = sqlite
      .prepare("select u.id, u.password_hash as hash, r.role from users u join user_roles r on r.user_id = u.id where u.email = ?")
      .get("admin@escala.test") as { id: number; hash: string; role: string };
    expect(admin.role).toBe("admin");
    expect(admin.hash.startsWith("$argon2id$")).toBe(true);
    expect(await verifyLogin("admin@escala.test", OPTIONS.adminPassword)).toBe(admin.id);
    expect(await verifyLogin("admin@escala.test", "wrong-password")).toBeNull();
  });

  it("is deterministic: the same seed and clock give identical tables, another seed does not", async () => {
    const build = async (seed: number) => {
      const conn = openDatabase(temporaryDatabase());
      runMigrations(conn);
      await buildScaleDatabase(conn, { ...OPTIONS, seed });
      const sums = checksum(conn, CHECKED_TABLES);
      conn.close();
      return sums;
    };
    const first = checksum(sqlite, CHECKED_TABLES);
    expect(await build(OPTIONS.seed)).toEqual(first);
    const other = await build(OPTIONS.seed + 1);
    expect(other.patients).not.toBe(first.patients);
    expect(other.appointments).not.toBe(first.appointments);
  }, 120_000);

  it("keeps the indexes the KPI triggers read while it loads, and builds the others again afterwards", () => {
    const conn = openDatabase(temporaryDatabase());
    runMigrations(conn);
    const indexes = () => new Set(conn.prepare("select name from sqlite_master where type = 'index' and sql is not null").pluck().all() as string[]);
    const before = indexes();
    for (const name of TRIGGER_INDEXES) expect(before.has(name), name).toBe(true);
    const restore = deferIndexes(conn);
    const during = indexes();
    for (const name of TRIGGER_INDEXES) expect(during.has(name), name).toBe(true);
    // The others of the big tables are gone (the load is cheaper), and all come back.
    for (const name of ["appointments_start_time_idx", "surgeries_scheduled_date_idx", "opme_quotes_supplier_idx"]) expect(during.has(name), name).toBe(false);
    restore();
    expect(indexes()).toEqual(before);
    conn.close();
  });

  it("while it loads, no trigger passes over a big table (each insert would cost the table written so far)", () => {
    const conn = openDatabase(temporaryDatabase());
    runMigrations(conn);
    const restore = deferIndexes(conn);
    const triggers = conn.prepare("select name, sql from sqlite_master where type = 'trigger'").all() as Array<{ name: string; sql: string }>;
    const scans: string[] = [];
    for (const { name, sql } of triggers) {
      const body = sql.slice(sql.search(/\bBEGIN\b/) + "BEGIN".length, sql.lastIndexOf("END"));
      // (RAISE, which refuses a write, cannot be planned outside a trigger, and reads nothing.)
      for (const statement of body.split(";").map((s) => s.trim()).filter((s) => s && !/\bRAISE\s*\(/i.test(s))) {
        // The row the trigger fires for becomes parameters; the plan is the one SQLite picks
        // without statistics, as during the load.
        const standalone = statement.replace(/\b(?:NEW|OLD)\.`?\w+`?/gi, "@row");
        const tableOf = new Map<string, string>();
        for (const [, table, alias] of standalone.matchAll(/\b(?:from|join|update)\s+`?(\w+)`?(?:\s+(?:as\s+)?(?!where|set|on|left|join|group|order|limit)(\w+))?/gi)) {
          tableOf.set((alias ?? table).toLowerCase(), table.toLowerCase());
        }
        const statementPlan = conn.prepare(`explain query plan ${standalone}`);
        const plan = (standalone.includes("@row") ? statementPlan.all({ row: null }) : statementPlan.all()) as Array<{ detail: string }>;
        for (const { detail } of plan) {
          // A pass over a table, or over the whole of one of its indexes.
          const scanned = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX \w+)?$/.exec(detail)?.[1]?.toLowerCase();
          const table = scanned && (tableOf.get(scanned) ?? scanned);
          if (table && BULK_TABLES.includes(table)) scans.push(`${name}: ${detail} (${table})`);
        }
      }
    }
    expect(triggers.length).toBeGreaterThan(40);
    expect(scans).toEqual([]);
    restore();
    conn.close();
  });

  it("runs as `npm run seed:scale`: refuses a database with patients unless --force, which builds it in a new file; prints the login", () => {
    const file = temporaryDatabase();
    const root = path.resolve(import.meta.dirname, "../..");
    const run = (...args: string[]) =>
      spawnSync(path.join(root, "node_modules/.bin/tsx"), ["db/seed-scale.ts", ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_PATH: file, SCALE_FACTOR: "0.0005", SCALE_ADMIN_EMAIL: "ops@escala.test", SCALE_ADMIN_PASSWORD: "s3nha-escala" },
        encoding: "utf8",
      });
    const first = run();
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("ops@escala.test");
    expect(first.stdout).toMatch(/patients\s+100\b/);
    // Something of the old file's own, to tell whether the file was replaced or its tables emptied.
    const marked = openDatabase(file);
    marked.exec("CREATE TABLE left_behind (note TEXT)");
    marked.close();
    const hasMark = () => {
      const conn = openDatabase(file);
      const found = conn.prepare("SELECT 1 FROM sqlite_master WHERE name = 'left_behind'").get() !== undefined;
      conn.close();
      return found;
    };
    const again = run();
    expect(again.status).toBe(1);
    expect(`${again.stdout}${again.stderr}`).toMatch(/--force/);
    expect(hasMark()).toBe(true);
    // A bad setting stops it before anything is removed.
    const badSeed = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["db/seed-scale.ts", "--force"], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: file, SCALE_SEED: "semente" },
      encoding: "utf8",
    });
    expect(badSeed.status).toBe(1);
    expect(badSeed.stderr).toContain("SCALE_SEED inválido");
    expect(hasMark()).toBe(true);
    const forced = run("--force");
    expect(forced.status).toBe(0);
    expect(hasMark()).toBe(false);
    const conn = openDatabase(file);
    expect(count(conn, "select count(*) from patients")).toBe(100);
    expect(count(conn, "select count(*) from users")).toBe(1);
    conn.close();
  }, 120_000);
});
