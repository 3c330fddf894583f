/**
 * The URL state of a list screen: search, page, sort and the open dialog. Parsing never throws:
 * a hand-edited query string falls back to the defaults instead of failing the page.
 */
export const PAGE_SIZE = 25;

export type SortDirection = "asc" | "desc";

export interface ListParams<SortKey extends string> {
  q: string;
  page: number;
  sort: SortKey;
  dir: SortDirection;
}

export function parseListParams<SortKey extends string>(
  url: URL,
  sortKeys: readonly SortKey[],
  defaults: { sort: SortKey; dir: SortDirection },
): ListParams<SortKey> {
  const params = url.searchParams;
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const page = Number(params.get("page"));
  const sort = params.get("sort");
  const dir = params.get("dir");
  return {
    q,
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
    sort: sort && (sortKeys as readonly string[]).includes(sort) ? (sort as SortKey) : defaults.sort,
    dir: dir === "asc" || dir === "desc" ? dir : defaults.dir,
  };
}

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
 * The list's own URL: its search, page and sort (plus the screen's own filters in `keep`), without
 * any dialog or form field. It is where a dialog closes to and where a save returns.
 */
export function listUrl(url: URL, keep: readonly string[] = []): string {
  const params = new URLSearchParams();
  for (const key of ["q", "page", "sort", "dir", ...keep]) {
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

/** Screens another screen may send a dialog back to when it closes (no open redirects). */
const RETURN_PATHS = ["/schedule"];

/** The `returnTo` of a dialog opened from another screen (the schedule), when it is one of ours. */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return null;
  const path = value.split("?")[0];
  return RETURN_PATHS.includes(path) ? value.slice(0, 500) : null;
}
