/**
 * KPIs Cirúrgicos (/kpis/cirurgicos): the surgical pipeline's figures for a period, optionally one
 * doctor's or one payer's. Plain SQL aggregates; the formula of each figure is written beside it
 * and shown to the user.
 *
 * The surgeries of a period are those scheduled in it: `scheduled_date` (an instant) in the
 * period's [start, end) instants (São Paulo midnights, `instantRange`). Every figure below counts
 * that same cohort, so the figures of one period add up with each other.
 */
import { inArray } from "drizzle-orm";
import { payers } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { ANS_RESPONSE_BUSINESS_DAYS } from "~/lib/ans";
import { addBusinessDays } from "~/lib/business-days";
import { isoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { type KpiFigureData, type KpiReport, type KpiTableData, kpiFigure } from "~/lib/kpi";
import { type KpiPeriod, instantRange } from "~/lib/kpi-period";
import { PIPELINE_STAGES, PIPELINE_STAGE_IDS, type PipelineStage } from "~/lib/pipeline";
import { clinicHolidaySet } from "~/models/pipeline.server";

export interface KpiFilters {
  doctorId?: number;
  payerId?: number;
}

const DAY_MS = 86_400_000;
const STAGE_LIST = PIPELINE_STAGE_IDS.map((stage) => `'${stage}'`).join(", ");

/** Reason shown under '—' when the period has no surgery. */
export const NO_SURGERIES = "Nenhuma cirurgia agendada no período";

export interface StageCount {
  stage: PipelineStage;
  label: string;
  count: number;
}

export interface StageTime {
  stage: PipelineStage;
  label: string;
  /** Completed stays in the stage (the surgery moved on). */
  stays: number;
  /** Days, one decimal; null without a completed stay. */
  medianDays: number | null;
  p90Days: number | null;
}

export interface PayerRate {
  payerId: number;
  payer: string;
  part: number;
  whole: number;
  /** part / whole × 100, one decimal; null when whole is 0. */
  percent: number | null;
}

export interface SurgicalKpis {
  total: number;
  byStage: StageCount[];
  byProcedure: Array<{ procedure: string; count: number }>;
  /** round(concluded / total × 100); null (with `NO_SURGERIES`) when there is no surgery. */
  successRate: { concluded: number; total: number; percent: number | null };
  stageTimes: StageTime[];
  /** Requests answered within 10 business days ÷ requests answered or overdue. */
  ansCompliance: { part: number; whole: number; percent: number | null; byPayer: PayerRate[] };
  /** Surgeries denied ÷ surgeries the payer answered. */
  denialRate: { part: number; whole: number; percent: number | null; byPayer: PayerRate[] };
}

/** part / whole × 100, one decimal; null when whole is 0. */
export function percentOf(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 1000) / 10;
}

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
export const SURGICAL_BY_STAGE_SQL = (filters: KpiFilters) => `
  select s.current_stage as stage, count(*) as n
    from surgeries s
   where s.current_stage in (${STAGE_LIST}) and ${cohort(filters)}
   group by s.current_stage`;

/**
 * Cirurgias por procedimento = count(surgeries of the period) group by surgery_type (the procedure
 * recorded on the surgery), most frequent first. The period's slice of the date index is grouped
 * in a temporary B-tree of one entry per procedure name.
 */
export const SURGICAL_BY_PROCEDURE_SQL = (filters: KpiFilters) => `
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
export const SURGICAL_STAGE_TIMES_SQL = (filters: KpiFilters) => `
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
export const SURGICAL_ANS_SQL = (filters: KpiFilters) => `
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

interface AnsRow {
  payer_id: number | null;
  requested_at: number;
  answered_at: number | null;
  denied: number;
  answered: number;
}

export function computeSurgicalKpis(period: KpiPeriod, filters: KpiFilters = {}, now: Date = new Date()): SurgicalKpis {
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
  const successRate = { concluded, total, percent: total === 0 ? null : Math.round((concluded / total) * 100) };

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

  const { ansCompliance, denialRate } = ansFigures(sqlite.prepare(SURGICAL_ANS_SQL(filters)).all(p) as AnsRow[], now);

  return { total, byStage, byProcedure, successRate, stageTimes, ansCompliance, denialRate };
}

/**
 * Cumprimento do prazo ANS = requests answered by the last day of the 10-business-day clock
 * (RN 623/2024: the request day plus 10 business days, national and clinic holidays excluded)
 * ÷ (requests answered + requests unanswered whose last day has passed). Requests still within
 * their clock are not counted either way. One decimal, overall and per payer.
 *
 * Taxa de negativa = surgeries the payer denied at least once (a move to 'Negado') ÷ surgeries
 * the payer answered (a move to 'Aprovado' or 'Negado'). One decimal, overall and per payer.
 */
function ansFigures(rows: AnsRow[], now: Date) {
  const holidays = clinicHolidaySet();
  const today = todayIsoInClinic(now);
  const dueByDay = new Map<string, string>();
  const ans = new Map<number | null, { part: number; whole: number }>();
  const denial = new Map<number | null, { part: number; whole: number }>();
  const bump = (map: typeof ans, payer: number | null, part: boolean) => {
    const entry = map.get(payer) ?? { part: 0, whole: 0 };
    entry.whole++;
    if (part) entry.part++;
    map.set(payer, entry);
  };
  for (const row of rows) {
    const requested = isoDateInClinic(row.requested_at)!;
    let due = dueByDay.get(requested);
    if (due === undefined) {
      due = addBusinessDays(requested, ANS_RESPONSE_BUSINESS_DAYS, holidays);
      dueByDay.set(requested, due);
    }
    if (row.answered_at !== null) bump(ans, row.payer_id, isoDateInClinic(row.answered_at)! <= due);
    else if (due < today) bump(ans, row.payer_id, false);
    if (row.answered) bump(denial, row.payer_id, row.denied === 1);
  }
  return { ansCompliance: byPayer(ans), denialRate: byPayer(denial) };
}

function byPayer(map: Map<number | null, { part: number; whole: number }>) {
  let part = 0;
  let whole = 0;
  for (const entry of map.values()) {
    part += entry.part;
    whole += entry.whole;
  }
  const ids = [...map.keys()].filter((id): id is number => id !== null);
  const names = new Map(
    ids.length
      ? db
          .select({ id: payers.id, name: payers.name })
          .from(payers)
          .where(inArray(payers.id, ids))
          .all()
          .map((row) => [row.id, row.name])
      : [],
  );
  const rows: PayerRate[] = [...map.entries()]
    .map(([payerId, entry]) => ({
      payerId: payerId ?? 0,
      payer: payerId === null ? "Sem convênio cadastrado" : (names.get(payerId) ?? `#${payerId}`),
      ...entry,
      percent: percentOf(entry.part, entry.whole),
    }))
    .sort((a, b) => a.payer.localeCompare(b.payer, "pt-BR"));
  return { part, whole, percent: percentOf(part, whole), byPayer: rows };
}

// ---------------------------------------------------------------------------------------------
// The screen's report: the figures of the period beside those of the previous period.

/** What the user reads on hover/focus of each figure: the formulas above, in Portuguese. */
export const SURGICAL_FORMULAS = {
  total: "Cirurgias com data agendada no período, em qualquer etapa.",
  success: "Cirurgias do período na etapa Concluído ÷ todas as cirurgias do período × 100, arredondado.",
  ans:
    "Pedidos de autorização respondidos (Aprovado ou Negado) até o 10º dia útil após o envio (RN 623/2024; feriados nacionais e da clínica excluídos) ÷ pedidos respondidos ou com o prazo vencido × 100. Pedidos ainda no prazo não entram.",
  denial: "Cirurgias negadas ao menos uma vez ÷ cirurgias que o convênio respondeu (Aprovado ou Negado) × 100.",
  authorisation:
    "Mediana do tempo na etapa Enviado Pré-aut: da entrada na etapa à movimentação seguinte, nas cirurgias do período (permanências em andamento não entram).",
} as const;

/** The doctor and payer of a screen's URL (null: all). */
export type ScreenFilters = { doctorId?: number | null; payerId?: number | null };

export function modelFilters(filters: ScreenFilters): KpiFilters {
  return { ...(filters.doctorId ? { doctorId: filters.doctorId } : {}), ...(filters.payerId ? { payerId: filters.payerId } : {}) };
}

/** The figures and tables of /kpis/cirurgicos for `period`, compared with `previous`. */
export function surgicalKpis({ period, previous }: { period: KpiPeriod; previous: KpiPeriod }, filters: ScreenFilters, now: Date = new Date()): KpiReport {
  const cur = computeSurgicalKpis(period, modelFilters(filters), now);
  const prev = computeSurgicalKpis(previous, modelFilters(filters), now);
  const authorisation = (k: SurgicalKpis) => k.stageTimes.find((t) => t.stage === "enviado_pre_aut")?.medianDays ?? null;

  const figures: KpiFigureData[] = [
    kpiFigure({ id: "cirurgias", label: "Cirurgias", unit: "count", formula: SURGICAL_FORMULAS.total, current: cur.total, previous: prev.total }),
    kpiFigure({
      id: "sucesso",
      label: "Taxa de sucesso",
      unit: "percent",
      formula: SURGICAL_FORMULAS.success,
      current: cur.successRate.percent,
      previous: prev.successRate.percent,
      reason: NO_SURGERIES,
    }),
    kpiFigure({
      id: "prazo-ans",
      label: "Cumprimento do prazo ANS",
      unit: "percent",
      formula: SURGICAL_FORMULAS.ans,
      current: cur.ansCompliance.percent,
      previous: prev.ansCompliance.percent,
      reason: "Nenhum pedido respondido ou vencido no período",
    }),
    kpiFigure({
      id: "negativa",
      label: "Taxa de negativa",
      unit: "percent",
      formula: SURGICAL_FORMULAS.denial,
      current: cur.denialRate.percent,
      previous: prev.denialRate.percent,
      reason: "Nenhum pedido respondido pelo convênio no período",
    }),
    kpiFigure({
      id: "tempo-autorizacao",
      label: "Tempo mediano de autorização",
      unit: "days",
      formula: SURGICAL_FORMULAS.authorisation,
      current: authorisation(cur),
      previous: authorisation(prev),
      reason: "Nenhum pedido saiu de Enviado Pré-aut no período",
    }),
  ];

  const byStage: KpiTableData = {
    id: "por-etapa",
    title: "Cirurgias por etapa",
    columns: [
      { key: "etapa", header: "Etapa" },
      { key: "cirurgias", header: "Cirurgias", unit: "count" },
      { key: "anterior", header: "Período anterior", unit: "count" },
    ],
    rows: cur.byStage.map((row, i) => ({ etapa: row.label, cirurgias: row.count, anterior: prev.byStage[i]!.count })),
  };
  const byProcedure: KpiTableData = {
    id: "por-procedimento",
    title: "Cirurgias por procedimento",
    columns: [
      { key: "procedimento", header: "Procedimento" },
      { key: "cirurgias", header: "Cirurgias", unit: "count" },
    ],
    rows: cur.byProcedure.map((row) => ({ procedimento: row.procedure, cirurgias: row.count })),
    empty: "Nenhuma cirurgia agendada no período.",
  };
  const stageTimes: KpiTableData = {
    id: "tempo-por-etapa",
    title: "Tempo em cada etapa",
    columns: [
      { key: "etapa", header: "Etapa" },
      { key: "permanencias", header: "Permanências concluídas", unit: "count" },
      { key: "mediana", header: "Mediana", unit: "days" },
      { key: "p90", header: "Percentil 90", unit: "days" },
    ],
    rows: cur.stageTimes.map((row) => ({ etapa: row.label, permanencias: row.stays, mediana: row.medianDays, p90: row.p90Days })),
  };
  const byPayer: KpiTableData = {
    id: "por-convenio",
    title: "Prazo ANS e negativas por convênio",
    columns: [
      { key: "convenio", header: "Convênio" },
      { key: "pedidos", header: "Pedidos avaliados", unit: "count" },
      { key: "prazo", header: "No prazo ANS", unit: "percent" },
      { key: "respondidos", header: "Respondidos", unit: "count" },
      { key: "negativa", header: "Taxa de negativa", unit: "percent" },
    ],
    rows: payerRows(cur),
    empty: "Nenhum pedido de autorização avaliado no período.",
  };
  return { figures, tables: [byStage, byProcedure, stageTimes, byPayer] };
}

function payerRows(kpis: SurgicalKpis) {
  const payersById = new Map<number, string>();
  for (const row of [...kpis.ansCompliance.byPayer, ...kpis.denialRate.byPayer]) payersById.set(row.payerId, row.payer);
  return [...payersById.entries()]
    .sort((a, b) => a[1].localeCompare(b[1], "pt-BR"))
    .map(([id, payer]) => {
      const ans = kpis.ansCompliance.byPayer.find((row) => row.payerId === id);
      const denial = kpis.denialRate.byPayer.find((row) => row.payerId === id);
      return { convenio: payer, pedidos: ans?.whole ?? 0, prazo: ans?.percent ?? null, respondidos: denial?.whole ?? 0, negativa: denial?.percent ?? null };
    });
}
