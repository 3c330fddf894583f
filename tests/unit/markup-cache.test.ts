/**
 * Kept markup (app/lib/markup-cache.tsx, docs/decisions/0025-cached-shell-markup.md): the sidebar
 * sent from memory is byte for byte what React renders for that page, and its key tells apart
 * every two pages whose sidebars differ.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter, createRoutesStub } from "react-router";
import { describe, expect, test } from "vitest";
import { clearKeptMarkup, innerHtmlOf, markupStoreForPage } from "~/.server/markup-cache";
import { PageHeader, type PageHeaderProps } from "~/components/page-header";
import { Sidebar } from "~/components/sidebar";
import { MarkupStoreContext, type MarkupStore } from "~/lib/markup-cache";
import { NAVIGATION } from "~/lib/navigation";

describe("innerHtmlOf", () => {
  test("finds the element by its id, past nested elements of the same tag", () => {
    const html = '<div class="a"><div id="x" data-y="1"><div>one</div><div><div>two</div></div></div><div>after</div></div>';
    expect(innerHtmlOf(html, "div", "x")).toBe("<div>one</div><div><div>two</div></div>");
  });

  test("an empty element, and tags that only start like the one sought", () => {
    expect(innerHtmlOf('<aside id="s"></aside>', "aside", "s")).toBe("");
    expect(innerHtmlOf('<nav id="n"><navx>a</navx><nav>b</nav></nav>', "nav", "n")).toBe("<navx>a</navx><nav>b</nav>");
  });

  test("null when the id is missing, on another tag, or the element is not closed", () => {
    expect(innerHtmlOf("<div>x</div>", "div", "x")).toBeNull();
    expect(innerHtmlOf('<div><span id="x">a</span></div>', "div", "x")).toBeNull();
    expect(innerHtmlOf('<div id="x"><div>a</div>', "div", "x")).toBeNull();
  });
});

const PATHS = [
  ...new Set(NAVIGATION.flatMap((s) => (s.kind === "items" ? s.items : s.group.entries.flatMap((e) => ("items" in e ? e.items : [e])))).map((i) => i.to)),
  "/patients/42",
  "/PATIENTS",
  "/surgeries/7/fees",
  "/settings",
  "/",
];

/** The sidebar of `path` as the server renders it, with `store` (or none, as the browser renders it). */
function renderSidebar(path: string, clinicName: string, store: MarkupStore | null) {
  const sidebar = createElement(Sidebar, { clinicName, narrow: false, drawerOpen: false, onCloseDrawer: () => {} });
  return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(StaticRouter, { location: path }, sidebar)));
}

describe("the sidebar's kept markup", () => {
  test("a page sent from kept markup is the page React renders, for every section", () => {
    clearKeptMarkup();
    for (const path of PATHS) {
      const rendered = renderSidebar(path, "Clínica Coluna & Cia", null);
      const first = markupStoreForPage();
      const missOrHit = renderSidebar(path, "Clínica Coluna & Cia", first);
      first.keep(Buffer.from(missOrHit));
      const second = markupStoreForPage();
      let captured = false;
      const kept = renderSidebar(path, "Clínica Coluna & Cia", { get: second.get, capture: () => (captured = true) });
      expect(captured, path).toBe(false); // sent from memory
      expect(missOrHit, path).toBe(rendered);
      expect(kept, path).toBe(rendered);
    }
  }, 30_000);

  test("pages with the same key have the same sidebar, and a new clinic name is a new key", () => {
    const byKey = new Map<string, string>();
    for (const clinicName of ["Minha Clínica", "Clínica Neuro Coluna"]) {
      for (const path of PATHS) {
        let key = "";
        renderSidebar(path, clinicName, { get: () => undefined, capture: (k) => (key = k) });
        const rendered = renderSidebar(path, clinicName, null);
        expect(byKey.get(key) ?? rendered, `${clinicName} ${path}`).toBe(rendered);
        byKey.set(key, rendered);
      }
    }
    // Sections share a sidebar, but not every page has the same one.
    expect(byKey.size).toBeGreaterThan(PATHS.length / 2);
  }, 30_000);
});

/** The header of a page titled `title` for `user`, as the server renders it with `store` (or none). */
function renderHeader(user: PageHeaderProps["user"], title: { title: string; subtitle?: string; pageTitle?: string }, store: MarkupStore | null) {
  const { pageTitle, ...handle } = title;
  const Stub = createRoutesStub([
    { path: "/x", handle, loader: () => ({ pageTitle }), HydrateFallback: () => null, Component: () => createElement(PageHeader, { user }) },
  ]);
  return renderToString(
    createElement(MarkupStoreContext.Provider, { value: store }, createElement(Stub, { initialEntries: ["/x"], hydrationData: { loaderData: { "0": { pageTitle } } } })),
  );
}

describe("the header's kept markup", () => {
  const users: PageHeaderProps["user"][] = [
    { name: "Ana Admin", email: "ana@clinica.test", role: "admin" },
    { name: "Ana Admin", email: "ana2@clinica.test", role: "admin" },
    { name: "Ana Admin", email: "ana@clinica.test", role: "staff" },
    { name: "Bruno", email: "bruno@clinica.test", role: "doctor" },
    { name: "", email: "sem-nome@clinica.test", role: null },
  ];
  const titles = [
    { title: "Pacientes", subtitle: "Cadastro e histórico dos pacientes" },
    { title: "Pacientes" },
    { title: "Em construção", pageTitle: "Triagem" },
  ];

  test("is what React renders, and tells every user and page apart", () => {
    clearKeptMarkup();
    const byKey = new Map<string, string>();
    for (const user of users) {
      for (const title of titles) {
        const rendered = renderHeader(user, title, null);
        expect(rendered).toContain(user.email);
        let key = "";
        const first = markupStoreForPage();
        const firstRender = renderHeader(user, title, { get: first.get, capture: (k, tag, id) => ((key = k), first.capture(k, tag, id)) });
        first.keep(Buffer.from(firstRender));
        const kept = renderHeader(user, title, { get: markupStoreForPage().get, capture: () => expect.unreachable("sent from memory") });
        expect(firstRender).toBe(rendered);
        expect(kept).toBe(rendered);
        expect(byKey.has(key), key).toBe(false);
        byKey.set(key, rendered);
      }
    }
  }, 30_000);
});
