/**
 * REFERENCE IMPLEMENTATION for the tests (not app code): the figures of KPIs Operacionais recomputed from
 * the raw tables on every call, as the screen did before the maintained aggregates
 * (docs/decisions/0023-kpi-aggregates.md). The equivalence tests compare the app's report with this one.
 * The formulas' text, constants and percent rounding are the model's own (imported): only the
 * computation from the raw tables is kept here.
 *
 * Former header: KPIs Operacionais (/kpis/operacionais): the agenda's figures for a period, optionally one
 * doctor's. Every figure is a SQL aggregate over an index range (appointments_kpi_start_idx, or
 * appointments_kpi_doctor_start_idx for one doctor: status, booking time and patient are in the
 * index, so no table row is read); the formula of each is written beside it and shown to the user.
 *
 * Days are São Paulo calendar days: the database groups by start time and each start's UTC hour
 * is put on its São Paulo day here (São Paulo's offset has always been whole hours), so historical
 * daylight saving time is right without any time zone arithmetic in SQL.
 */
import { asc } from "drizzle-orm";
import { doctors } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { formatIsoDate, isoDateInClinic } from "~/lib/dates";
import { type KpiFigureData, type KpiReport, type KpiTableData, kpiFigure, kpiPercent, roundKpi, unavailableFigure } from "~/lib/kpi";
import { type KpiPeriod, eachDateOfPeriod, instantRange } from "~/lib/kpi-period";
import { CONVERSION_WINDOW_DAYS, OPERATIONAL_FORMULAS, type OperationalFilters } from "~/models/kpi-operacionais.server";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * One row per start time of the period (appointments share slot times, so these are far fewer
 * than the appointments): counts by outcome and booking lead. Grouped by the indexed column, in
 * index order, so SQLite needs no temporary B-tree.
 */
const HOURLY_SQL = (byDoctor: boolean) => `
  select start_time as start,
         count(*) as total,
         count(case when status = 'cancelled' then 1 end) as cancelled,
         count(case when status = 'completed' then 1 end) as completed,
         count(case when status in ('scheduled', 'confirmed') and start_time < @now then 1 end) as open_past,
         count(case when status <> 'cancelled' and start_time < @now then 1 end) as past,
         count(case when status <> 'cancelled' and created_at <= start_time then 1 end) as lead_n,
         sum(case when status <> 'cancelled' and created_at <= start_time then start_time - created_at end) as lead_ms
    from appointments
   where ${byDoctor ? "doctor_id = @doctor and " : ""}start_time >= @start and start_time < @end
   group by start_time`;
export const OPERATIONAL_HOURLY_SQL = HOURLY_SQL(false);
export const OPERATIONAL_HOURLY_DOCTOR_SQL = HOURLY_SQL(true);

/** One doctor's counts for the period (run per doctor: an index range each, no grouping of the period). */
export const OPERATIONAL_DOCTOR_SQL = `
  select count(*) as total,
         count(case when status = 'cancelled' then 1 end) as cancelled,
         count(case when status = 'completed' then 1 end) as completed,
         count(case when status <> 'cancelled' and created_at <= start_time then 1 end) as lead_n,
         sum(case when status <> 'cancelled' and created_at <= start_time then start_time - created_at end) as lead_ms
    from appointments
   where doctor_id = @doctor and start_time >= @start and start_time < @end`;

/**
 * Completed consultations of the period, and those followed by a surgery of the same patient
 * created within the window after the consultation (a seek per consultation on the patient's surgeries).
 * The covering index is named: SQLite would otherwise seek status = 'completed' and read each row.
 */
const CONVERSION_SQL = (byDoctor: boolean) => `
  select count(*) as consultations,
         count(case when exists (
           select 1 from surgeries s
            where s.patient_id = a.patient_id
              and s.created_at >= a.start_time and s.created_at < a.start_time + ${CONVERSION_WINDOW_DAYS * DAY_MS}
         ) then 1 end) as converted
    from appointments a indexed by ${byDoctor ? "appointments_kpi_doctor_start_idx" : "appointments_kpi_start_idx"}
   where ${byDoctor ? "a.doctor_id = @doctor and " : ""}a.start_time >= @start and a.start_time < @end and a.status = 'completed'`;
export const OPERATIONAL_CONVERSION_SQL = CONVERSION_SQL(false);
export const OPERATIONAL_CONVERSION_DOCTOR_SQL = CONVERSION_SQL(true);

interface HourRow {
  start: number;
  total: number;
  cancelled: number;
  completed: number;
  open_past: number;
  past: number;
  lead_n: number;
  lead_ms: number | null;
}

interface Totals {
  total: number;
  cancelled: number;
  completed: number;
  openPast: number;
  past: number;
  leadN: number;
  leadMs: number;
}

const emptyTotals = (): Totals => ({ total: 0, cancelled: 0, completed: 0, openPast: 0, past: 0, leadN: 0, leadMs: 0 });

function add(into: Totals, row: HourRow) {
  into.total += row.total;
  into.cancelled += row.cancelled;
  into.completed += row.completed;
  into.openPast += row.open_past;
  into.past += row.past;
  into.leadN += row.lead_n;
  into.leadMs += row.lead_ms ?? 0;
}

function params(period: KpiPeriod, filters: OperationalFilters, now: Date) {
  const [start, end] = instantRange(period);
  return { start, end, now: now.getTime(), ...(filters.doctorId ? { doctor: filters.doctorId } : {}) };
}

/** The period's totals and its totals per São Paulo day. */
function hourly(period: KpiPeriod, filters: OperationalFilters, now: Date) {
  const rows = sqlite
    .prepare(filters.doctorId ? OPERATIONAL_HOURLY_DOCTOR_SQL : OPERATIONAL_HOURLY_SQL)
    .all(params(period, filters, now)) as HourRow[];
  const totals = emptyTotals();
  const byDay = new Map<string, Totals>();
  const dayOfHour = new Map<number, string>();
  for (const row of rows) {
    add(totals, row);
    const hour = Math.floor(row.start / HOUR_MS);
    let day = dayOfHour.get(hour);
    if (day === undefined) dayOfHour.set(hour, (day = isoDateInClinic(hour * HOUR_MS)!));
    let dayTotals = byDay.get(day);
    if (!dayTotals) byDay.set(day, (dayTotals = emptyTotals()));
    add(dayTotals, row);
  }
  return { totals, byDay };
}

function conversion(period: KpiPeriod, filters: OperationalFilters, now: Date) {
  return sqlite
    .prepare(filters.doctorId ? OPERATIONAL_CONVERSION_DOCTOR_SQL : OPERATIONAL_CONVERSION_SQL)
    .get(params(period, filters, now)) as { consultations: number; converted: number };
}

const leadDays = (t: { leadN: number; leadMs: number }) => (t.leadN === 0 ? null : roundKpi("days", t.leadMs / t.leadN / DAY_MS));


/** The figures and tables of /kpis/operacionais for `period`, compared with `previous`. */
export function referenceOperationalKpis(
  { period, previous }: { period: KpiPeriod; previous: KpiPeriod },
  filters: OperationalFilters,
  now: Date = new Date(),
): KpiReport {
  const current = hourly(period, filters, now);
  const before = hourly(previous, filters, now);
  const conv = conversion(period, filters, now);
  const convBefore = conversion(previous, filters, now);
  const cur = current.totals;
  const prev = before.totals;

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
      current: kpiPercent(conv.converted, conv.consultations),
      previous: kpiPercent(convBefore.converted, convBefore.consultations),
      reason: "Nenhuma consulta concluída no período",
    }),
  ];

  const perDay: KpiTableData = {
    id: "por-dia",
    title: "Consultas por dia",
    columns: [
      { key: "dia", header: "Dia" },
      { key: "consultas", header: "Consultas", unit: "count" },
      { key: "canceladas", header: "Canceladas", unit: "count" },
    ],
    rows: eachDateOfPeriod(period).map((day) => {
      const t = current.byDay.get(day);
      return { dia: formatIsoDate(day), consultas: t ? t.total - t.cancelled : 0, canceladas: t?.cancelled ?? 0 };
    }),
  };

  return { figures, tables: [perDay, perDoctor(period, filters, now)] };
}

function perDoctor(period: KpiPeriod, filters: OperationalFilters, now: Date): KpiTableData {
  const list = db.select({ id: doctors.id, name: doctors.name }).from(doctors).orderBy(asc(doctors.name), asc(doctors.id)).limit(500).all();
  const statement = sqlite.prepare(OPERATIONAL_DOCTOR_SQL);
  const rows = list
    .filter((doctor) => !filters.doctorId || doctor.id === filters.doctorId)
    .map((doctor) => {
      const r = statement.get(params(period, { doctorId: doctor.id }, now)) as Omit<HourRow, "start" | "open_past" | "past">;
      return { doctor, r };
    })
    .filter(({ r }) => r.total > 0)
    .map(({ doctor, r }) => ({
      medico: doctor.name,
      consultas: r.total - r.cancelled,
      concluidas: r.completed,
      canceladas: r.cancelled,
      cancelamento: kpiPercent(r.cancelled, r.total),
      antecedencia: leadDays({ leadN: r.lead_n, leadMs: r.lead_ms ?? 0 }),
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
