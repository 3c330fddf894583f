import { type SQL, sql } from "drizzle-orm";
import { type AnySQLiteColumn, check, text } from "drizzle-orm/sqlite-core";

/**
 * Small builders shared by the domain schema modules (not a schema module itself, so
 * `index.ts` does not re-export it).
 */

/** Normalised search key filled by the models with `buildSearchText` (app/lib/search.ts). */
export const searchText = () => text("search_text").notNull().default("");

function literal(value: string): SQL {
  return sql.raw(`'${value.replace(/'/g, "''")}'`);
}

/** CHECK that a text column holds one of the enum's values (NULL passes, as CHECK allows). */
export function enumCheck(name: string, column: AnySQLiteColumn, values: readonly string[]) {
  return check(name, sql`${column} in (${sql.join(values.map(literal), sql.raw(", "))})`);
}

/** CHECK that a text column is a real calendar date written as ISO YYYY-MM-DD. */
export function isoDateCheck(name: string, column: AnySQLiteColumn) {
  return check(name, sql`${column} is null or (length(${column}) = 10 and date(${column}) = ${column})`);
}

/** CHECK that a text column holds exactly `length` ASCII digits (CPF 11, CNPJ 14). */
export function digitsCheck(name: string, column: AnySQLiteColumn, length: number) {
  return check(name, sql`${column} is null or (length(${column}) = ${sql.raw(String(length))} and ${column} not glob '*[^0-9]*')`);
}

/**
 * CHECK for a CNPJ stored without punctuation: 14 characters, the first 12 digits or upper-case
 * letters (the alphanumeric CNPJ the Receita Federal issues from July 2026), the last 2 digits.
 */
export function cnpjCheck(name: string, column: AnySQLiteColumn) {
  const pattern = "[0-9A-Z]".repeat(12) + "[0-9][0-9]";
  return check(name, sql`${column} is null or ${column} glob ${sql.raw(`'${pattern}'`)}`);
}
