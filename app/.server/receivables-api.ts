import { data } from "react-router";
import { parseId } from "~/lib/list-params";
import { RECEIVABLE_STATUSES, type ReceivableStatus } from "~/lib/receivables";
import { cleanQueryText } from "~/lib/text";
import { isValidIsoDate } from "~/lib/dates";
import { API_ITEMS_LIMIT } from "~/models/receivable.server";

/**
 * Query parameters of GET /api/financeiro/*: a parameter present with a bad value is a 400
 * `{ error }` naming it (a screen's URL forgives junk; an API caller is told).
 */
export function badParam(message: string): never {
  throw data({ error: message }, { status: 400 });
}

export function payerParam(url: URL): number | null {
  const raw = url.searchParams.get("payer_id");
  if (raw === null || raw === "") return null;
  return parseId(raw) ?? badParam("payer_id deve ser um número inteiro positivo.");
}

export function statusParam(url: URL): ReceivableStatus | null {
  const raw = url.searchParams.get("status");
  if (raw === null || raw === "") return null;
  if ((RECEIVABLE_STATUSES as readonly string[]).includes(raw)) return raw as ReceivableStatus;
  return badParam(`status deve ser um de: ${RECEIVABLE_STATUSES.join(", ")}.`);
}

export function searchParam(url: URL): string {
  const raw = url.searchParams.get("search") ?? "";
  if (raw.length > 200) badParam("search deve ter no máximo 200 caracteres.");
  return cleanQueryText(raw);
}

export function dateParam(url: URL, name: "from" | "to"): string | null {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return null;
  return isValidIsoDate(raw) ? raw : badParam(`${name} deve ser uma data AAAA-MM-DD.`);
}

/** `limit` (1 to API_ITEMS_LIMIT, default 100) and `offset` (default 0). */
export function pagingParams(url: URL): { limit: number; offset: number } {
  const number = (name: string, fallback: number, max: number) => {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === "") return fallback;
    const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value > max) badParam(`${name} deve ser um inteiro entre 0 e ${max}.`);
    return value;
  };
  const limit = number("limit", 100, API_ITEMS_LIMIT);
  if (limit < 1) badParam(`limit deve ser um inteiro entre 1 e ${API_ITEMS_LIMIT}.`);
  return { limit, offset: number("offset", 0, 1_000_000) };
}
