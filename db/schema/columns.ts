import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

/**
 * Shared column builders. Instants are UTC epoch milliseconds (integer), read as `Date`.
 * Calendar dates without a time (birth dates, due dates) are ISO `YYYY-MM-DD` text.
 * Money is always integer cents.
 */
const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export const id = () => integer("id").primaryKey({ autoIncrement: true });

export const instant = (name: string) => integer(name, { mode: "timestamp_ms" });

export const timestamps = () => ({
  createdAt: instant("created_at")
    .notNull()
    .default(nowMs)
    .$defaultFn(() => new Date()),
  updatedAt: instant("updated_at")
    .notNull()
    .default(nowMs)
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date()),
});

export const bool = (name: string) => integer(name, { mode: "boolean" });
