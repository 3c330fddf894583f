/**
 * The KPI figures as they were computed before the maintained aggregates: straight from the raw
 * tables (surgeries, pipeline_stages, receivable_glosas, financial_transactions) on every view.
 * Kept here, not in the app, as the reference the aggregates are compared with
 * (tests/unit/kpi-aggregates-surgical-financial.test.ts; docs/decisions/0024-kpi-aggregates-surgical-financial.md).
 */
import { sqlite } from "~/.server/db";
import { isoDateInClinic } from "~/lib/dates";
import { type KpiPeriod, instantRange } from "~/lib/kpi-period";
import { PIPELINE_STAGES, PIPELINE_STAGE_IDS } from "~/lib/pipeline";
import { type KpiFilters, type SurgicalKpis, ansFigures } from "~/models/kpi-surgical.server";
import { kpiPercent } from "~/lib/kpi";

// ---------------------------------------------------------------------------------------------
// KPIs Cirúrgicos

const DAY_MS = 86_400_000;
const STAGE_LIST = PIPELINE_STAGE_IDS.map((stage) => `'${stage}'`).join(", ");

function days(ms: number | null): number | null {
  return ms === null ? null : Math.round((ms / DAY_MS) * 10) / 10;
}

/** The `where` of the period's surgeries `s`, with the filters that apply. */
function cohort(filters: KpiFilters, alias = "s"): string {
  return [
    `${alias}.scheduled_date >= @start and ${alias}.scheduled_date < @end`,
    filters.doctorId ? `${alias}.doctor_id = @doctor` : null,
    filters.payerId ? `${alias}.payer_id = @payer` : null,
  ]
    .filter(Boolean)
    .join(" and ");
}

function params(period: KpiPeriod, filters: KpiFilters) {
  const [start, end] = instantRange(period);
  return {
    start,
    end,
    ...(filters.doctorId ? { doctor: filters.doctorId } : {}),
    ...(filters.payerId ? { payer: filters.payerId } : {}),
  };
}

/**
 * Cirurgias por etapa = count(surgeries of the period) group by current_stage. Listing every stage
 * in `in (…)` lets SQLite seek each stage's date slice of (current_stage, scheduled_date) — or of
 * (doctor, stage, date) / (payer, stage, date) with a filter — reading the index alone, in stage order.
 */
const SURGICAL_BY_STAGE_SQL = (filters: KpiFilters) => `
  select s.current_stage as stage, count(*) as n
    from surgeries s
   where s.current_stage in (${STAGE_LIST}) and ${cohort(filters)}
   group by s.current_stage`;

/**
 * Cirurgias por procedimento = count(surgeries of the period) group by surgery_type (the procedure
 * recorded on the surgery), most frequent first. The period's slice of the date index is grouped
 * in a temporary B-tree of one entry per procedure name.
 */
const SURGICAL_BY_PROCEDURE_SQL = (filters: KpiFilters) => `
  select s.surgery_type as procedure, count(*) as n
    from surgeries s
   where ${cohort(filters)}
   group by s.surgery_type
   order by n desc, procedure
   limit 50`;

/**
 * Tempo em cada etapa: for every move of a surgery of the period into a stage, the stay lasts until
 * that surgery's next move (its history in `pipeline_stages`, sought by (surgery_id, created_at));
 * stays still open (the current stage) are left out. Per stage, the median and the 90th percentile
 * by nearest rank: the stay at rank ⌈0,5·n⌉ and ⌈0,9·n⌉ of the n stays sorted by length.
 */
const SURGICAL_STAGE_TIMES_SQL = (filters: KpiFilters) => `
  with stays as materialized (
    select ps.stage as stage,
           (select min(nx.created_at) from pipeline_stages nx
             where nx.surgery_id = ps.surgery_id and nx.created_at > ps.created_at) - ps.created_at as ms
      from surgeries s
      join pipeline_stages ps on ps.surgery_id = s.id
     where ${cohort(filters)}
  ),
  ranked as (
    select stage, ms,
           row_number() over (partition by stage order by ms) as rn,
           count(*) over (partition by stage) as n
      from stays
     where ms is not null
  )
  select stage, n,
         max(case when rn = (n + 1) / 2 then ms end) as median_ms,
         max(case when rn = (9 * n + 9) / 10 then ms end) as p90_ms
    from ranked
   group by stage`;

/**
 * The pre-authorisation requests of the period's surgeries (`ans_requested_at`, when the request
 * was sent) with the first answer after it (the first move to 'Aprovado' or 'Negado'), and whether
 * the payer ever denied it. One row per surgery with a request: the ANS deadline counts business
 * days on the national and the clinic's calendar, which is computed here, not in SQL.
 */
const SURGICAL_ANS_SQL = (filters: KpiFilters) => `
  select s.payer_id as payer_id,
         s.ans_requested_at as requested_at,
         (select min(ps.created_at) from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at
             and ps.stage in ('aprovado', 'negado')) as answered_at,
         exists (select 1 from pipeline_stages ps
                  where ps.surgery_id = s.id and ps.stage = 'negado') as denied,
         exists (select 1 from pipeline_stages ps
                  where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')) as answered
    from surgeries s
   where ${cohort(filters)} and s.ans_requested_at is not null`;

interface RawAnsRow {
  payer_id: number | null;
  requested_at: number;
  answered_at: number | null;
  denied: number;
  answered: number;
}

export function referenceSurgicalKpis(period: KpiPeriod, filters: KpiFilters = {}, now: Date = new Date()): SurgicalKpis {
  const p = params(period, filters);

  const stageRows = sqlite.prepare(SURGICAL_BY_STAGE_SQL(filters)).all(p) as Array<{ stage: string; n: number }>;
  const stageCounts = new Map(stageRows.map((row) => [row.stage, row.n]));
  const byStage = PIPELINE_STAGES.map(({ id, label }) => ({ stage: id, label, count: stageCounts.get(id) ?? 0 }));
  const total = byStage.reduce((sum, row) => sum + row.count, 0);

  const byProcedure = (sqlite.prepare(SURGICAL_BY_PROCEDURE_SQL(filters)).all(p) as Array<{ procedure: string; n: number }>).map(
    (row) => ({ procedure: row.procedure, count: row.n }),
  );

  // Taxa de sucesso = round(surgeries of the period in 'Concluído' ÷ all surgeries of the period × 100)
  // (SPEC §9: concluded over total, rounded to a whole percent; ADR 0004: 'Concluído' is status completed).
  const concluded = stageCounts.get("concluido") ?? 0;
  const successRate = { concluded, total, percent: kpiPercent(concluded, total, 0) };

  const timeRows = sqlite.prepare(SURGICAL_STAGE_TIMES_SQL(filters)).all(p) as Array<{
    stage: string;
    n: number;
    median_ms: number | null;
    p90_ms: number | null;
  }>;
  const times = new Map(timeRows.map((row) => [row.stage, row]));
  const stageTimes = PIPELINE_STAGES.filter(({ id }) => id !== "concluido" && id !== "cancelado").map(({ id, label }) => {
    const row = times.get(id);
    return { stage: id, label, stays: row?.n ?? 0, medianDays: days(row?.median_ms ?? null), p90Days: days(row?.p90_ms ?? null) };
  });

  const ansRows = sqlite.prepare(SURGICAL_ANS_SQL(filters)).all(p) as RawAnsRow[];
  const { ansCompliance, denialRate } = ansFigures(
    ansRows.map((row) => ({
      payer_id: row.payer_id,
      requested: isoDateInClinic(row.requested_at)!,
      answered_day: row.answered_at === null ? null : isoDateInClinic(row.answered_at)!,
      denied: row.denied,
      answered: row.answered,
    })),
    now,
  );

  return { total, byStage, byProcedure, successRate, stageTimes, ansCompliance, denialRate };
}
