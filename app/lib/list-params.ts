/**
 * The URL state of a list screen: search, page, sort and the open dialog. Parsing never throws:
 * a hand-edited query string falls back to the defaults instead of failing the page.
 */
import { cleanQueryText } from "./text";

export const PAGE_SIZE = 25;
/** Most rows an option list offers: a Cadastros select (hospitals, payers), a list's doctor filter. */
export const REGISTRY_OPTIONS_LIMIT = 500;

export type SortDirection = "asc" | "desc";

export interface ListParams<SortKey extends string> {
  q: string;
  page: number;
  sort: SortKey;
  dir: SortDirection;
  /** Keyset position: the page after this row (`?after=`) or before it (`?before=`); see parseCursor. */
  after?: Cursor | null;
  before?: Cursor | null;
}

/** A row's place in a list's order: its sort key's stored value and its id (the tie-breaker). */
export type Cursor = readonly [key: string | number, id: number];

/** A cursor as it travels in a link (`["silva joao | 123", 42]`, URL-encoded). */
export function formatCursor(cursor: Cursor): string {
  return JSON.stringify(cursor);
}

/** A cursor from the query string, or null for anything that is not one (never throws). */
export function parseCursor(raw: string | null | undefined): Cursor | null {
  if (!raw || raw.length > 600) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [key, id] = value as unknown[];
    const keyOk = (typeof key === "string" && key.length <= 500) || (typeof key === "number" && Number.isFinite(key));
    return keyOk && Number.isSafeInteger(id) && (id as number) > 0 ? [key as string | number, id as number] : null;
  } catch {
    return null;
  }
}

/** One list filter: the query-string parameter it reads and how a raw value becomes a value (or null). */
export interface ListFilter<Value> {
  param: string;
  parse: (raw: string) => Value | null;
}

/** Declared filters: `status: oneOfFilter("status", STATUSES)`, `doctorId: idFilter("doctor")`. */
export type ListFilters = Record<string, ListFilter<unknown>>;
export type FilterValues<Filters extends ListFilters> = {
  [Key in keyof Filters]: Filters[Key] extends ListFilter<infer Value> ? Value | null : never;
};

export function oneOfFilter<const Value extends string>(param: string, values: readonly Value[]): ListFilter<Value> {
  return { param, parse: (raw) => ((values as readonly string[]).includes(raw) ? (raw as Value) : null) };
}

export function idFilter(param: string): ListFilter<number> {
  return { param, parse: parseId };
}

/** What a list screen declares once: its sort keys, default order and filters. */
export interface ListDeclaration<SortKey extends string, Filters extends ListFilters> {
  sorts: readonly SortKey[];
  defaultSort: SortKey;
  defaultDir: SortDirection;
  filters?: Filters;
}

export interface ListState<SortKey extends string, Filters extends ListFilters> extends ListParams<SortKey> {
  filters: FilterValues<Filters>;
}

/** Declares a list (a typed identity: the declaration is checked once, where it is written). */
export function defineList<SortKey extends string, Filters extends ListFilters = Record<never, never>>(
  declaration: ListDeclaration<SortKey, Filters>,
) {
  return declaration;
}

/**
 * The whole URL state of a list, parsed in one place: search (control characters stripped, capped),
 * page, sort and direction, and each declared filter. Anything malformed falls back to its default.
 */
export function parseListState<SortKey extends string, Filters extends ListFilters>(
  url: URL,
  declaration: ListDeclaration<SortKey, Filters>,
): ListState<SortKey, Filters> {
  const params = url.searchParams;
  const page = Number(params.get("page"));
  const sort = params.get("sort");
  const dir = params.get("dir");
  const filters: Record<string, unknown> = {};
  for (const [key, filter] of Object.entries(declaration.filters ?? {})) {
    const raw = params.get(filter.param);
    filters[key] = raw ? filter.parse(raw) : null;
  }
  return {
    q: cleanQueryText(params.get("q")),
    page: Number.isSafeInteger(page) && page > 0 && page <= MAX_PAGE ? page : 1,
    sort: sort && (declaration.sorts as readonly string[]).includes(sort) ? (sort as SortKey) : declaration.defaultSort,
    dir: dir === "asc" || dir === "desc" ? dir : declaration.defaultDir,
    after: parseCursor(params.get("after")),
    before: parseCursor(params.get("before")),
    filters: filters as FilterValues<Filters>,
  };
}

/** The query-string names a list keeps besides search, page and sort: its filters' parameters. */
export function filterParams(declaration: ListDeclaration<string, ListFilters>): string[] {
  return Object.values(declaration.filters ?? {}).map((filter) => filter.param);
}

/** Pages beyond this are not a list anyone reads; the cap keeps OFFSET arithmetic sane. */
const MAX_PAGE = 1_000_000;

export function offsetOf(page: number, pageSize = PAGE_SIZE) {
  return (page - 1) * pageSize;
}

/** Which URL-driven dialog is open: `?dialog=new`, `?edit=ID` or `?delete=ID`. */
export type DialogState = { mode: "new" } | { mode: "edit"; id: number } | { mode: "delete"; id: number } | null;

/** A positive integer id, or null for anything else ("abc", "-1", "1.5"). */
export function parseId(value: unknown): number | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const text = String(value).trim();
  if (!/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

/**
 * The dialog the URL asks for. An `edit` or `delete` with an id that is not a number is
 * reported as `invalid` so the page can answer 404, as for an id that does not exist.
 */
export function parseDialog(url: URL): DialogState | "invalid" {
  const params = url.searchParams;
  if (params.get("dialog") === "new") return { mode: "new" };
  for (const mode of ["edit", "delete"] as const) {
    if (!params.has(mode)) continue;
    const id = parseId(params.get(mode));
    return id === null ? "invalid" : { mode, id };
  }
  return null;
}

/**
 * The list's own URL: its search, page and sort (plus the declared filters), without
 * any dialog or form field. It is where a dialog closes to and where a save returns.
 */
export function listUrl(url: URL, declaration?: ListDeclaration<string, ListFilters>): string {
  const keep = declaration ? filterParams(declaration) : [];
  const params = new URLSearchParams();
  for (const key of ["q", "page", "sort", "dir", "after", "before", ...keep]) {
    const value = url.searchParams.get(key);
    if (value) params.set(key, value);
  }
  const search = params.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

/**
 * Values a dialog's form was resubmitted with as a GET (a picker's 'Buscar' without JavaScript),
 * so the re-rendered dialog keeps what the person had typed. Only the listed fields are taken.
 */
export function draftFromUrl<Key extends string>(url: URL, keys: readonly Key[]): Partial<Record<Key, string>> | null {
  if (!url.searchParams.has("picker")) return null;
  const draft: Partial<Record<Key, string>> = {};
  for (const key of keys) {
    const value = url.searchParams.get(key);
    if (value !== null) draft[key] = value.slice(0, 20_000);
  }
  return draft;
}

/** Screens another screen may send a dialog back to when it closes (no open redirects): the schedule, a patient's page. */
const RETURN_PATHS = [/^\/schedule$/, /^\/patients\/\d{1,15}$/];

/** The `returnTo` of a dialog opened from another screen (the schedule, a patient's page), when it is one of ours. */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return null;
  // Only printable ASCII: what the app's own links produce, and all a Location header can carry.
  if (/[^\x21-\x7E]/.test(value)) return null;
  const path = value.split("?")[0];
  return RETURN_PATHS.some((pattern) => pattern.test(path)) ? value.slice(0, 500) : null;
}
