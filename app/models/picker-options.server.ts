import { type PickerOption, doctorOption, patientOption } from "~/lib/picker-options";
import { getDoctorOption, searchDoctorOptions } from "./doctor-options.server";
import { getPatient, searchPatientOptions } from "./patient.server";

/** The matches of a search with the current choice first, even when it does not match. */
export function withSelected<T extends { id: number }>(found: T[], selectedId: number | null, load: (id: number) => T | null): T[] {
  if (!selectedId || found.some((o) => o.id === selectedId)) return found;
  const selected = load(selectedId);
  return selected ? [selected, ...found] : found;
}

/** Server-rendered options of a patient picker: the matches for `q`, the selected patient first. */
export function patientPickerOptions(q: string, selectedId: number | null): PickerOption[] {
  return withSelected(searchPatientOptions(q), selectedId, getPatient).map(patientOption);
}

/** Server-rendered options of a doctor picker: the active matches for `q`, the selected doctor first. */
export function doctorPickerOptions(q: string, selectedId: number | null): PickerOption[] {
  return withSelected(searchDoctorOptions(q), selectedId, getDoctorOption).map(doctorOption);
}
