import type { MarkupStore } from "~/lib/markup-cache";

/**
 * What is kept, in characters of keys and markup and bytes of the markup's UTF-8, all together.
 * The shell's combinations (one sidebar per section, one header per user and screen) take a few KB
 * each; a list's rows 20–60 KB, under a key as long as their data. About 12 MB, 20 MB at most (a
 * string of two bytes a character).
 */
const MAX_SIZE = 12_000_000;

/**
 * Markup kept under a key: the string React writes into a page, and its UTF-8 bytes, which the page
 * sends instead of encoding the string again (app/entry.server.tsx). A fresh 100 KB buffer per
 * request is the costliest part of sending a board: new memory is slow to touch the first time.
 */
interface Kept {
  html: string;
  bytes: Buffer;
}

/** Markup kept per key, least recently used first. */
const kept = new Map<string, Kept>();
let keptSize = 0;

const sizeOf = (key: string, entry: Kept) => key.length + entry.html.length + entry.bytes.length;

function keep(key: string, html: string) {
  const previous = kept.get(key);
  if (previous !== undefined) {
    kept.delete(key);
    keptSize -= sizeOf(key, previous);
  }
  // A copy of the string: V8 makes a slice of a long string point into it, so keeping a slice of
  // the page would keep the whole page alive for as long as the entry.
  const bytes = Buffer.from(html);
  const entry = { html: bytes.toString(), bytes };
  const size = sizeOf(key, entry);
  if (size > MAX_SIZE) return;
  while (keptSize + size > MAX_SIZE) {
    const [oldestKey, oldest] = kept.entries().next().value!;
    kept.delete(oldestKey);
    keptSize -= sizeOf(oldestKey, oldest);
  }
  kept.set(key, entry);
  keptSize += size;
}

/** The markup kept for `key`, now the most recently used. */
function recall(key: string): Kept | undefined {
  const entry = kept.get(key);
  if (entry !== undefined) {
    kept.delete(key);
    kept.set(key, entry);
  }
  return entry;
}

/** One page's view of the kept markup (app/lib/markup-cache.tsx), for app/entry.server.tsx. */
export interface PageMarkupStore extends MarkupStore {
  /** Whether this page rendered markup to keep: `keep` needs the whole page. */
  readonly capturing: boolean;
  /** The bytes of kept markup this page was given by `get` (the very string), if it is that. */
  bytesOf(html: string): Buffer | undefined;
  /** Once the page is rendered: cut out the markup it was asked to capture, and keep it. */
  keep(page: Buffer): void;
}

/**
 * One page's view of the kept markup: it reads what earlier pages kept, and once this page is
 * rendered, `keep(page)` cuts out the markup it was asked to capture.
 */
export function markupStoreForPage(): PageMarkupStore {
  const wanted: { key: string; tag: string; id: string }[] = [];
  const given = new Map<string, Buffer>();
  return {
    get(key) {
      const entry = recall(key);
      if (entry === undefined) return undefined;
      given.set(entry.html, entry.bytes);
      return entry.html;
    },
    capture(key, tag, id) {
      wanted.push({ key, tag, id });
    },
    get capturing() {
      return wanted.length > 0;
    },
    bytesOf(html) {
      return given.size ? given.get(html) : undefined;
    },
    keep(page) {
      if (!wanted.length) return;
      const html = page.toString("utf8");
      for (const { key, tag, id } of wanted) {
        const inner = innerHtmlOf(html, tag, id);
        if (inner !== null) keep(key, inner);
      }
    },
  };
}

/** How much is kept: entries, and characters and bytes of keys and markup (tests). */
export function keptMarkupSize() {
  return { entries: kept.size, size: keptSize };
}

/** Forgets every kept markup (tests). */
export function clearKeptMarkup() {
  kept.clear();
  keptSize = 0;
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
