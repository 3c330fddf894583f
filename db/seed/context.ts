import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Tx } from "../../app/.server/db";
import { normalizeSearch } from "../../app/lib/search";
import type { Random } from "./random";
import { isoDay } from "./time";

/**
 * What every family of the demo seed shares: the write transaction, the one pseudo-random
 * generator and the clock. The families draw from `random` in a fixed order (see seed-demo.ts),
 * which is what makes a run reproducible.
 */
export interface SeedContext {
  tx: Tx;
  random: Random;
  nowMs: number;
  /** Today in the clinic's zone, YYYY-MM-DD. */
  today: string;
}

export function seedContext(tx: Tx, random: Random, now: Date): SeedContext {
  return { tx, random, nowMs: now.getTime(), today: isoDay(now) };
}

/** Inserts rows in chunks and returns their ids in the order of `rows`. */
export function insertRows<T extends SQLiteTable & { id: SQLiteColumn }>(tx: Tx, table: T, rows: T["$inferInsert"][]): number[] {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- generic over tables
    const result = (tx.insert(table as any).values(chunk as any) as any).returning({ id: table.id }).all() as Array<{ id: number }>;
    // One multi-row INSERT assigns increasing rowids in VALUES order.
    ids.push(...result.map((r) => r.id).sort((a, b) => a - b));
  }
  return ids;
}

export function slug(text: string): string {
  return normalizeSearch(text).replace(/[^a-z0-9]+/g, ".").replace(/^\.|\.$/g, "");
}

export function roundCents(value: number): number {
  return Math.round(value);
}

export function minDate(a: number, b: number): Date {
  return new Date(Math.min(a, b));
}

export interface Interval {
  start: number;
  end: number;
}

export function overlaps(list: Interval[] | undefined, start: number, end: number): boolean {
  return !!list?.some((i) => i.start < end && start < i.end);
}

/** The busy intervals of one doctor or patient, created empty on first use. */
export function busy(map: Map<number, Interval[]>, key: number): Interval[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}
