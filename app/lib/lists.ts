/**
 * The list screens' URL state, declared once: sort keys, default order and filters. Browser-safe,
 * so the page (filter bar, table headers) and the server (loader, export, model) read the same
 * declaration.
 */
import { APPOINTMENT_STATUSES, SURGERY_STATUSES } from "./enums";
import { type FilterValues, defineList, idFilter, oneOfFilter } from "./list-params";
import { PIPELINE_STAGE_IDS } from "./pipeline";

export const PATIENT_SORTS = ["name", "createdAt"] as const;
export type PatientSort = (typeof PATIENT_SORTS)[number];
export const PATIENT_LIST = defineList({ sorts: PATIENT_SORTS, defaultSort: "name", defaultDir: "asc" });

export const DOCTOR_SORTS = ["name", "specialty"] as const;
export type DoctorSort = (typeof DOCTOR_SORTS)[number];
export const DOCTOR_LIST = defineList({ sorts: DOCTOR_SORTS, defaultSort: "name", defaultDir: "asc" });

export const APPOINTMENT_SORTS = ["startTime"] as const;
export type AppointmentSort = (typeof APPOINTMENT_SORTS)[number];
export const APPOINTMENT_LIST = defineList({
  sorts: APPOINTMENT_SORTS,
  defaultSort: "startTime",
  defaultDir: "desc",
  filters: { status: oneOfFilter("status", APPOINTMENT_STATUSES), doctorId: idFilter("doctor") },
});
export type AppointmentFilters = Partial<FilterValues<NonNullable<(typeof APPOINTMENT_LIST)["filters"]>>>;

export const SURGERY_SORTS = ["scheduledDate"] as const;
export type SurgerySort = (typeof SURGERY_SORTS)[number];
export const SURGERY_LIST = defineList({
  sorts: SURGERY_SORTS,
  defaultSort: "scheduledDate",
  defaultDir: "desc",
  filters: {
    status: oneOfFilter("status", SURGERY_STATUSES),
    stage: oneOfFilter("stage", PIPELINE_STAGE_IDS),
    doctorId: idFilter("doctor"),
  },
});
export type SurgeryFilters = FilterValues<NonNullable<(typeof SURGERY_LIST)["filters"]>>;
