import { type ComponentPropsWithoutRef, type ReactNode, createContext, createElement, useContext } from "react";

/**
 * Markup kept between requests (docs/decisions/0025-cached-shell-markup.md): a large part of every
 * page that depends on a few values only (the sidebar: the clinic's name and the current section)
 * is rendered by React once per combination, and later pages send the same bytes without rendering
 * it again. The server provides the store (app/.server/markup-cache.ts); the browser has none and
 * renders the children as usual, hydrating them against the very markup React made for them.
 */
export interface MarkupStore {
  /** The element's inner HTML kept for `key`, if any. */
  get(key: string): string | undefined;
  /** Keep the inner HTML of the element with this `id` under `key` once this page is rendered. */
  capture(key: string, tag: string, id: string): void;
}

export const MarkupStoreContext = createContext<MarkupStore | null>(null);

/**
 * The content id of each object shared unchanged between requests (`cacheKeyOf`): made once per
 * object from its JSON, the same for two objects with the same JSON while `idsByJson` holds it.
 */
const sharedIds = new WeakMap<object, string>();
/** Ids by JSON, forgotten all at once past ~2 million characters (an object then gets a new id: a miss, never a wrong page). */
const idsByJson = new Map<string, string>();
let idsByJsonSize = 0;
let nextSharedId = 0;

function sharedIdOf(value: object): string {
  let id = sharedIds.get(value);
  if (id !== undefined) return id;
  const json = JSON.stringify(value);
  id = idsByJson.get(json);
  if (id === undefined) {
    if (idsByJsonSize + json.length > 2_000_000) {
      idsByJson.clear();
      idsByJsonSize = 0;
    }
    id = `#${(nextSharedId++).toString(36)}`;
    idsByJson.set(json, id);
    idsByJsonSize += json.length;
  }
  sharedIds.set(value, id);
  return id;
}

/**
 * A `cacheKey`: `JSON.stringify(values)` followed by a content id for each of `shared`. Each of
 * `shared` is data kept unchanged between requests until the next write (app/.server/data-cache.ts):
 * its JSON (a board's cards or a month's entries are 20–30 KB of it) is made and looked up once
 * per object, so the key stays short and is not built and hashed anew on every request. Two objects
 * with the same JSON get the same id (while it is remembered); two with different JSON never do.
 * Only for objects no one modifies (the data cache's values are shared by every request already).
 */
export function cacheKeyOf(values: readonly unknown[], ...shared: object[]): string {
  let key = JSON.stringify(values);
  // No JSON value starts with '#': the ids cannot be mistaken for values.
  for (const value of shared) key += sharedIdOf(value);
  return key;
}

type CachedTag = "aside" | "div" | "header" | "nav" | "ol" | "tbody" | "thead" | "ul";

type CachedElementProps<Tag extends CachedTag> = Omit<ComponentPropsWithoutRef<Tag>, "children"> & {
  as: Tag;
  /** The element's id: how its markup is found in the rendered page. Unique on the page. */
  id: string;
  /**
   * Every value the children's server rendering depends on, in one string (`JSON.stringify` of
   * them, so no two sets of values make the same key). Two renders with the same key must produce
   * the same markup: anything left out of it shows one page's markup on another. Undefined: the
   * children are rendered every time.
   */
  cacheKey: string | undefined;
  /**
   * The children, or a function that makes them: called only when the markup is not kept, so a
   * kept page of rows does not format its cells (dates, money) only to throw them away.
   */
  children: ReactNode | (() => ReactNode);
};

/**
 * `<as id={id} {...props}>{children}</as>`, whose children's server markup is rendered once per
 * `cacheKey` and then reused. Only for children whose first render in the browser (before any
 * effect) matches the server's: the same rule as for any server-rendered markup.
 */
export function CachedElement<Tag extends CachedTag>({ as, id, cacheKey, children, ...props }: CachedElementProps<Tag>) {
  const store = useContext(MarkupStoreContext);
  const rendered = () => createElement(as, { ...props, id }, typeof children === "function" ? children() : children);
  if (!store || cacheKey === undefined) return rendered();
  const html = store.get(cacheKey);
  if (html !== undefined) return createElement(as, { ...props, id, dangerouslySetInnerHTML: { __html: html } });
  store.capture(cacheKey, as, id);
  return rendered();
}
