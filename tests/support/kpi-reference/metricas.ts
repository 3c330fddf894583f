/**
 * REFERENCE IMPLEMENTATION for the tests (not app code): the figures of KPIs Métricas recomputed from
 * the raw tables on every call, as the screen did before the maintained aggregates
 * (docs/decisions/0023-kpi-aggregates.md). The equivalence tests compare the app's report with this one.
 * The figures' and tables' assembly, formulas and rounding are the model's own (imported): only the
 * computation from the raw tables is kept here.
 *
 * Former header: KPIs Métricas (/kpis/metricas): patients (new, active, by insurer, by referrer) and WhatsApp
 * messages (sent, delivered, read, failed) for a period. Each figure is an aggregate over an index
 * range; the formula of each is written beside it and shown to the user.
 */
import { sqlite } from "~/.server/db";
import type { KpiReport, KpiTableData } from "~/lib/kpi";
import { type KpiPeriod, instantRange } from "~/lib/kpi-period";
import { messageTotals, metricsFigures, shareTable } from "~/models/kpi-metricas.server";

/** Patients registered in the period (patients_created_at_idx). */
export const NEW_PATIENTS_SQL = `select count(*) as n from patients where created_at >= @start and created_at < @end`;

/**
 * Distinct patients with a non-cancelled appointment starting in the period: a range of the
 * covering appointments_kpi_start_idx; the distinct patients are counted in a temporary index
 * the size of the period's patients (the one temporary structure of these screens).
 */
export const ACTIVE_PATIENTS_SQL = `
  select count(distinct patient_id) as n
    from appointments indexed by appointments_kpi_start_idx
   where start_time >= @start and start_time < @end and status <> 'cancelled'`;

/** The insurer typed on each patient registered in the period (grouped here, case and spaces ignored). */
export const NEW_PATIENTS_INSURANCE_SQL = `select insurance from patients where created_at >= @start and created_at < @end`;

/** The referrer of each patient registered in the period who has one (a primary-key seek per patient). */
export const NEW_PATIENTS_REFERRER_SQL = `
  select r.id as id, r.name as name
    from patients p
    join patient_referrals pr on pr.patient_id = p.id
    join referrers r on r.id = pr.referrer_id
   where p.created_at >= @start and p.created_at < @end`;

/** Outbound messages of one status created in the period (messages_status_created_idx). */
export const MESSAGES_BY_STATUS_SQL = `
  select count(*) as n from messages
   where status = @status and created_at >= @start and created_at < @end and direction = 'outbound'`;


const NOT_INFORMED = "Não informado";
const NO_REFERRER = "Sem encaminhador";

function one(statement: string, params: Record<string, unknown>): number {
  return (sqlite.prepare(statement).get(params) as { n: number }).n;
}

function range(period: KpiPeriod) {
  const [start, end] = instantRange(period);
  return { start, end };
}

function messageCounts(period: KpiPeriod) {
  const statement = sqlite.prepare(MESSAGES_BY_STATUS_SQL);
  const n = (status: string) => (statement.get({ ...range(period), status }) as { n: number }).n;
  return messageTotals(n);
}


/** The figures and tables of /kpis/metricas for `period`, compared with `previous`. */
export function referenceMetricsKpis({ period, previous }: { period: KpiPeriod; previous: KpiPeriod }): KpiReport {
  const cur = range(period);
  const prev = range(previous);
  const newNow = one(NEW_PATIENTS_SQL, cur);
  const msgs = messageCounts(period);
  const msgsBefore = messageCounts(previous);

  const figures = metricsFigures({
    newPatients: [newNow, one(NEW_PATIENTS_SQL, prev)],
    activePatients: [one(ACTIVE_PATIENTS_SQL, cur), one(ACTIVE_PATIENTS_SQL, prev)],
    messages: [msgs, msgsBefore],
  });

  return { figures, tables: [byInsurer(period, newNow), byReferrer(period, newNow)] };
}

function byInsurer(period: KpiPeriod, total: number): KpiTableData {
  const counts = new Map<string, number>();
  const labels = new Map<string, string>();
  for (const { insurance } of sqlite.prepare(NEW_PATIENTS_INSURANCE_SQL).all(range(period)) as { insurance: string | null }[]) {
    const label = insurance?.trim().replace(/\s+/g, " ") || NOT_INFORMED;
    const key = label.toLocaleLowerCase("pt-BR");
    if (!labels.has(key)) labels.set(key, label);
    counts.set(labels.get(key)!, (counts.get(labels.get(key)!) ?? 0) + 1);
  }
  return shareTable("por-convenio", counts, total);
}

function byReferrer(period: KpiPeriod, total: number): KpiTableData {
  // Keyed by id (two referrers may share a name), then shown by name.
  const byId = new Map<number, { name: string; n: number }>();
  let referred = 0;
  for (const { id, name } of sqlite.prepare(NEW_PATIENTS_REFERRER_SQL).all(range(period)) as { id: number; name: string }[]) {
    const entry = byId.get(id) ?? { name, n: 0 };
    entry.n += 1;
    byId.set(id, entry);
    referred += 1;
  }
  const counts = new Map<string, number>();
  for (const { name, n } of byId.values()) counts.set(counts.has(name) ? `${name} (${n})` : name, n);
  if (total > referred) counts.set(NO_REFERRER, total - referred);
  return shareTable("por-encaminhador", counts, total);
}
