import { desc, eq } from "drizzle-orm";
import { patients, surgeries } from "~db/schema";
import { db } from "~/.server/db";
import { formatDate } from "~/lib/dates";
import type { PickerOption } from "~/lib/picker-options";
import { SURGERY_SEARCH } from "./surgery.server";
import { planWordSearch, wordSearchSlice } from "./word-search.server";
import { patientPickerOptions, withSelected } from "./picker-options.server";

/** The task dialog's pickers: patients (the kit's) and surgeries, searched in SQL, a page of matches at a time. */

const SURGERY_OPTION = {
  id: surgeries.id,
  surgeryType: surgeries.surgeryType,
  scheduledDate: surgeries.scheduledDate,
  patientName: patients.name,
};

type SurgeryOptionRow = { id: number; surgeryType: string; scheduledDate: Date; patientName: string };

/** 'Artrodese lombar · Maria da Silva · 15/07/2026'. */
export function surgeryOptionLabel(row: SurgeryOptionRow): string {
  return `${row.surgeryType} · ${row.patientName} · ${formatDate(row.scheduledDate)}`;
}

/**
 * Surgeries matching a query (patient, doctor, type, hospital, payer, guide), latest first, for the
 * task picker: its first `limit` rows as the surgeries list finds them (./word-search.server.ts),
 * where testing each surgery from the latest took up to 110 ms a keystroke ('m', or a word nothing
 * holds). The plan is kept until the next write: the same search again is a lookup.
 */
export function searchSurgeryOptions(q: string, limit = 20): PickerOption[] {
  // Counted no further than the page: a picker shows no total.
  const plan = planWordSearch(SURGERY_SEARCH, q, undefined, { cap: limit });
  const source = wordSearchSlice(SURGERY_SEARCH, plan, limit, 0);
  if (!source) return [];
  return db
    .select(SURGERY_OPTION)
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .where(source.where)
    .orderBy(desc(surgeries.scheduledDate), desc(surgeries.id))
    .limit(limit)
    .all()
    .map((row) => ({ id: row.id, label: surgeryOptionLabel(row) }));
}

function getSurgeryOption(id: number): PickerOption | null {
  const row = db.select(SURGERY_OPTION).from(surgeries).innerJoin(patients, eq(patients.id, surgeries.patientId)).where(eq(surgeries.id, id)).get();
  return row ? { id: row.id, label: surgeryOptionLabel(row) } : null;
}

/** Server-rendered options of the surgery picker: the matches for `q`, the selected surgery first. */
export function surgeryPickerOptions(q: string, selectedId: number | null): PickerOption[] {
  return withSelected(searchSurgeryOptions(q), selectedId, getSurgeryOption);
}

export { patientPickerOptions };
