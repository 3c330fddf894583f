/**
 * KPIs Métricas (/kpis/metricas): patients (new, active, by insurer, by referrer) and WhatsApp
 * messages (sent, delivered, read, failed) for a period; the formula of each is written beside it
 * and shown to the user.
 *
 * Every figure is read from maintained aggregates (docs/decisions/0023-kpi-aggregates.md), kept by
 * triggers in the same transaction as each write, by São Paulo day and month: whole months plus
 * the days of the partial first and last months (kpi-buckets.server.ts), so ten years cost about
 * as much as a month.
 * - new patients by raw insurer text (`kpi_new_patients`) and by referrer (`kpi_new_patient_referrers`);
 * - active patients, a distinct count, from `kpi_active_points`: each day a patient has a
 *   non-cancelled appointment is a point (day, the patient's previous such day); the patients
 *   active in [from, to] are the points with day in [from, to] and previous day before `from`;
 * - outbound messages by status (`kpi_outbound_messages`).
 */
import { prepared } from "~/.server/db";
import { type KpiFigureData, type KpiReport, type KpiTableData, kpiFigure, kpiPercent } from "~/lib/kpi";
import { type KpiPeriod, instantRange } from "~/lib/kpi-period";
import { type BucketRange, bucketRanges, eachBucket, firstOfMonth, monthOf } from "./kpi-buckets.server";

/** New patients of one grain's buckets, by raw insurer text ('' for none): a primary-key range. */
export const NEW_PATIENTS_SQL = `
  select insurance, n from kpi_new_patients
   where grain = @grain and bucket >= @lo and bucket <= @hi`;

/** New patients with a referrer, by referrer, of one grain's buckets: a primary-key range. */
export const NEW_PATIENT_REFERRERS_SQL = `
  select referrer_id as id, n from kpi_new_patient_referrers
   where grain = @grain and bucket >= @lo and bucket <= @hi`;

/**
 * The active patients whose first active day of the period falls in one bucket: points of that
 * bucket whose previous active day is a month before `from`'s month (or none: ''), or a day of
 * `from`'s month before `from`. Two primary-key seeks.
 */
export const ACTIVE_PATIENTS_SQL = `
  select (select coalesce(sum(n), 0) from kpi_active_points
           where day_grain = @grain and day_bucket = @bucket and prev_grain = 'm' and prev_bucket < @fromMonth)
       + (select coalesce(sum(n), 0) from kpi_active_points
           where day_grain = @grain and day_bucket = @bucket and prev_grain = 'd' and prev_bucket >= @fromMonthStart and prev_bucket < @from) as n`;

/** Outbound messages by status, of one grain's buckets: a primary-key range. */
export const MESSAGES_BY_STATUS_SQL = `
  select status, n from kpi_outbound_messages
   where grain = @grain and bucket >= @lo and bucket <= @hi`;

/** The first patient registered in the period with exactly this insurer text (which spelling labels a name). */
export const FIRST_PATIENT_WITH_INSURANCE_SQL = `
  select created_at, id from patients
   where insurance = @insurance and created_at >= @start and created_at < @end
   order by created_at, id limit 1`;
const FIRST_PATIENT_WITHOUT_INSURANCE_SQL = `
  select created_at, id from patients
   where insurance is null and created_at >= @start and created_at < @end
   order by created_at, id limit 1`;

/** The first patient registered in the period referred by this referrer (which of two namesakes comes first). */
export const FIRST_PATIENT_OF_REFERRER_SQL = `
  select p.created_at, p.id from patient_referrals pr join patients p on p.id = pr.patient_id
   where pr.referrer_id = @referrer and p.created_at >= @start and p.created_at < @end
   order by p.created_at, p.id limit 1`;

export const METRICS_FORMULAS = {
  newPatients: "Pacientes cadastrados no período (data de cadastro).",
  activePatients: "Pacientes distintos com ao menos uma consulta não cancelada com início no período.",
  sent: "Mensagens de WhatsApp enviadas pela clínica criadas no período e aceitas pelo provedor (situação enviada, entregue ou lida).",
  delivered: "Mensagens entregues ou lidas ÷ mensagens enviadas no período × 100.",
  read: "Mensagens lidas ÷ mensagens enviadas no período × 100.",
  failed: "Mensagens com falha ÷ (enviadas + com falha) no período × 100.",
} as const;

const NOT_INFORMED = "Não informado";
const NO_REFERRER = "Sem encaminhador";

/** Sums of `n` by `key` over the buckets of `period`. */
function sumsBy<K>(sql: string, period: KpiPeriod, key: string): Map<K, number> {
  const sums = new Map<K, number>();
  const read = prepared(sql);
  for (const range of bucketRanges(period)) {
    for (const row of read.all(range) as Record<string, unknown>[]) {
      const k = row[key] as K;
      sums.set(k, (sums.get(k) ?? 0) + (row.n as number));
    }
  }
  return sums;
}

const total = (sums: Map<unknown, number>) => [...sums.values()].reduce((a, b) => a + b, 0);

function activePatients(period: KpiPeriod): number {
  const read = prepared(ACTIVE_PATIENTS_SQL);
  const fromMonth = monthOf(period.from);
  const params = { fromMonth, fromMonthStart: firstOfMonth(fromMonth), from: period.from };
  let n = 0;
  for (const [grain, bucket] of eachBucket(bucketRanges(period) as BucketRange[])) n += (read.get({ ...params, grain, bucket }) as { n: number }).n;
  return n;
}

function messageCounts(period: KpiPeriod) {
  const byStatus = sumsBy<string>(MESSAGES_BY_STATUS_SQL, period, "status");
  return messageTotals((status) => byStatus.get(status) ?? 0);
}

export type MessageTotals = ReturnType<typeof messageTotals>;

/** Messages by the furthest status they reached: a read one was also delivered, a delivered one also sent. */
export function messageTotals(n: (status: string) => number) {
  const read = n("read");
  const delivered = n("delivered") + read;
  const sent = n("sent") + delivered;
  return { sent, delivered, read, failed: n("failed") };
}


/** The figures and tables of /kpis/metricas for `period`, compared with `previous`. */
export function metricsKpis({ period, previous }: { period: KpiPeriod; previous: KpiPeriod }): KpiReport {
  const insurers = sumsBy<string>(NEW_PATIENTS_SQL, period, "insurance");
  const newNow = total(insurers);
  const msgs = messageCounts(period);
  const msgsBefore = messageCounts(previous);

  const figures = metricsFigures({
    newPatients: [newNow, total(sumsBy(NEW_PATIENTS_SQL, previous, "insurance"))],
    activePatients: [activePatients(period), activePatients(previous)],
    messages: [msgs, msgsBefore],
  });

  return { figures, tables: [byInsurer(period, insurers, newNow), byReferrer(period, newNow)] };
}

/** The figures of /kpis/metricas from their counts, each [this period, the previous one]. */
export function metricsFigures({
  newPatients,
  activePatients,
  messages: [now, before],
}: {
  newPatients: [number, number];
  activePatients: [number, number];
  messages: [MessageTotals, MessageTotals];
}): KpiFigureData[] {
  return [
    kpiFigure({ id: "pacientes-novos", label: "Pacientes novos", unit: "count", formula: METRICS_FORMULAS.newPatients, current: newPatients[0], previous: newPatients[1] }),
    kpiFigure({
      id: "pacientes-ativos",
      label: "Pacientes ativos",
      unit: "count",
      formula: METRICS_FORMULAS.activePatients,
      current: activePatients[0],
      previous: activePatients[1],
    }),
    kpiFigure({ id: "mensagens-enviadas", label: "Mensagens enviadas", unit: "count", formula: METRICS_FORMULAS.sent, current: now.sent, previous: before.sent }),
    kpiFigure({
      id: "mensagens-entregues",
      label: "Taxa de entrega",
      unit: "percent",
      formula: METRICS_FORMULAS.delivered,
      current: kpiPercent(now.delivered, now.sent),
      previous: kpiPercent(before.delivered, before.sent),
      reason: "Nenhuma mensagem enviada no período",
    }),
    kpiFigure({
      id: "mensagens-lidas",
      label: "Taxa de leitura",
      unit: "percent",
      formula: METRICS_FORMULAS.read,
      current: kpiPercent(now.read, now.sent),
      previous: kpiPercent(before.read, before.sent),
      reason: "Nenhuma mensagem enviada no período",
    }),
    kpiFigure({
      id: "mensagens-falhas",
      label: "Taxa de falha no envio",
      unit: "percent",
      formula: METRICS_FORMULAS.failed,
      current: kpiPercent(now.failed, now.sent + now.failed),
      previous: kpiPercent(before.failed, before.sent + before.failed),
      reason: "Nenhuma mensagem enviada no período",
    }),
  ];
}

const SHARE_TABLES = {
  "por-convenio": { title: "Pacientes novos por convênio", key: "convenio", header: "Convênio" },
  "por-encaminhador": { title: "Pacientes novos por encaminhador", key: "encaminhador", header: "Encaminhador" },
} as const;

/** A table of the period's new patients by insurer or referrer: count (then name) order, each with its share. */
export function shareTable(id: keyof typeof SHARE_TABLES, counts: Map<string, number>, total: number): KpiTableData {
  const { title, key, header } = SHARE_TABLES[id];
  return {
    id,
    title,
    columns: [
      { key, header },
      { key: "pacientes", header: "Pacientes", unit: "count" },
      { key: "participacao", header: "Participação", unit: "percent" },
    ],
    rows: [...counts]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b, "pt-BR"))
      .map(([name, n]) => ({ [key]: name, pacientes: n, participacao: kpiPercent(n, total) })),
    empty: "Nenhum paciente cadastrado no período.",
  };
}

/**
 * Insurer texts grouped as typed, case and spaces ignored; a group is shown with the spelling of
 * its first patient of the period (a seek per spelling, only when a group has several).
 */
function byInsurer(period: KpiPeriod, insurers: Map<string, number>, total: number): KpiTableData {
  const groups = new Map<string, { labels: Map<string, string[]>; n: number }>();
  for (const [raw, n] of insurers) {
    if (n === 0) continue;
    const label = raw.trim().replace(/\s+/g, " ") || NOT_INFORMED;
    const key = label.toLocaleLowerCase("pt-BR");
    const group = groups.get(key) ?? { labels: new Map<string, string[]>(), n: 0 };
    group.n += n;
    group.labels.set(label, [...(group.labels.get(label) ?? []), raw]);
    groups.set(key, group);
  }
  const counts = new Map<string, number>();
  for (const { labels, n } of groups.values()) counts.set(labels.size === 1 ? [...labels.keys()][0] : firstSpelling(period, labels), n);
  return shareTable("por-convenio", counts, total);
}

function byReferrer(period: KpiPeriod, total: number): KpiTableData {
  // Keyed by id (two referrers may share a name), then shown by name: the first of namesakes (by
  // their first patient of the period) keeps the bare name, the others get their count appended.
  const sums = sumsBy<number>(NEW_PATIENT_REFERRERS_SQL, period, "id");
  const name = prepared("select name from referrers where id = ?").pluck();
  const byId = new Map<number, { name: string; n: number }>();
  let referred = 0;
  for (const [id, n] of sums) {
    if (n === 0) continue;
    byId.set(id, { name: name.get(id) as string, n });
    referred += n;
  }
  const namesakes = new Set([...byId.values()].map((e) => e.name).filter((x, i, all) => all.indexOf(x) !== i));
  if (namesakes.size > 0) {
    const [start, end] = instantRange(period);
    const first = prepared(FIRST_PATIENT_OF_REFERRER_SQL);
    const firstOf = new Map<number, { created_at: number; id: number }>();
    for (const [id, entry] of byId) if (namesakes.has(entry.name)) firstOf.set(id, first.get({ referrer: id, start, end }) as { created_at: number; id: number });
    const order = [...byId.keys()].sort((a, b) => {
      const x = firstOf.get(a);
      const y = firstOf.get(b);
      if (!x || !y) return (x ? 1 : 0) - (y ? 1 : 0);
      return x.created_at - y.created_at || x.id - y.id;
    });
    const entries = order.map((id) => [id, byId.get(id)!] as const);
    byId.clear();
    for (const [id, entry] of entries) byId.set(id, entry);
  }
  const counts = new Map<string, number>();
  for (const { name, n } of byId.values()) counts.set(counts.has(name) ? `${name} (${n})` : name, n);
  if (total > referred) counts.set(NO_REFERRER, total - referred);
  return shareTable("por-encaminhador", counts, total);
}

/** The spelling (label) whose first patient of the period came first. */
function firstSpelling(period: KpiPeriod, labels: Map<string, string[]>): string {
  const [start, end] = instantRange(period);
  const withText = prepared(FIRST_PATIENT_WITH_INSURANCE_SQL);
  const withoutText = prepared(FIRST_PATIENT_WITHOUT_INSURANCE_SQL);
  let best: { label: string; at: number; id: number } | null = null;
  for (const [label, raws] of labels) {
    for (const raw of raws) {
      const rows = [withText.get({ insurance: raw, start, end }), raw === "" ? withoutText.get({ start, end }) : undefined] as ({ created_at: number; id: number } | undefined)[];
      for (const row of rows) {
        if (row && (!best || row.created_at < best.at || (row.created_at === best.at && row.id < best.id))) best = { label, at: row.created_at, id: row.id };
      }
    }
  }
  return best!.label;
}
