/**
 * Small helpers for tests that call loaders and actions directly with a Request, the way the
 * server does. The database is already fresh and migrated by tests/unit/setup.ts.
 */
export const TEST_ORIGIN = "http://localhost";

type FormFields = Record<string, string | number | ReadonlyArray<string> | null | undefined>;

/** A GET request to `path` ('/pacientes?q=ana'), optionally with a Cookie header. */
export function getRequest(path: string, init: { cookie?: string; headers?: HeadersInit } = {}): Request {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  return new Request(new URL(path, TEST_ORIGIN), { method: "GET", headers });
}

/**
 * A POST as a browser without JavaScript sends it: url-encoded fields, repeated keys for
 * arrays; null and undefined are left out, as an unchecked checkbox would be.
 */
export function formRequest(
  path: string,
  fields: FormFields,
  init: { cookie?: string; headers?: HeadersInit; method?: string } = {},
): Request {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) body.append(name, item);
    else body.append(name, String(value));
  }
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  if (init.cookie) headers.set("Cookie", init.cookie);
  headers.set("Origin", TEST_ORIGIN);
  return new Request(new URL(path, TEST_ORIGIN), { method: init.method ?? "POST", headers, body });
}

/**
 * The Cookie header a browser would send back after `response`: every Set-Cookie name=value,
 * merged over `previous` (a cookie set to an empty value or expired is dropped).
 */
export function cookieFrom(response: Response, previous = ""): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(/;\s*/).filter(Boolean)) {
    const eq = pair.indexOf("=");
    if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(/;\s*/);
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const expired = attributes.some(
      (a) => /^max-age=(0|-\d+)$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()),
    );
    if (expired || value === "") jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}
