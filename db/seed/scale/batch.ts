import type Database from "better-sqlite3";
import type { Random } from "../random";
import type { Calendar } from "./calendar";

/** The rows a writer can name: ids `base + 1` … `base + count` of each table. */
export interface SeededRows {
  patients: { base: number; count: number };
  appointments: { base: number; count: number };
  surgeries: { base: number; count: number };
}

/** One of a table's seeded rows (`SeededRows`), at random. */
export const pickSeeded = (random: Random, { base, count }: { base: number; count: number }) => base + random.int(1, Math.max(1, count));

/** What a writer that fills a table day by day over the practice's years is given (the cash book, the audit trail). */
export interface DailyWriterEnv {
  conn: Database.Database;
  batch: Batch;
  random: Random;
  calendar: Calendar;
  firstDay: number;
  today: number;
  nowMs: number;
  adminId: number;
  /** Exactly how many rows to write. */
  total: number;
}

/**
 * Writes in transactions of about `size` rows: one transaction per row is far too slow, one for
 * the whole build would hold the write lock (and the WAL) for minutes.
 */
export class Batch {
  private rows = 0;
  private open = false;

  constructor(
    private readonly conn: Database.Database,
    private readonly size = 50_000,
  ) {}

  begin() {
    if (!this.open) {
      this.conn.exec("BEGIN IMMEDIATE");
      this.open = true;
    }
  }

  /** Counts `n` written rows; commits and reopens when the batch is full. */
  written(n = 1) {
    this.rows += n;
    if (this.rows >= this.size) {
      this.commit();
      this.begin();
    }
  }

  commit() {
    if (this.open) {
      this.conn.exec("COMMIT");
      this.open = false;
    }
    this.rows = 0;
  }

  rollback() {
    if (this.open && this.conn.inTransaction) this.conn.exec("ROLLBACK");
    this.open = false;
  }
}

/**
 * Splits an exact total over a stream of weighted buckets (doctor-days, days) that arrive one at
 * a time: each bucket gets round(running share) minus what was already handed out, so the sum
 * over all buckets is exactly `total`, without holding the buckets in memory. Whatever a bucket
 * cannot take is carried to the next one.
 */
export class Quota {
  private cumulative = 0;
  private handedOut = 0;
  private carry = 0;

  constructor(
    private readonly total: number,
    private readonly weightSum: number,
  ) {}

  /** How many items the next bucket, of weight `weight`, should hold (before its own cap). */
  next(weight: number): number {
    if (this.weightSum <= 0) return 0;
    this.cumulative += weight;
    const target = Math.min(this.total, Math.round((this.cumulative / this.weightSum) * this.total));
    const share = target - this.handedOut;
    this.handedOut = target;
    const n = share + this.carry;
    this.carry = 0;
    return n;
  }

  /** Items a bucket was given but could not hold; they go to the next bucket. */
  giveBack(n: number) {
    this.carry += n;
  }

  get pending(): number {
    return this.carry;
  }
}

/**
 * Splits `total` items over the days from `firstDay` to `today` by `weight` (`Quota`), calling
 * `day(d, n)` for each day given some; returns how many were handed out (`total`, unless no day
 * weighs anything).
 */
export function spreadOverDays(firstDay: number, today: number, total: number, weight: (d: number) => number, day: (d: number, n: number) => void): number {
  let weights = 0;
  for (let d = firstDay; d <= today; d++) weights += weight(d);
  const quota = new Quota(total, weights);
  let handed = 0;
  for (let d = firstDay; d <= today && handed < total; d++) {
    const n = Math.min(quota.next(weight(d)), total - handed);
    if (n <= 0) continue;
    day(d, n);
    handed += n;
  }
  return handed;
}
