/**
 * KPIs Operacionais (/kpis/operacionais): the agenda's figures for a period, optionally one
 * doctor's; the formula of each is written beside it and shown to the user.
 *
 * Every figure is read from maintained aggregates (docs/decisions/0023-kpi-aggregates.md):
 * `kpi_appointment_buckets` holds, per doctor (0: all doctors) and São Paulo day or month, the
 * appointments by outcome, their booking lead (count and sum) and the completed ones that
 * converted to a surgery; triggers keep it right on every write, in the same transaction. A period
 * reads its whole months and the days of its partial first and last months (kpi-buckets.server.ts),
 * so ten years cost about as much as a month. The one figure that moves with the clock, past
 * appointments without outcome, takes the days before today from the aggregates and today's
 * appointments so far from the appointments index (a day at most).
 *
 * The São Paulo day of an instant is computed in SQL from `kpi_clinic_offsets` (the zone's
 * historical offsets, daylight saving time before 2019 included).
 */
import { asc } from "drizzle-orm";
import { doctors } from "~db/schema";
import { db, prepared } from "~/.server/db";
import { startOfIsoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { type KpiFigureData, type KpiReport, type KpiTableData, kpiFigure, kpiPercent, roundKpi, unavailableFigure } from "~/lib/kpi";
import { type KpiPeriod, addDaysIso } from "~/lib/kpi-period";
import { bucketRanges, eachDayLabelled } from "./kpi-buckets.server";

const DAY_MS = 86_400_000;
/** A consultation converts when the same patient has a surgery created within this many days after it (also in migration 0024's triggers). */
export const CONVERSION_WINDOW_DAYS = 90;

export interface OperationalFilters {
  doctorId: number | null;
}

/** The sums of one doctor's (0: everyone's) buckets of one grain between two bucket keys: a primary-key range. */
export const OPERATIONAL_BUCKETS_SQL = `
  select coalesce(sum(total), 0) as total, coalesce(sum(cancelled), 0) as cancelled, coalesce(sum(completed), 0) as completed,
         coalesce(sum(open), 0) as open, coalesce(sum(lead_n), 0) as lead_n, coalesce(sum(lead_ms), 0) as lead_ms,
         coalesce(sum(converted), 0) as converted
    from kpi_appointment_buckets
   where doctor_id = @doctor and grain = @grain and bucket >= @lo and bucket <= @hi`;

/** One doctor's (0: everyone's) day rows of the period, for the table per day. */
export const OPERATIONAL_DAYS_SQL = `
  select bucket as day, total, cancelled
    from kpi_appointment_buckets
   where doctor_id = @doctor and grain = 'd' and bucket >= @lo and bucket <= @hi`;

/** Today's appointments so far (the clock's moving edge): a range of the covering KPI index. */
const TODAY_SQL = (byDoctor: boolean) => `
  select count(case when status in ('scheduled', 'confirmed') then 1 end) as open_past,
         count(case when status <> 'cancelled' then 1 end) as past
    from appointments
   where ${byDoctor ? "doctor_id = @doctor and " : ""}start_time >= @start and start_time < @now`;
export const OPERATIONAL_TODAY_SQL = TODAY_SQL(false);
export const OPERATIONAL_TODAY_DOCTOR_SQL = TODAY_SQL(true);

interface Totals {
  total: number;
  cancelled: number;
  completed: number;
  open: number;
  leadN: number;
  leadMs: number;
  converted: number;
}

interface BucketRow {
  total: number;
  cancelled: number;
  completed: number;
  open: number;
  lead_n: number;
  lead_ms: number;
  converted: number;
}

/** One doctor's (0: everyone's) totals over the days of `period`. */
function totals(period: KpiPeriod, doctor: number): Totals {
  const sums = prepared(OPERATIONAL_BUCKETS_SQL);
  const t: Totals = { total: 0, cancelled: 0, completed: 0, open: 0, leadN: 0, leadMs: 0, converted: 0 };
  for (const range of bucketRanges(period)) {
    const r = sums.get({ doctor, ...range }) as BucketRow;
    t.total += r.total;
    t.cancelled += r.cancelled;
    t.completed += r.completed;
    t.open += r.open;
    t.leadN += r.lead_n;
    t.leadMs += r.lead_ms;
    t.converted += r.converted;
  }
  return t;
}

/** Past appointments of the period: those not cancelled, and those of them still without outcome. */
function pastOfPeriod(period: KpiPeriod, doctor: number, now: Date) {
  const today = todayIsoInClinic(now);
  const beforeToday = totals({ from: period.from, to: period.to < today ? period.to : addDaysIso(today, -1) }, doctor);
  let past = beforeToday.total - beforeToday.cancelled;
  let openPast = beforeToday.open;
  if (period.from <= today && today <= period.to) {
    const start = startOfIsoDateInClinic(today)!.getTime();
    const r = prepared(doctor ? OPERATIONAL_TODAY_DOCTOR_SQL : OPERATIONAL_TODAY_SQL).get({ start, now: now.getTime(), ...(doctor ? { doctor } : {}) }) as { open_past: number; past: number };
    past += r.past;
    openPast += r.open_past;
  }
  return { past, openPast };
}

function report(period: KpiPeriod, filters: OperationalFilters, now: Date) {
  const doctor = filters.doctorId ?? 0;
  return { ...totals(period, doctor), ...pastOfPeriod(period, doctor, now) };
}

const leadDays = (t: { leadN: number; leadMs: number }) => (t.leadN === 0 ? null : roundKpi("days", t.leadMs / t.leadN / DAY_MS));

export const OPERATIONAL_FORMULAS = {
  appointments: "Consultas não canceladas com início no período (todas as situações exceto 'Cancelada').",
  cancellation: "Consultas canceladas ÷ todas as consultas com início no período × 100.",
  noShow: "Faltas ÷ consultas passadas do período × 100.",
  openPast: "Consultas já passadas ainda 'Agendada' ou 'Confirmada' (sem desfecho registrado) ÷ consultas passadas não canceladas do período × 100.",
  leadTime: "Média, em dias, de (início da consulta − momento da marcação) das consultas não canceladas do período; consultas registradas depois de acontecerem ficam de fora.",
  occupancy: "Horas de consultas ÷ horas de atendimento configuradas de cada médico no período × 100.",
  conversion: `Consultas concluídas no período seguidas de uma cirurgia do mesmo paciente cadastrada em até ${CONVERSION_WINDOW_DAYS} dias ÷ consultas concluídas no período × 100.`,
} as const;

/** The figures and tables of /kpis/operacionais for `period`, compared with `previous`. */
export function operationalKpis(
  { period, previous }: { period: KpiPeriod; previous: KpiPeriod },
  filters: OperationalFilters,
  now: Date = new Date(),
): KpiReport {
  const cur = report(period, filters, now);
  const prev = report(previous, filters, now);

  const figures: KpiFigureData[] = [
    kpiFigure({
      id: "consultas",
      label: "Consultas",
      unit: "count",
      formula: OPERATIONAL_FORMULAS.appointments,
      current: cur.total - cur.cancelled,
      previous: prev.total - prev.cancelled,
    }),
    kpiFigure({
      id: "cancelamento",
      label: "Taxa de cancelamento",
      unit: "percent",
      formula: OPERATIONAL_FORMULAS.cancellation,
      current: kpiPercent(cur.cancelled, cur.total),
      previous: kpiPercent(prev.cancelled, prev.total),
      reason: "Nenhuma consulta no período",
    }),
    unavailableFigure({
      id: "faltas",
      label: "Taxa de não comparecimento",
      unit: "percent",
      formula: OPERATIONAL_FORMULAS.noShow,
      reason: "A agenda não registra faltas: as situações são agendada, confirmada, concluída e cancelada.",
    }),
    kpiFigure({
      id: "sem-desfecho",
      label: "Consultas passadas sem desfecho",
      unit: "percent",
      formula: OPERATIONAL_FORMULAS.openPast,
      current: kpiPercent(cur.openPast, cur.past),
      previous: kpiPercent(prev.openPast, prev.past),
      reason: "Nenhuma consulta passada no período",
    }),
    kpiFigure({
      id: "antecedencia",
      label: "Antecedência média da marcação",
      unit: "days",
      formula: OPERATIONAL_FORMULAS.leadTime,
      current: leadDays(cur),
      previous: leadDays(prev),
      reason: "Nenhuma consulta marcada com antecedência no período",
    }),
    unavailableFigure({
      id: "ocupacao",
      label: "Ocupação da agenda",
      unit: "percent",
      formula: OPERATIONAL_FORMULAS.occupancy,
      reason: "Os horários de atendimento dos médicos ainda não são cadastrados no sistema.",
    }),
    kpiFigure({
      id: "conversao",
      label: "Conversão consulta → cirurgia",
      unit: "percent",
      formula: OPERATIONAL_FORMULAS.conversion,
      current: kpiPercent(cur.converted, cur.completed),
      previous: kpiPercent(prev.converted, prev.completed),
      reason: "Nenhuma consulta concluída no período",
    }),
  ];

  const byDay = new Map<string, [day: string, total: number, cancelled: number]>();
  const days = prepared(OPERATIONAL_DAYS_SQL).raw(true).all({ doctor: filters.doctorId ?? 0, lo: period.from, hi: period.to }) as [string, number, number][];
  for (const row of days) byDay.set(row[0], row);

  const perDay: KpiTableData = {
    id: "por-dia",
    title: "Consultas por dia",
    columns: [
      { key: "dia", header: "Dia" },
      { key: "consultas", header: "Consultas", unit: "count" },
      { key: "canceladas", header: "Canceladas", unit: "count" },
    ],
    rows: eachDayLabelled(period).map(([day, shown]) => {
      const t = byDay.get(day);
      return { dia: shown, consultas: t ? t[1] - t[2] : 0, canceladas: t?.[2] ?? 0 };
    }),
  };

  return { figures, tables: [perDay, perDoctor(period, filters)] };
}

function perDoctor(period: KpiPeriod, filters: OperationalFilters): KpiTableData {
  const list = db.select({ id: doctors.id, name: doctors.name }).from(doctors).orderBy(asc(doctors.name), asc(doctors.id)).limit(500).all();
  const rows = list
    .filter((doctor) => !filters.doctorId || doctor.id === filters.doctorId)
    .map((doctor) => ({ doctor, r: totals(period, doctor.id) }))
    .filter(({ r }) => r.total > 0)
    .map(({ doctor, r }) => ({
      medico: doctor.name,
      consultas: r.total - r.cancelled,
      concluidas: r.completed,
      canceladas: r.cancelled,
      cancelamento: kpiPercent(r.cancelled, r.total),
      antecedencia: leadDays(r),
    }));
  return {
    id: "por-medico",
    title: "Consultas por médico",
    columns: [
      { key: "medico", header: "Médico" },
      { key: "consultas", header: "Consultas", unit: "count" },
      { key: "concluidas", header: "Concluídas", unit: "count" },
      { key: "canceladas", header: "Canceladas", unit: "count" },
      { key: "cancelamento", header: "Taxa de cancelamento", unit: "percent" },
      { key: "antecedencia", header: "Antecedência média", unit: "days" },
    ],
    rows,
    empty: "Nenhuma consulta no período.",
  };
}
