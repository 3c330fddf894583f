import { type PickerOption, doctorOption, patientOption } from "~/lib/picker-options";
import { getDoctorOption, searchDoctorOptions } from "./doctor-options.server";
import { optionsOf } from "./filter-options.server";
import { getPatient, searchPatientOptions } from "./patient.server";

/** The matches of a search with the current choice first, even when it does not match. */
export function withSelected<T extends { id: number }>(found: T[], selectedId: number | null, load: (id: number) => T | null): T[] {
  if (!selectedId || found.some((o) => o.id === selectedId)) return found;
  const selected = load(selectedId);
  return selected ? [selected, ...found] : found;
}

/**
 * Server-rendered options of a patient picker: the matches for `q`, the selected patient first.
 * The matches are kept until the patients are written, and so are their options (`optionsOf`): a
 * page opened again sends the same array, its JSON made once, and keys kept markup by identity.
 */
export function patientPickerOptions(q: string, selectedId: number | null): readonly PickerOption[] {
  return optionsOf(withSelected(searchPatientOptions(q), selectedId, getPatient), patientOption);
}

/** Server-rendered options of a doctor picker: the active matches for `q`, the selected doctor first (kept as the patients' are). */
export function doctorPickerOptions(q: string, selectedId: number | null): readonly PickerOption[] {
  return optionsOf(withSelected(searchDoctorOptions(q), selectedId, getDoctorOption), doctorOption);
}
