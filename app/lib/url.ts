/**
 * URL helpers shared by the browser and the server (no Node or DOM-only APIs).
 * Screens keep their state in the query string (`?q=`, `?page=`, `?dialog=new`, `?edit=5`).
 */

export type ParamChanges = Record<string, string | number | null | undefined>;

/**
 * Returns a new query string ("?a=1&b=2", or "?" when nothing is left) from `search` with
 * `changes` applied: a value sets the parameter (keeping its place), `null`/`undefined` deletes it.
 *
 * withParams("?q=ana&page=2", { page: null, edit: 5 }) === "?q=ana&edit=5"
 */
export function withParams(search: URLSearchParams | string, changes: ParamChanges): string {
  const params = new URLSearchParams(typeof search === "string" ? search : search.toString());
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === undefined) params.delete(name);
    else params.set(name, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/**
 * Like `withParams`, but returns an absolute "pathname?query" (just the pathname when the query is
 * empty). Prefer it for links rendered inside layout routes, where a bare "?…" would resolve against
 * the layout's path instead of the current URL.
 */
export function pathWithParams(
  pathname: string,
  search: URLSearchParams | string,
  changes: ParamChanges,
): string {
  const query = withParams(search, changes);
  return query === "?" ? pathname : `${pathname}${query}`;
}

/** `href` ("pathname" or "pathname?query", as `listUrl` gives) with `changes` applied (`pathWithParams`). */
export function hrefWithParams(href: string, changes: ParamChanges): string {
  const at = href.indexOf("?");
  return at < 0 ? pathWithParams(href, "", changes) : pathWithParams(href.slice(0, at), href.slice(at + 1), changes);
}
