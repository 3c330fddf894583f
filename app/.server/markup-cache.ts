import type { MarkupStore } from "~/lib/markup-cache";

/**
 * What is kept, in characters of keys and markup together. The shell's combinations (one sidebar
 * per section, one header per user and screen) take a few KB each; a list's rows 20–60 KB, under a
 * key as long as their data. About 8 MB of strings (16 MB at most, two bytes a character).
 */
const MAX_CHARS = 8_000_000;
/** Markup kept per key, least recently used first. */
const kept = new Map<string, string>();
let keptChars = 0;

function keep(key: string, html: string) {
  const previous = kept.get(key);
  if (previous !== undefined) {
    kept.delete(key);
    keptChars -= key.length + previous.length;
  }
  const size = key.length + html.length;
  if (size > MAX_CHARS) return;
  while (keptChars + size > MAX_CHARS) {
    const [oldestKey, oldest] = kept.entries().next().value!;
    kept.delete(oldestKey);
    keptChars -= oldestKey.length + oldest.length;
  }
  kept.set(key, html);
  keptChars += size;
}

/** The markup kept for `key`, now the most recently used. */
function recall(key: string): string | undefined {
  const html = kept.get(key);
  if (html !== undefined) {
    kept.delete(key);
    kept.set(key, html);
  }
  return html;
}

/**
 * One page's view of the kept markup (app/lib/markup-cache.tsx): it reads what earlier pages kept,
 * and once this page is rendered, `keep(page)` cuts out the markup it was asked to capture.
 */
export function markupStoreForPage(): MarkupStore & { keep(page: Buffer): void } {
  const wanted: { key: string; tag: string; id: string }[] = [];
  return {
    get: recall,
    capture(key, tag, id) {
      wanted.push({ key, tag, id });
    },
    keep(page) {
      if (!wanted.length) return;
      const html = page.toString("utf8");
      for (const { key, tag, id } of wanted) {
        const inner = innerHtmlOf(html, tag, id);
        // A copy: V8 makes a slice of a long string point into it, so keeping `inner` as it is
        // would keep the whole page alive for as long as the entry.
        if (inner !== null) keep(key, Buffer.from(inner).toString());
      }
    },
  };
}

/** How much is kept: entries, and characters of keys and markup (tests). */
export function keptMarkupSize() {
  return { entries: kept.size, chars: keptChars };
}

/** Forgets every kept markup (tests). */
export function clearKeptMarkup() {
  kept.clear();
  keptChars = 0;
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
