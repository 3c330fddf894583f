/**
 * The URL a loader or action answers for, as the address bar shows it.
 *
 * React Router passes loaders and actions the request as it arrived (`v8_passThroughRequests`,
 * react-router.config.ts): no new `Request` per loader, so a page's loaders share one and read
 * its session once (app/.server/session.ts). The browser's data requests arrive as
 * `/patients.data?_routes=…` (the page's own, `/_root.data` for `/`), and an index route's forms
 * post to `…?index`. This takes those marks off, as React Router did before handing the request
 * over, so links, redirects and `redirectTo` built from it point at the page.
 */
export function routeUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname === "/_root.data") url.pathname = "/";
  else if (url.pathname.endsWith(".data")) url.pathname = url.pathname.slice(0, -".data".length);
  // Both always rewrite the query string, as React Router's own stripping did.
  url.searchParams.delete("_routes");
  const index = url.searchParams.getAll("index").filter(Boolean);
  url.searchParams.delete("index");
  for (const value of index) url.searchParams.append("index", value);
  return url;
}
