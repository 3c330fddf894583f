import {
  APPOINTMENT_STATUSES,
  APPOINTMENT_STATUS_LABELS,
  SURGERY_STATUSES,
  SURGERY_STATUS_LABELS,
  TASK_CATEGORIES,
  TASK_CATEGORY_LABELS,
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
  TASK_STATUSES,
  TASK_STATUS_LABELS,
  enumOptions,
} from "~/lib/enums";
import { PIPELINE_STAGES } from "~/lib/pipeline";

/**
 * Option lists shared by a list page (its filters) and its dialog. They live here, not in the
 * dialog's wrapper module: a `.lazy` module that imported its wrapper would form an import cycle
 * with the wrapper's top-level `await`, and a page arriving with the dialog open would never hydrate.
 */
export const APPOINTMENT_STATUS_OPTIONS = enumOptions(APPOINTMENT_STATUSES, APPOINTMENT_STATUS_LABELS);

/** /surgeries' own filters, kept by links, dialogs and redirects (besides q, page, sort, dir). */
export const SURGERY_FILTER_PARAMS = ["status", "stage", "doctor"] as const;
export const SURGERY_STATUS_OPTIONS = enumOptions(SURGERY_STATUSES, SURGERY_STATUS_LABELS);
export const SURGERY_STAGE_OPTIONS = PIPELINE_STAGES.map((stage) => ({ value: stage.id, label: stage.label }));

export const TASK_CATEGORY_OPTIONS = enumOptions(TASK_CATEGORIES, TASK_CATEGORY_LABELS);
export const TASK_PRIORITY_OPTIONS = enumOptions(TASK_PRIORITIES, TASK_PRIORITY_LABELS);
export const TASK_STATUS_OPTIONS = enumOptions(TASK_STATUSES, TASK_STATUS_LABELS);

/**
 * A Cadastros row (doctor, payer, hospital, supplier) as a select's option: inactive ones stay
 * choosable where a list or a record still refers to them, marked so.
 */
export function registryOption(row: { id: number; name: string; active: boolean }): { value: string; label: string } {
  return { value: String(row.id), label: registryLabel(row) };
}

export function registryLabel(row: { name: string; active: boolean }): string {
  return row.active ? row.name : `${row.name} (inativo)`;
}
