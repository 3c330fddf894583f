/**
 * KPIs Cirúrgicos (/kpis/cirurgicos): the surgical pipeline's figures for a period, optionally one
 * doctor's or one payer's. The formula of each figure is written beside it and shown to the user.
 *
 * The surgeries of a period are those scheduled in it: the São Paulo day of `scheduled_date` from
 * the period's first day to its last (the same as `scheduled_date` in `instantRange`). Every figure
 * below counts that same cohort, so the figures of one period add up with each other.
 *
 * Read from maintained aggregates, never from the raw tables (docs/decisions/0024-kpi-aggregates-surgical-financial.md):
 * triggers keep kpi_surgery_facts (one row per surgery), kpi_stage_stays (one row per completed
 * stay) and kpi_rollups (their sums per year and month) right in the same transaction as every
 * write; a period of up to ten years reads tens of rollup rows per key plus its loose days
 * (app/models/kpi-rollups.server.ts). tests/unit/kpi-aggregates-surgical-financial.test.ts compares every figure with
 * the former full recomputation from the raw tables.
 */
import { inArray } from "drizzle-orm";
import { payers } from "~db/schema";
import { db, prepared } from "~/.server/db";
import { ANS_RESPONSE_BUSINESS_DAYS } from "~/lib/ans";
import { addBusinessDays } from "~/lib/business-days";
import { todayIsoInClinic } from "~/lib/dates";
import { type KpiFigureData, type KpiReport, type KpiTableData, kpiFigure, kpiPercent } from "~/lib/kpi";
import type { KpiPeriod } from "~/lib/kpi-period";
import { PIPELINE_STAGES, type PipelineStage } from "~/lib/pipeline";
import { type PeriodUnits, type RollupRow, addRows, periodUnits, rollupSums, unitList } from "~/models/kpi-rollups.server";
import { clinicHolidaySet } from "~/models/pipeline.server";

export interface KpiFilters {
  doctorId?: number;
  payerId?: number;
}


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

/**
 * Cirurgias por etapa / por procedimento: n surgeries of the cohort per current stage / per
 * surgery_type. Whole years and months from kpi_rollups ('stage', 'procedure'); loose days, and any
 * period with both filters, from kpi_surgery_facts by its day indexes.
 */
export const SURGICAL_FACT_COUNTS_SQL = (filters: KpiFilters, column: "stage" | "procedure") => `
  select ${column} as k1, count(*) as n
    from kpi_surgery_facts
   where ${factsWhere(filters)}
   group by ${column}`;

/**
 * Tempo em cada etapa: completed stays (kpi_stage_stays: a move into a stage followed by a later
 * move of the same surgery; the stay lasts until that next move) of the cohort's surgeries, counted
 * per stage and length in tenths of a day (what the screen shows, rounded half up like
 * `Math.round`). The median and the 90th percentile by nearest rank — the stay at rank ⌈0,5·n⌉ and
 * ⌈0,9·n⌉ of the n stays sorted by length — are found by walking these counts in length order, so
 * they are exact at the screen's precision. Years and months from kpi_rollups ('stay').
 */
export const SURGICAL_STAY_COUNTS_SQL = (filters: KpiFilters) => `
  select stage as k1, tenths as k2, count(*) as n
    from kpi_stage_stays
   where ${factsWhere(filters)}
   group by stage, tenths`;

/**
 * The pre-authorisation requests of the period's surgeries: the day the request was sent, the day
 * of the first answer after it (the first move to 'Aprovado' or 'Negado'), and whether the payer
 * ever answered / denied it (kpi_surgery_facts, kept by triggers). One row per surgery with a
 * request: the ANS deadline counts business days on the national and the clinic's calendar, which
 * is computed here, not in SQL.
 */
export const SURGICAL_ANS_SQL = (filters: KpiFilters) => `
  select payer_id, ans_requested_day as requested, ans_answered_day as answered_day,
         ans_answered as answered, ans_denied as denied
    from kpi_surgery_facts
   where ans_requested_day is not null and ${factsWhere(filters)}`;

/** The `where` of the fact tables' rows of days @from..@to, with the filters that apply. */
function factsWhere(filters: KpiFilters): string {
  return [
    filters.doctorId ? "doctor_id = @doctor" : null,
    filters.payerId ? "payer_id = @payer" : null,
    "day between @from and @to",
  ]
    .filter(Boolean)
    .join(" and ");
}

function filterParams(filters: KpiFilters) {
  return { ...(filters.doctorId ? { doctor: filters.doctorId } : {}), ...(filters.payerId ? { payer: filters.payerId } : {}) };
}

/**
 * Σ of a rollup metric over the period for the filters: whole years and months from kpi_rollups
 * plus the loose days from `daySql` (params @from, @to); with both filters (no rollup row holds a
 * doctor-and-payer pair) the whole period comes from `daySql`.
 */
function periodSums(metric: string, period: KpiPeriod, filters: KpiFilters, daySql: string): Map<string, RollupRow> {
  const both = Boolean(filters.doctorId && filters.payerId);
  const units: PeriodUnits = both ? { years: null, months: [], days: [[period.from, period.to]] } : periodUnits(period);
  const sums = new Map<string, RollupRow>();
  if (!both) addRows(sums, rollupSums(metric, { doctorId: filters.doctorId ?? 0, payerId: filters.payerId ?? 0 }, units));
  const statement = prepared(daySql);
  for (const [from, to] of units.days) {
    const rows = statement.all({ from, to, ...filterParams(filters) }) as Array<{ k1: string; k2?: number; n: number }>;
    addRows(sums, rows.map((row) => ({ k1: row.k1, k2: row.k2 ?? 0, n: row.n, v1: 0, v2: 0, v3: 0 })));
  }
  return sums;
}

/**
 * The completed stays' count, median and 90th percentile (days, one decimal) per stage. The
 * whole-day counts ('stayd') locate, per stage, the day that holds each rank; only that day's
 * tenths ('stay', sought per unit) are then read: tens of rows per unit instead of every length.
 */
function stayPercentiles(period: KpiPeriod, filters: KpiFilters): Map<string, { n: number; median: number | null; p90: number | null }> {
  const both = Boolean(filters.doctorId && filters.payerId);
  const units: PeriodUnits = both ? { years: null, months: [], days: [[period.from, period.to]] } : periodUnits(period);
  const scope = { doctorId: filters.doctorId ?? 0, payerId: filters.payerId ?? 0 };

  // Loose days: every (stage, tenths) count, from kpi_stage_stays.
  const loose = new Map<string, Map<number, number>>();
  for (const [from, to] of units.days) {
    for (const row of prepared(SURGICAL_STAY_COUNTS_SQL(filters)).all({ from, to, ...filterParams(filters) }) as Array<{ k1: string; k2: number; n: number }>) {
      const byTenths = loose.get(row.k1) ?? new Map<number, number>();
      byTenths.set(row.k2, (byTenths.get(row.k2) ?? 0) + row.n);
      loose.set(row.k1, byTenths);
    }
  }
  // Whole days per stage: the rollups' plus the loose days'.
  const byDay = new Map<string, Map<number, number>>();
  const bump = (stage: string, day: number, n: number) => {
    const days = byDay.get(stage) ?? new Map<number, number>();
    days.set(day, (days.get(day) ?? 0) + n);
    byDay.set(stage, days);
  };
  for (const row of rollupSums("stayd", scope, units)) bump(row.k1, row.k2, row.n);
  for (const [stage, byTenths] of loose) for (const [tenths, n] of byTenths) bump(stage, Math.floor(tenths / 10), n);

  // Per stage, the whole day holding each rank (nearest rank: ⌈0,5·n⌉ and ⌈0,9·n⌉) and the rank within it.
  const wanted = new Map<string, { stage: string; day: number }>();
  const found = new Map<string, { n: number; median: { day: number; rank: number }; p90: { day: number; rank: number } }>();
  for (const [stage, days] of byDay) {
    const counts = [...days.entries()].filter(([, n]) => n > 0).sort((x, y) => x[0] - y[0]);
    const n = counts.reduce((sum, [, count]) => sum + count, 0);
    if (n === 0) continue;
    const locate = (rank: number) => {
      let seen = 0;
      for (const [day, count] of counts) {
        if (seen + count >= rank) {
          wanted.set(`${stage}\u0000${day}`, { stage, day });
          return { day, rank: rank - seen };
        }
        seen += count;
      }
      throw new Error(`rank ${rank} beyond ${n} stays`);
    };
    found.set(stage, { n, median: locate(Math.floor((n + 1) / 2)), p90: locate(Math.floor((9 * n + 9) / 10)) });
  }

  // Those days' stays per tenth of a day: one statement seeking each (unit, stage, day) of kpi_rollups.
  const tenths = new Map<string, Map<number, number>>();
  const add = (stage: string, day: number, t: number, n: number) => {
    const key = `${stage}\u0000${day}`;
    const counts = tenths.get(key) ?? new Map<number, number>();
    counts.set(t, (counts.get(t) ?? 0) + n);
    tenths.set(key, counts);
  };
  const years = unitList(units.years, "y");
  const months = units.months.flatMap((range) => unitList(range, "m"));
  if (wanted.size > 0 && years.length + months.length > 0) {
    const rows = prepared(SURGICAL_STAY_TENTHS_SQL).all({
      doctor: scope.doctorId,
      payer: scope.payerId,
      years: JSON.stringify(years),
      months: JSON.stringify(months),
      wanted: JSON.stringify([...wanted.values()].map(({ stage, day }) => [stage, day * 10, day * 10 + 9])),
    }) as Array<{ stage: string; k2: number; n: number }>;
    for (const row of rows) add(row.stage, Math.floor(row.k2 / 10), row.k2, row.n);
  }
  for (const { stage, day } of wanted.values()) for (const [t, n] of loose.get(stage) ?? []) if (Math.floor(t / 10) === day) add(stage, day, t, n);

  const atRank = (stage: string, { day, rank }: { day: number; rank: number }) => {
    let seen = 0;
    for (const [t, n] of [...(tenths.get(`${stage}\u0000${day}`) ?? [])].sort((x, y) => x[0] - y[0])) {
      seen += n;
      if (n > 0 && seen >= rank) return t / 10;
    }
    throw new Error(`rank ${rank} beyond the stays of day ${day}`);
  };
  const result = new Map<string, { n: number; median: number | null; p90: number | null }>();
  for (const [stage, f] of found) result.set(stage, { n: f.n, median: atRank(stage, f.median), p90: atRank(stage, f.p90) });
  return result;
}

/**
 * The stays of some stages that last some whole days (@wanted: [stage, first tenth, last tenth]),
 * counted per tenth of a day over the period's years and months: one seek of kpi_rollups per
 * (stage and day, unit).
 */
export const SURGICAL_STAY_TENTHS_SQL = `
  select stage, k2, sum(n) as n from (${["y", "m"]
    .map(
      (level) => `
    select w.value ->> 0 as stage, r.k2 as k2, r.n as n
      from json_each(@wanted) w
      cross join kpi_rollups r
     where r.metric = 'stay' and r.doctor_id = @doctor and r.payer_id = @payer and r.level = '${level}'
       and r.unit in (select value from json_each(@${level === "y" ? "years" : "months"}))
       and r.k1 = w.value ->> 0 and r.k2 between w.value ->> 1 and w.value ->> 2`,
    )
    .join("\n    union all")}
  )
   group by stage, k2`;

/** A pre-authorisation request: its payer, request day, first answer day, whether answered / denied. */
export interface AnsRow {
  payer_id: number | null;
  requested: string;
  answered_day: string | null;
  denied: number;
  answered: number;
}

export function computeSurgicalKpis(period: KpiPeriod, filters: KpiFilters = {}, now: Date = new Date()): SurgicalKpis {
  const stageCounts = new Map([...periodSums("stage", period, filters, SURGICAL_FACT_COUNTS_SQL(filters, "stage")).values()].map((row) => [row.k1, row.n]));
  const byStage = PIPELINE_STAGES.map(({ id, label }) => ({ stage: id, label, count: stageCounts.get(id) ?? 0 }));
  const total = byStage.reduce((sum, row) => sum + row.count, 0);

  // Most frequent first, ties by name in binary (SQLite's) order; at most 50.
  const byProcedure = [...periodSums("procedure", period, filters, SURGICAL_FACT_COUNTS_SQL(filters, "procedure")).values()]
    .filter((row) => row.n > 0)
    .map((row) => ({ procedure: row.k1, count: row.n }))
    .sort((a, b) => b.count - a.count || (a.procedure < b.procedure ? -1 : a.procedure > b.procedure ? 1 : 0))
    .slice(0, 50);

  // Taxa de sucesso = round(surgeries of the period in 'Concluído' ÷ all surgeries of the period × 100)
  // (SPEC §9: concluded over total, rounded to a whole percent; ADR 0004: 'Concluído' is status completed).
  const concluded = stageCounts.get("concluido") ?? 0;
  const successRate = { concluded, total, percent: kpiPercent(concluded, total, 0) };

  const times = stayPercentiles(period, filters);
  const stageTimes = PIPELINE_STAGES.filter(({ id }) => id !== "concluido" && id !== "cancelado").map(({ id, label }) => {
    const row = times.get(id);
    return { stage: id, label, stays: row?.n ?? 0, medianDays: row?.median ?? null, p90Days: row?.p90 ?? null };
  });

  const ansRows = prepared(SURGICAL_ANS_SQL(filters)).all({ from: period.from, to: period.to, ...filterParams(filters) }) as AnsRow[];
  const { ansCompliance, denialRate } = ansFigures(ansRows, now);

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
export function ansFigures(rows: AnsRow[], now: Date) {
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
    const requested = row.requested;
    let due = dueByDay.get(requested);
    if (due === undefined) {
      due = addBusinessDays(requested, ANS_RESPONSE_BUSINESS_DAYS, holidays);
      dueByDay.set(requested, due);
    }
    if (row.answered_day !== null) bump(ans, row.payer_id, row.answered_day <= due);
    else if (due < today) bump(ans, row.payer_id, false);
    if (row.answered) bump(denial, row.payer_id, row.denied === 1);
  }
  return { ansCompliance: payerRates(ans), denialRate: payerRates(denial) };
}

/** A rate overall and per payer (named, sorted) from each payer's part and whole. */
export function payerRates(map: Map<number | null, { part: number; whole: number }>) {
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
      percent: kpiPercent(entry.part, entry.whole),
    }))
    .sort((a, b) => a.payer.localeCompare(b.payer, "pt-BR"));
  return { part, whole, percent: kpiPercent(part, whole), byPayer: rows };
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
