import { toDateTimeLocalValue } from "~/lib/dates";
import { draftFromUrl, parseId } from "~/lib/list-params";
import { cleanQueryText } from "~/lib/text";
import type { getAppointment } from "./appointment.server";
import { doctorPickerOptions, patientPickerOptions } from "./picker-options.server";

/** The dialog's fields, as they travel in the URL when a picker's 'Buscar' resubmits it without JavaScript. */
const FORM_FIELDS = ["patientId", "doctorId", "startTime", "endTime", "type", "location", "status", "notes"] as const;
type FormValues = Partial<Record<(typeof FORM_FIELDS)[number], string>>;

/**
 * The URL of the list behind the /appointments page. When a picker resubmitted the dialog as a GET,
 * `status` is the form's field, and the list's own status filter travelled as `listStatus`.
 */
export function appointmentListStateUrl(url: URL): URL {
  if (!url.searchParams.has("picker")) return url;
  const list = new URL(url);
  const filter = url.searchParams.get("listStatus");
  if (filter) list.searchParams.set("status", filter);
  else list.searchParams.delete("status");
  return list;
}

/** Default values and picker options of the /appointments create/edit dialog: a picker's draft, else the appointment, else a new one. */
export function appointmentDialogData(url: URL, editing: ReturnType<typeof getAppointment>) {
  const values: FormValues =
    draftFromUrl(url, FORM_FIELDS) ??
    (editing
      ? {
          patientId: String(editing.patientId),
          doctorId: String(editing.doctorId),
          startTime: toDateTimeLocalValue(editing.startTime),
          endTime: toDateTimeLocalValue(editing.endTime),
          type: editing.type,
          location: editing.location ?? "",
          status: editing.status,
          notes: editing.notes ?? "",
        }
      : { status: "scheduled" });
  const patientQ = cleanQueryText(url.searchParams.get("patientQ"));
  const doctorQ = cleanQueryText(url.searchParams.get("doctorQ"));
  return {
    values,
    patientQ,
    doctorQ,
    patients: patientPickerOptions(patientQ, parseId(values.patientId)),
    doctors: doctorPickerOptions(doctorQ, parseId(values.doctorId)),
  };
}
