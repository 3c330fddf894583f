import type Database from "better-sqlite3";
import { type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { appointments, surgeries } from "~db/schema";
import { normalizeSearch } from "~/lib/search";

/**
 * Stored search keys of the appointments' and surgeries' own text (docs/decisions/0008, 'Searching
 * appointments and surgeries'). The lists search each row's own columns besides its patient and
 * doctor; folding them per row with normalize_search() (a JavaScript function SQLite calls) cost a
 * search over a million appointments 2.3 s. The folded text is now stored with the row, and the
 * search folds on the fly only rows without it (`ownTextKey`). Every key here is made the same way:
 * normalizeSearch over the same columns joined by ' | ', in JavaScript or in SQL.
 */

export function appointmentSearchKey(row: { type: string; location?: string | null }): string {
  return normalizeSearch(`${row.type} | ${row.location ?? ""}`);
}

/**
 * A surgery's two keys: `searchClass`, its type, hospital and payer (few distinct: counted in
 * surgery_search_keys), and `searchText`, that followed by ' | ' and its guide number, which the
 * migration 0043 triggers take back out of it (the text after the class and ' | ') for the guides'
 * trigram index. A word has no spaces, so it is in the whole key exactly when it is in one of them.
 */
export function surgerySearchKeyColumns(row: { surgeryType: string; hospital?: string | null; payerName?: string | null; guideNumber?: string | null }) {
  const searchClass = normalizeSearch(`${row.surgeryType} | ${row.hospital ?? ""} | ${row.payerName ?? ""}`);
  return { searchClass, searchText: `${searchClass} | ${normalizeSearch(row.guideNumber)}` };
}

const appointmentText = sql`coalesce(${appointments.type}, '') || ' | ' || coalesce(${appointments.location}, '')`;
const surgeryClassText = sql`coalesce(${surgeries.surgeryType}, '') || ' | ' || coalesce(${surgeries.hospital}, '') || ' | ' || coalesce(${surgeries.payerName}, '')`;
const surgeryText = sql`${surgeryClassText} || ' | ' || coalesce(${surgeries.guideNumber}, '')`;

/** The row's search key: the stored one, else its text folded now (rows written by hand). */
export const ownTextKey = {
  appointments: sql`coalesce(${appointments.searchText}, normalize_search(${appointmentText}))`,
  surgeries: sql`coalesce(${surgeries.searchText}, normalize_search(${surgeryText}))`,
} satisfies Record<string, SQL>;

/**
 * Stores the key of every row still without one, found through a partial index that holds only
 * them: after the migration that added the keys (once, a few seconds for a million rows), and at
 * each start for rows written by hand since. Returns how many rows got their key.
 */
export function fillSearchKeys(conn: Database.Database): number {
  const db = drizzle(conn);
  // Plain UPDATEs: drizzle's would also move updated_at, and the row has not changed. The
  // surgeries' two keys as surgerySearchKeyColumns makes them.
  const fillAppointments = () =>
    db.run(sql`update ${appointments} set search_text = normalize_search(${appointmentText}) where ${appointments.searchText} is null`).changes;
  const fillSurgeries = () =>
    db.run(
      sql`update ${surgeries} set search_class = normalize_search(${surgeryClassText}), search_text = normalize_search(${surgeryClassText}) || ' | ' || normalize_search(coalesce(${surgeries.guideNumber}, '')) where ${surgeries.searchClass} is null`,
    ).changes;
  return conn.transaction(() => fillAppointments() + fillSurgeries())();
}
