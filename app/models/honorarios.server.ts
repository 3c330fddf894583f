import { type SQL, and, asc, between, desc, eq, gte, inArray, isNotNull, like, lt, not, or, sql } from "drizzle-orm";
import { doctors, feeDoctorMonths, feeDoctorSplitSurgeries, medicalCodes, payers, referenceFeeSchedules, surgeries, surgeryFeeLines } from "~db/schema";
import { cachedUntilTablesChange, writeCache } from "~/.server/data-cache";
import { db } from "~/.server/db";
import { keysetList } from "~/.server/pagination";
import type { ListParams } from "~/lib/list-params";
import type { FeeScheduleFilters } from "~/lib/lists";
import { isoDateInClinic, startOfIsoDateInClinic } from "~/lib/dates";
import { addDaysIso } from "~/lib/kpi-period";
import type { FeeScheduleKind } from "~/lib/enums";
import { PORTE_TABLE_PREFIX } from "~/lib/fees/porte";
import type { RangeFilter } from "~/lib/fees/report-params";
import { type DayRange, periodUnits } from "./kpi-rollups.server";
import { cbhpmFormat, type FeeViewer } from "./surgery-fees.server";

/**
 * The honorários reports (SPEC §2, §3, §7): per doctor, per CBHPM code, per payer and the
 * reference tables. Each is one aggregate over an index (ADR 0018); the shapes are SPEC §7's.
 */

/** [from 00:00, the day after to 00:00) in São Paulo, as epoch-ms bounds of an instant column. */
function instantRange(column: typeof surgeries.scheduledDate | typeof surgeryFeeLines.serviceDate, range: RangeFilter): SQL[] {
  const bounds: SQL[] = [];
  const from = startOfIsoDateInClinic(range.from);
  const after = range.to ? startOfIsoDateInClinic(addDaysIso(range.to, 1)) : null;
  if (from) bounds.push(gte(column, from));
  if (after) bounds.push(lt(column, after));
  return bounds;
}

export interface DoctorFees {
  id: number;
  name: string;
  specialty: string;
  qty: number;
  total_principal: number;
  total_auxiliar: number;
  total_anestesista: number;
  total: number;
}

/**
 * Per doctor: surgeries taken part in and totals as principal, auxiliar and anestesista (cents), of
 * the lines whose service date falls in the range (São Paulo days; without dates, every line). A
 * doctor sees only their own row.
 */
export function feesByDoctor(filter: RangeFilter & { doctorId: number | null }, viewer: FeeViewer): DoctorFees[] {
  // Kept until the fee lines or the doctors change, not recomputed after every appointment or payment written.
  return cachedUntilTablesChange(["surgery_fee_lines", "doctors"], `fees-by-doctor:${JSON.stringify([filter, viewer])}`, () =>
    computeFeesByDoctor(filter, viewer),
  );
}

/** What a doctor's lines in a period add up to. */
interface FeeSums {
  doctorId: number;
  lines: number;
  surgeries: number;
  principal: number;
  auxiliar: number;
  anestesista: number;
}

/**
 * A range cut for `fee_doctor_months`: its whole months (inclusive 'YYYY-MM' pairs) and its loose
 * days (inclusive ISO pairs) at either end; "all" without dates (every month, and the lines without
 * a date). An open end reaches the first or last month there can be.
 */
function feePeriod(range: RangeFilter): { months: DayRange[]; days: DayRange[] } | "all" {
  if (!range.from && !range.to) return "all";
  const units = periodUnits({ from: range.from ?? "0001-01-01", to: range.to ?? "9999-12-31" });
  const months = [...(units.years ? [[`${units.years[0]}-01`, `${units.years[1]}-12`] as DayRange] : []), ...units.months];
  return { months, days: units.days };
}

/**
 * `feesByDoctor`, read from the database every time (the bench's figures without the cache). A
 * period's whole months are read from `fee_doctor_months` (at most a few hundred rows a doctor for
 * twenty years); its loose days, two stretches of less than a month, from the lines' index by doctor
 * and date. Summing every line of twenty years took 180 ms (ADR 0008). A surgery whose lines fall
 * in several of the period's months, or in one and its loose days, is counted once in each
 * (`fee_doctor_split_surgeries`, usually none): the extra counts are taken off.
 */
export function computeFeesByDoctor(filter: RangeFilter & { doctorId: number | null }, viewer: FeeViewer): DoctorFees[] {
  if (viewer.ownDoctorOnly && (viewer.doctorId === null || (filter.doctorId !== null && filter.doctorId !== viewer.doctorId))) return [];
  const doctorId = viewer.ownDoctorOnly ? viewer.doctorId : filter.doctorId;
  const period = feePeriod(filter);
  const parts: FeeSums[] = [];
  if (period === "all") parts.push(...monthSums(undefined, doctorId));
  else {
    if (period.months.length) parts.push(...monthSums(or(...period.months.map(([from, to]) => between(feeDoctorMonths.month, from, to))), doctorId));
    for (const days of period.days) parts.push(...looseDaySums(days, doctorId));
  }
  const extra = splitSurgeriesCounted(period, doctorId);
  const byDoctor = new Map<number, FeeSums>();
  for (const part of parts) {
    const sums = byDoctor.get(part.doctorId);
    if (!sums) byDoctor.set(part.doctorId, { ...part });
    else for (const key of ["lines", "surgeries", "principal", "auxiliar", "anestesista"] as const) sums[key] += part[key];
  }
  const found = [...byDoctor.values()].filter((sums) => sums.lines > 0);
  if (found.length === 0) return [];
  const names = new Map(
    db
      .select({ id: doctors.id, name: doctors.name, specialty: doctors.specialty })
      .from(doctors)
      .where(inArray(doctors.id, found.map((sums) => sums.doctorId)))
      .all()
      .map((doctor) => [doctor.id, doctor]),
  );
  return found
    .map((sums) => ({
      id: sums.doctorId,
      name: names.get(sums.doctorId)?.name ?? "",
      specialty: names.get(sums.doctorId)?.specialty ?? "",
      qty: sums.surgeries - (extra.get(sums.doctorId) ?? 0),
      total_principal: sums.principal,
      total_auxiliar: sums.auxiliar,
      total_anestesista: sums.anestesista,
      total: sums.principal + sums.auxiliar + sums.anestesista,
    }))
    .sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Each doctor's sums over the months `within` selects (every month when undefined), by the table's key. */
function monthSums(within: SQL | undefined, doctorId: number | null): FeeSums[] {
  const m = feeDoctorMonths;
  return db
    .select({
      doctorId: m.doctorId,
      lines: sql<number>`sum(${m.lines})`,
      surgeries: sql<number>`sum(${m.surgeries})`,
      principal: sql<number>`sum(${m.principalCents})`,
      auxiliar: sql<number>`sum(${m.auxiliarCents})`,
      anestesista: sql<number>`sum(${m.anestesistaCents})`,
    })
    .from(m)
    .where(and(doctorId !== null ? eq(m.doctorId, doctorId) : undefined, within))
    .groupBy(m.doctorId)
    .all();
}

/** Each doctor's lines of the days [from, to], from `surgery_fee_lines_doctor_date_idx` alone. */
function looseDaySums([from, to]: DayRange, doctorId: number | null): FeeSums[] {
  const f = surgeryFeeLines;
  const sumOf = (role: string) => sql<number>`coalesce(sum(case when ${f.role} = ${role} then ${f.amountCents} end), 0)`;
  return (
    db
      .select({
        doctorId: doctors.id,
        lines: sql<number>`count(*)`,
        surgeries: sql<number>`count(distinct ${f.surgeryId})`,
        principal: sumOf("principal"),
        auxiliar: sumOf("auxiliar"),
        anestesista: sumOf("anestesista"),
      })
      // CROSS JOIN keeps doctors as the outer loop: each doctor's lines in the range are a slice of the index.
      .from(doctors)
      .crossJoin(f)
      .where(and(eq(f.doctorId, doctors.id), ...instantRange(f.serviceDate, { from, to }), doctorId !== null ? eq(doctors.id, doctorId) : undefined))
      .groupBy(doctors.id)
      .all()
  );
}

/**
 * Per doctor, how many more times than once the period's parts (each whole month, each stretch of
 * loose days; every month and the lines without a date when it has no dates) counted the surgeries
 * whose lines fall in several of them: read from those surgeries' few lines.
 */
function splitSurgeriesCounted(period: ReturnType<typeof feePeriod>, doctorId: number | null): Map<number, number> {
  const split = feeDoctorSplitSurgeries;
  const f = surgeryFeeLines;
  const lines = db
    .select({ doctorId: split.doctorId, surgeryId: split.surgeryId, at: f.serviceDate })
    .from(split)
    .crossJoin(f)
    // `+doctor_id`: each surgery's few lines by its index, not the doctor's thousands by theirs.
    .where(and(eq(f.surgeryId, split.surgeryId), eq(sql`+${f.doctorId}`, split.doctorId), doctorId !== null ? eq(split.doctorId, doctorId) : undefined))
    .all();
  const partOf = (at: Date | null): string | null => {
    const day = at === null ? null : isoDateInClinic(at);
    if (period === "all") return day ? day.slice(0, 7) : "";
    if (!day) return null;
    const loose = period.days.findIndex(([from, to]) => day >= from && day <= to);
    if (loose >= 0) return `days ${loose}`;
    return period.months.some(([from, to]) => day.slice(0, 7) >= from && day.slice(0, 7) <= to) ? day.slice(0, 7) : null;
  };
  const parts = new Map<string, { doctorId: number; parts: Set<string> }>();
  for (const line of lines) {
    const part = partOf(line.at);
    if (part === null) continue;
    const key = `${line.doctorId}:${line.surgeryId}`;
    const entry = parts.get(key) ?? { doctorId: line.doctorId, parts: new Set<string>() };
    entry.parts.add(part);
    parts.set(key, entry);
  }
  const extra = new Map<number, number>();
  for (const { doctorId: id, parts: counted } of parts.values()) {
    if (counted.size > 1) extra.set(id, (extra.get(id) ?? 0) + counted.size - 1);
  }
  return extra;
}

export interface CbhpmCodeRow {
  code: string;
  description: string;
  year: number;
  base_value_cents: number;
  usage_count: number;
}

/** The lookup's bounds on the code: its prefix as typed, or the CBHPM form of 8 bare digits. */
function codePrefix(code: string): string {
  const digits = code.replace(/\D/g, "");
  return digits.length === 8 && !/[.\-]/.test(code) ? cbhpmFormat(digits) : code.replace(/\s/g, "");
}

/** Code lookups kept until the next write, apart from the figures (the codes are typed). */
const lookupsUntilWrite = writeCache(32);

/**
 * CBHPM codes of the reference tables by code prefix (porte tables left out), each with how many
 * surgeries had it as a procedure (principal fee lines of the code, counted per surgery from
 * `surgery_fee_lines_code_role_idx`). At most 50, by code and newest edition first.
 */
export function cbhpmCodeLookup({ code }: { code: string }, limit = 50): CbhpmCodeRow[] {
  // Each code's surgeries are counted in its principal fee lines (5 ms for a page of common codes):
  // the same on every view until a write.
  return lookupsUntilWrite(JSON.stringify([code, limit]), () => computeCodeLookup(code, limit));
}

function computeCodeLookup(code: string, limit: number): CbhpmCodeRow[] {
  const r = referenceFeeSchedules;
  const prefix = codePrefix(code);
  // The code's row in the medical codes (by the unique (type, code) index), then its principal lines.
  const usage = sql<number>`coalesce((select count(distinct ${surgeryFeeLines.surgeryId}) from ${surgeryFeeLines}
    where ${surgeryFeeLines.medicalCodeId} = ${medicalCodes.id} and ${surgeryFeeLines.role} = 'principal'), 0)`;
  return db
    .select({ code: r.code, description: r.description, year: r.year, base_value_cents: r.baseValueCents, usage_count: usage })
    .from(r)
    .leftJoin(medicalCodes, and(eq(medicalCodes.type, "cbhpm"), eq(medicalCodes.code, r.code)))
    .where(
      and(
        eq(r.kind, "CBHPM"),
        not(like(r.version, `${PORTE_TABLE_PREFIX}%`)),
        prefix ? and(gte(r.code, prefix), lt(r.code, `${prefix}\uffff`)) : undefined,
      ),
    )
    .orderBy(asc(r.code), desc(r.year))
    .limit(limit)
    .all();
}

export interface PayerSummary {
  id: number;
  name: string;
  type: string;
  qty: number;
  total: number;
  avg_payment_days: number | null;
}

/**
 * Per payer, over the performed surgeries (those with a receivable status) in the range: how many,
 * the billed total (cents) and the average time from billing (else the surgery) to payment
 * (`paid_at`), in SECONDS as SPEC §3 holds it (null when none was paid). Read from
 * `surgeries_payer_date_billing_idx` alone.
 */
export function payerSummary(filter: RangeFilter & { payerId: number | null }): PayerSummary[] {
  // Kept until the surgeries or the payers change, not recomputed after every appointment or patient written.
  return cachedUntilTablesChange(["surgeries", "payers"], `payer-summary:${JSON.stringify(filter)}`, () => computePayerSummary(filter));
}

/** `payerSummary`, read from the database every time (the bench's figures without the cache). */
export function computePayerSummary(filter: RangeFilter & { payerId: number | null }): PayerSummary[] {
  const s = surgeries;
  const rows = db
    .select({
      id: payers.id,
      name: payers.name,
      type: payers.type,
      qty: sql<number>`count(*)`,
      total: sql<number>`coalesce(sum(${s.billedAmountCents}), 0)`,
      avgMs: sql<number | null>`avg(case when ${s.paidAt} is not null then ${s.paidAt} - coalesce(${s.billedAt}, ${s.scheduledDate}) end)`,
    })
    // CROSS JOIN keeps payers as the outer loop (SQLite never reorders it): each payer's surgeries
    // in the range are then a slice of the covering index, whatever the planner guesses of the dates.
    .from(payers)
    .crossJoin(s)
    .where(and(eq(s.payerId, payers.id), ...instantRange(s.scheduledDate, filter), isNotNull(s.receivableStatus), filter.payerId !== null ? eq(payers.id, filter.payerId) : undefined))
    .groupBy(payers.id)
    .orderBy(desc(sql`coalesce(sum(${s.billedAmountCents}), 0)`), asc(payers.name))
    .all();
  return rows.map(({ avgMs, ...row }) => ({ ...row, avg_payment_days: avgMs === null ? null : Math.round(avgMs / 1000) }));
}

export interface ScheduleRow {
  kind: FeeScheduleKind;
  year: number;
  version: string;
  code: string;
  description: string;
  base_value_cents: number;
}

function scheduleWhere({ kind, year, search }: { kind: FeeScheduleKind | null; year: number | null; search: string }) {
  const r = referenceFeeSchedules;
  const term = search.replace(/[%_\\]/g, "");
  return and(
    kind ? eq(r.kind, kind) : undefined,
    year ? eq(r.year, year) : undefined,
    term ? or(and(gte(r.code, term), lt(r.code, `${term}\uffff`)), like(r.description, `%${term}%`)) : undefined,
  );
}

/** Reference fee schedules by kind, year and search (code prefix or words of the description), at most `limit`. */
export function listSchedules(filter: { kind: FeeScheduleKind | null; year: number | null; search: string }, limit = 200): ScheduleRow[] {
  const r = referenceFeeSchedules;
  return db
    .select({ kind: r.kind, year: r.year, version: r.version, code: r.code, description: r.description, base_value_cents: r.baseValueCents })
    .from(r)
    .where(scheduleWhere(filter))
    .orderBy(asc(r.kind), desc(r.year), asc(r.version), asc(r.code))
    .limit(limit)
    .all();
}

/** The years on file, newest first, for the screen's filter. */
export function scheduleYears(): number[] {
  return db.selectDistinct({ year: referenceFeeSchedules.year }).from(referenceFeeSchedules).orderBy(desc(referenceFeeSchedules.year)).limit(100).all().map((r) => r.year);
}

/** The /honorarios/tabelas screen: a keyset page in code order, with the count capped as every list's. */
export function listScheduleRows(state: ListParams<"code"> & { filters: FeeScheduleFilters }) {
  const r = referenceFeeSchedules;
  const where = scheduleWhere({ kind: state.filters.kind, year: state.filters.year, search: state.q });
  const order = { key: r.code, id: r.id, dir: state.dir };
  return keysetList(r, where, state, order, (at, orderBy, limit, offset) =>
    db
      .select({ id: r.id, kind: r.kind, year: r.year, version: r.version, code: r.code, description: r.description, baseValueCents: r.baseValueCents, cursorKey: order.key })
      .from(r)
      .where(at)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset)
      .all(),
  );
}
