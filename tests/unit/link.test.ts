/**
 * The kit's Link renders on the server exactly what React Router's <Link> renders (so hydration
 * finds the same markup), for the plain absolute paths it handles itself and for the rest.
 */
import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { Link as RouterLink, StaticRouter } from "react-router";
import { expect, test } from "vitest";
import { Link, type LinkProps } from "~/components/ui/link";

function render(component: typeof RouterLink, props: LinkProps) {
  return renderToString(
    createElement(StaticRouter, { location: "/patients?page=2" }, createElement(component, props, "Texto")),
  );
}

const TARGETS = [
  "/",
  "/patients",
  "/patients/",
  "/patients?edit=5&page=2",
  "/patients?q=s%C3%A3o+paulo&dir=desc",
  "/patients?q=são paulo",
  "/patients#fim",
  "/a/b/c?x=1#y",
  // Not plain: React Router resolves or rewrites these, so the kit's Link hands them to it.
  "?edit=5",
  "edit",
  "../x",
  "/a/./b",
  "/a/../b",
  "//evil.example/x",
  "/patients?",
  "/patients#",
  "https://example.com/x",
];

test.each(TARGETS)("<Link to=%j> renders as React Router's", (to) => {
  for (const extra of [
    {},
    { className: "btn btn-ghost", "aria-label": "Editar Ana", preventScrollReset: true },
    { prefetch: "intent" as const, title: "Pacientes", "aria-current": "page" as const },
    { target: "_blank", rel: "noreferrer", replace: true, state: { from: "x" } },
    { reloadDocument: true },
    { discover: "none" as const },
  ]) {
    const props = { to, ...extra };
    expect(render(Link, props)).toBe(render(RouterLink, { discover: "none", ...props }));
  }
  const rendered = render(Link, { to, discover: "render" });
  expect(rendered).toBe(render(RouterLink, { to, discover: "render" }));
  if (!/^(https?:)?\/\//.test(to)) expect(rendered).toContain('data-discover="true"');
});

test("links carry no data-discover unless asked (routes are all known from the start)", () => {
  expect(render(Link, { to: "/patients" })).toBe('<a href="/patients">Texto</a>');
  expect(render(Link, { to: "?edit=5" })).not.toContain("data-discover");
});

test("an object `to` is left to React Router", () => {
  const props = { to: { pathname: "/patients", search: "?page=3" } };
  expect(render(Link, props)).toBe(render(RouterLink, { discover: "none", ...props }));
});

test("every module takes Link from the kit, not React Router's own", () => {
  const root = path.resolve(import.meta.dirname, "../../app");
  const direct = fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(path.join("components", "ui", "link.tsx")))
    .filter((file) => /import\s*\{[^}]*\bLink\b[^}]*\}\s*from\s*"react-router"/.test(fs.readFileSync(path.join(root, file), "utf8")));
  expect(direct).toEqual([]);
});
