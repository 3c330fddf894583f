import { isValidIsoDate } from "../dates";
import { FEE_SCHEDULE_KINDS, type FeeScheduleKind, isOneOf } from "../enums";

/**
 * The query parameters of the honorários reports and their APIs (SPEC §7), read once for both:
 * each is absent (no filter) or valid; anything else is a Portuguese message the API answers
 * with 400 `{ error }` and the screen shows above its table.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function dateParam(params: URLSearchParams, name: string, label: string): Parsed<string | null> {
  const raw = params.get(name)?.trim() ?? "";
  if (!raw) return { ok: true, value: null };
  return isValidIsoDate(raw) ? { ok: true, value: raw } : { ok: false, error: `Parâmetro '${name}' inválido: use a data ${label} no formato AAAA-MM-DD.` };
}

function idParam(params: URLSearchParams, name: string): Parsed<number | null> {
  const raw = params.get(name)?.trim() ?? "";
  if (!raw) return { ok: true, value: null };
  return /^[1-9]\d{0,14}$/.test(raw) ? { ok: true, value: Number(raw) } : { ok: false, error: `Parâmetro '${name}' inválido: informe um número de identificação.` };
}

export interface RangeFilter {
  from: string | null;
  to: string | null;
}

function rangeOf(params: URLSearchParams): Parsed<RangeFilter> {
  const from = dateParam(params, "from", "inicial");
  if (!from.ok) return from;
  const to = dateParam(params, "to", "final");
  if (!to.ok) return to;
  if (from.value && to.value && from.value > to.value) return { ok: false, error: "A data inicial ('from') é posterior à final ('to')." };
  return { ok: true, value: { from: from.value, to: to.value } };
}

export function doctorReportParams(params: URLSearchParams): Parsed<RangeFilter & { doctorId: number | null }> {
  const range = rangeOf(params);
  if (!range.ok) return range;
  const doctorId = idParam(params, "doctor_id");
  if (!doctorId.ok) return doctorId;
  return { ok: true, value: { ...range.value, doctorId: doctorId.value } };
}

export function payerReportParams(params: URLSearchParams): Parsed<RangeFilter & { payerId: number | null }> {
  const range = rangeOf(params);
  if (!range.ok) return range;
  const payerId = idParam(params, "payer_id");
  if (!payerId.ok) return payerId;
  return { ok: true, value: { ...range.value, payerId: payerId.value } };
}

export function codeLookupParams(params: URLSearchParams): Parsed<{ code: string }> {
  const code = params.get("code")?.trim() ?? "";
  if (code.length > 20 || /[^\d.\-\s]/.test(code)) return { ok: false, error: "Parâmetro 'code' inválido: use os dígitos do código (ex.: 3.07.15.18-0)." };
  return { ok: true, value: { code } };
}

export function scheduleParams(params: URLSearchParams): Parsed<{ kind: FeeScheduleKind | null; year: number | null; search: string }> {
  const kind = params.get("kind")?.trim() ?? "";
  if (kind && !isOneOf(FEE_SCHEDULE_KINDS, kind)) return { ok: false, error: `Parâmetro 'kind' inválido: use ${FEE_SCHEDULE_KINDS.join(", ")}.` };
  const yearRaw = params.get("year")?.trim() ?? "";
  if (yearRaw && !/^(19|20|21)\d{2}$/.test(yearRaw)) return { ok: false, error: "Parâmetro 'year' inválido: informe o ano com 4 dígitos." };
  const search = params.get("search")?.trim() ?? "";
  if (search.length > 100) return { ok: false, error: "Parâmetro 'search' inválido: use no máximo 100 caracteres." };
  return { ok: true, value: { kind: (kind || null) as FeeScheduleKind | null, year: yearRaw ? Number(yearRaw) : null, search } };
}
