import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "~/root";

function render(error: unknown) {
  const props = { error, params: {}, loaderData: undefined } as unknown as Parameters<typeof ErrorBoundary>[0];
  return renderToString(createElement(MemoryRouter, null, createElement(ErrorBoundary, props)));
}

describe("root error boundary", () => {
  it("shows 'Unexpected Application Error!' when a route fails to render", () => {
    const html = render(new Error("boom"));
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toContain("Voltar ao início");
  });

  it("shows the 404 page for a not-found response", () => {
    // isRouteErrorResponse recognises the shape { status, statusText, internal, data }.
    const html = render({ status: 404, statusText: "Not Found", internal: false, data: null });
    expect(html).toContain("Oops! Page not found");
    expect(html).toContain('href="/"');
  });
});
