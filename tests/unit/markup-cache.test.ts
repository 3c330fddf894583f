/**
 * Kept markup (app/lib/markup-cache.tsx, docs/decisions/0025-cached-shell-markup.md): the sidebar
 * sent from memory is byte for byte what React renders for that page, and its key tells apart
 * every two pages whose sidebars differ.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { describe, expect, test } from "vitest";
import { clearKeptMarkup, innerHtmlOf, markupStoreForPage } from "~/.server/markup-cache";
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
  });

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
  });
});
