import type { MarkupStore } from "~/lib/markup-cache";

/** Combinations kept (the sidebar has one per section and clinic name: a few dozen). */
const MAX_ENTRIES = 256;
const kept = new Map<string, string>();

/**
 * One page's view of the kept markup (app/lib/markup-cache.tsx): it reads what earlier pages kept,
 * and once this page is rendered, `keep(page)` cuts out the markup it was asked to capture.
 */
export function markupStoreForPage(): MarkupStore & { keep(page: Buffer): void } {
  const wanted: { key: string; tag: string; id: string }[] = [];
  return {
    get: (key) => kept.get(key),
    capture(key, tag, id) {
      wanted.push({ key, tag, id });
    },
    keep(page) {
      if (!wanted.length) return;
      const html = page.toString("utf8");
      for (const { key, tag, id } of wanted) {
        const inner = innerHtmlOf(html, tag, id);
        if (inner === null) continue;
        if (kept.size >= MAX_ENTRIES && !kept.has(key)) kept.delete(kept.keys().next().value!);
        // A copy: V8 makes a slice of a long string point into it, so keeping `inner` as it is
        // would keep the whole page alive for as long as the entry.
        kept.set(key, Buffer.from(inner).toString());
      }
    },
  };
}

/** Forgets every kept markup (tests). */
export function clearKeptMarkup() {
  kept.clear();
}

/**
 * The inner HTML of the `<tag id="id">` element in markup React rendered, or null if it is not
 * there. React escapes `<`, `>` and `"` inside attribute values and text, so every `<tag`, `</tag>`
 * and `id="…"` in its output is markup (the element holds no <script> or <style> of its own).
 */
export function innerHtmlOf(html: string, tag: string, id: string): string | null {
  const idAt = html.indexOf(` id="${id}"`);
  if (idAt === -1) return null;
  const start = html.lastIndexOf(`<${tag}`, idAt);
  // The id must be an attribute of that very tag: no other tag opens between them.
  if (start === -1 || html.indexOf("<", start + 1) < idAt) return null;
  const contentStart = html.indexOf(">", idAt) + 1;
  if (contentStart === 0) return null;
  const tags = new RegExp(`<${tag}[\\s>]|</${tag}>`, "g");
  tags.lastIndex = contentStart;
  let depth = 1;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    depth += match[0][1] === "/" ? -1 : 1;
    if (depth === 0) return html.slice(contentStart, match.index);
  }
  return null;
}
