import { type SQL, type SQLWrapper, and, asc, count, desc, getTableName, sql } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Cursor, PAGE_SIZE, formatCursor, offsetOf } from "~/lib/list-params";
import { type VersionedTable, sqlKey, tablesWriteCache, writeCache } from "./data-cache";
import { db, prepared } from "./db";
import { sentAsJson } from "./sent-as-json";

/**
 * Pages of a big list that cost the same however deep they are, and totals that never count a
 * whole table (docs/decisions/0009-list-totals-and-keyset-pages.md).
 */

/** Past this many matches a filtered total is shown as 'N+': counting further would scan. */
export const COUNT_CAP = 10_000;

/** A list's order: its sort key and the id that breaks ties, in one direction. */
export interface KeysetOrder {
  key: AnySQLiteColumn;
  id: SQLWrapper;
  dir: "asc" | "desc";
}

export interface PagePosition {
  page: number;
  after?: Cursor | null;
  before?: Cursor | null;
}

/** The list's exact size when known (a counter, or a count under the cap), for numbered pages near the end. */
export type ExactTotal = number | null;

export interface ListPage<Row> {
  rows: Row[];
  /** Matches, exact up to COUNT_CAP; `totalCapped` says there are more. */
  total: number;
  totalCapped: boolean;
  pageSize: number;
  /** `?after=` of the next page and `?before=` of the previous one, when there is one. */
  next: string | null;
  prev: string | null;
}

/** A stored value as SQLite holds it (a Date column is epoch milliseconds). */
function storedValue(value: unknown): string | number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "boolean") return value ? 1 : 0;
  return value as string | number;
}

/**
 * One page of rows. With a cursor (`after`/`before`, what the table's own links carry) the page is
 * found through the order's index from that row on: as fast on page 40 000 as on page 1. A bare
 * `?page=N` (a typed or bookmarked URL) falls back to OFFSET. `run` builds the screen's query
 * with the extra condition, order, limit and offset given (`ahead`: the order is the list's own,
 * not its reverse; `cursor`: the row the condition reads beyond); its rows carry `cursorKey` (the
 * sort key's value) and `id`, which this strips.
 */
export function keysetPage<Row extends { id: number; cursorKey: unknown }>(
  position: PagePosition,
  order: KeysetOrder,
  run: (where: SQL | undefined, orderBy: SQL[], limit: number, offset: number, ahead: boolean, cursor?: Cursor) => Row[],
  exactTotal: ExactTotal = null,
  locate?: Locate,
): { rows: Omit<Row, "cursorKey">[]; page: number; next: string | null; prev: string | null } {
  const forward = order.dir === "asc" ? [asc(order.key), asc(order.id)] : [desc(order.key), desc(order.id)];
  const backward = order.dir === "asc" ? [desc(order.key), desc(order.id)] : [asc(order.key), asc(order.id)];
  const beyond = (cursor: Cursor, ahead: boolean) => {
    const greater = (order.dir === "asc") === ahead;
    return greater
      ? sql`(${order.key}, ${order.id}) > (${cursor[0]}, ${cursor[1]})`
      : sql`(${order.key}, ${order.id}) < (${cursor[0]}, ${cursor[1]})`;
  };

  // Nothing matches (counted exactly): there is no row to read. A search that finds nothing
  // would otherwise walk the whole order index in search of its first row.
  const read: typeof run = exactTotal === 0 ? () => [] : run;
  const first = () => read(undefined, forward, PAGE_SIZE + 1, 0, true);
  // A numbered page past `offset` rows: with `locate`, the row just before it is found in the
  // order's index alone and the page read from there, so the rows passed over are not joined.
  const past = (orderBy: SQL[], limit: number, offset: number, ahead: boolean) => {
    const before = offset > 0 && exactTotal !== 0 ? locate?.(orderBy, offset - 1, ahead) : undefined;
    if (before === undefined) return read(undefined, orderBy, limit, offset, ahead);
    return before ? read(beyond(before, ahead), orderBy, limit, 0, ahead, before) : [];
  };
  let found: Row[];
  let page = position.page;
  let hasNext: boolean;
  if (position.before) {
    const behind = read(beyond(position.before, false), backward, PAGE_SIZE + 1, 0, false, position.before);
    if (behind.length > PAGE_SIZE) {
      // A whole page behind the cursor (and more before it): that page, in order; the cursor's row follows it.
      [found, page, hasNext] = [behind.slice(0, PAGE_SIZE).reverse(), Math.max(page, 2), true];
    } else {
      found = first();
      [page, hasNext] = [1, found.length > PAGE_SIZE];
    }
  } else if (position.after) {
    found = read(beyond(position.after, true), forward, PAGE_SIZE + 1, 0, true, position.after);
    page = Math.max(page, 2);
    hasNext = found.length > PAGE_SIZE;
  } else {
    const offset = offsetOf(page);
    if (exactTotal !== null && offset > exactTotal / 2) {
      // A numbered page in the second half is read from the end, backwards: the last page costs
      // what the first does, and no page costs more than the middle one.
      const size = Math.max(0, Math.min(PAGE_SIZE, exactTotal - offset));
      found = size > 0 ? past(backward, size, exactTotal - offset - size, false).reverse() : [];
      hasNext = offset + size < exactTotal;
    } else {
      found = past(forward, PAGE_SIZE + 1, offset, true);
      hasNext = found.length > PAGE_SIZE;
    }
  }
  const rows = found.slice(0, PAGE_SIZE);
  const cursorOf = (row: Row | undefined) => (row ? formatCursor([storedValue(row.cursorKey), row.id]) : null);
  return {
    rows: rows.map(({ cursorKey: _key, ...row }) => row),
    page,
    next: hasNext ? cursorOf(rows.at(-1)) : null,
    // Page 2's previous page is page 1 itself: a plain link, no cursor.
    prev: page > 2 ? cursorOf(rows[0]) : null,
  };
}

/**
 * The sort key and id of the row `offset` rows into `orderBy` (`undefined`: read the page with
 * OFFSET after all, its key being null; `null`: there is no such row). `ahead`: `orderBy` is the
 * list's own order, not its reverse.
 */
export type Locate = (orderBy: SQL[], offset: number, ahead: boolean) => Cursor | null | undefined;

/**
 * `keysetPage`'s `locate` for a list of `table`'s rows matching `where`: the row is found through
 * the order's index without the screen's joins. A typed `?page=20000` of appointments read and
 * joined the half million rows before it (1.3 s); their index alone passes over them in a few ms.
 */
export function locateIn(table: SQLiteTable, where: SQL | undefined, order: KeysetOrder): Locate {
  return (orderBy, offset) => {
    const key = JSON.stringify([getTableName(table), sqlKey(sql.join(orderBy, sql`, `)), where ? sqlKey(where) : null, offset]);
    return locatedUntilWrite(key, () => {
      const row = db
        .select({ key: sql<unknown>`${order.key}`, id: sql<number>`${order.id}` })
        .from(table)
        .where(where)
        .orderBy(...orderBy)
        .limit(1)
        .offset(offset)
        .get();
      if (!row) return null;
      return row.key === null ? undefined : [storedValue(row.key), row.id];
    });
  };
}

/**
 * The ids of a page of `table`'s rows (`where`, in `orderBy`, `limit` of them past `offset`), read
 * from the table alone and through `index` when given; the screen then reads those rows with its
 * joins. Planned with the joins, a page past a cursor in a filter holding most rows ('Concluído',
 * nine surgeries in ten) skip-scanned another index and sorted every row past the cursor (280 ms),
 * where the filter's own index seeks the page (0.2 ms).
 */
export function pageIds(
  table: SQLiteTable,
  id: AnySQLiteColumn,
  where: SQL | undefined,
  orderBy: SQL[],
  { limit, offset, index }: { limit: number; offset: number; index?: string },
): number[] {
  const source = index ? sql`${table} indexed by ${sql.raw(index)}` : table;
  const filter = where ? sql` where ${where}` : sql``;
  // No `offset` when no row is passed over, as drizzle writes it.
  const skip = offset ? sql` offset ${offset}` : sql``;
  return db
    .all<{ id: number }>(sql`select ${id} as id from ${source}${filter} order by ${sql.join(orderBy, sql`, `)} limit ${limit}${skip}`)
    .map((row) => row.id);
}

/** The rows `locateIn` found, kept until the next write: a typed page viewed again costs what page 1 does. */
const locatedUntilWrite = writeCache(64);

/**
 * A list screen's page (its rows, total and cursors) kept until the next write, by the list's name
 * and everything the page is read from (`params`: its position, search, sort and filters, and any
 * scope of the viewer's; nothing read from the clock). A page viewed again between two changes, or
 * returned to from a record, is not read again; and the same rows object is handed out, so the
 * table's kept markup finds its key without serialising the rows anew (`cacheKeyOf`). Callers must
 * not modify what it returns. A store of its own: its keys come from what users type. With
 * `tables`, every table the page reads, it is kept until one of those is written instead
 * (`tablesWriteCache`): a page of patients outlives the appointments and payments written meanwhile.
 * Its rows are sent to the browser as JSON made once (`sentAsJson`), not value by value per request.
 */
export function pageUntilWrite<T extends object>(list: string, params: unknown, read: () => T, tables?: readonly VersionedTable[]): T {
  const key = `${list}:${JSON.stringify(params)}`;
  const readSent = () => {
    const page = read();
    if ("rows" in page && Array.isArray(page.rows)) sentAsJson(page.rows);
    return page;
  };
  return tables ? pagesUntilTablesChange(tables, key, readSent) : pagesUntilWrite(key, readSent);
}
const pagesUntilWrite = writeCache(128);
const pagesUntilTablesChange = tablesWriteCache(128);

/**
 * A list screen's page, the usual way: the matches counted (`countMatches`, capped, unless the
 * screen gives its count kept) and the page read by `keysetPage`, its exact total given when known.
 * `run` gets the list's `where` already joined with the page's position.
 */
export function keysetList<Row extends { id: number; cursorKey: unknown }>(
  table: SQLiteTable,
  where: SQL | undefined,
  position: PagePosition,
  order: KeysetOrder,
  run: (where: SQL | undefined, orderBy: SQL[], limit: number, offset: number) => Row[],
  counted = countMatches(table, where),
): ListPage<Omit<Row, "cursorKey">> & { page: number } {
  const page = keysetPage(
    position,
    order,
    (at, orderBy, limit, offset) => run(and(where, at), orderBy, limit, offset),
    counted.totalCapped ? null : counted.total,
    locateIn(table, where, order),
  );
  return { ...page, ...counted, pageSize: PAGE_SIZE };
}

/**
 * How many rows of `table` match `where`: the maintained counter when nothing filters, else a count
 * that stops after COUNT_CAP + 1 matches (through the filter's index).
 */
export function countMatches(table: SQLiteTable, where: SQL | undefined, cap = COUNT_CAP): { total: number; totalCapped: boolean } {
  const name = getTableName(table);
  if (!where && isCounted(name)) return { total: tableCount(name), totalCapped: false };
  const matches = db.select({ one: sql`1` }).from(table).where(where).limit(cap + 1).as("matches");
  const n = db.select({ n: count() }).from(matches).get()!.n;
  return n > cap ? { total: cap, totalCapped: true } : { total: n, totalCapped: false };
}

const COUNTED_TABLES = ["patients", "appointments", "surgeries", "doctors", "financial_transactions", "messages", "documents"] as const;
type CountedTable = (typeof COUNTED_TABLES)[number];
const isCounted = (name: string): name is CountedTable => (COUNTED_TABLES as readonly string[]).includes(name);

/** A whole table's row count, kept by triggers (migrations 0003, 0048 and 0051): no scan. */
export function tableCount(table: CountedTable): number {
  return (prepared("select n from row_counts where table_name = ?").pluck().get(table) as number | undefined) ?? 0;
}
