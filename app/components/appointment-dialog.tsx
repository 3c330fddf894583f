import { lazyComponent } from "~/components/lazy-component";
import { APPOINTMENT_STATUSES, APPOINTMENT_STATUS_LABELS, enumOptions } from "~/lib/enums";

export const STATUS_OPTIONS = enumOptions(APPOINTMENT_STATUSES, APPOINTMENT_STATUS_LABELS);

/** The create/edit dialog of /appointments with its patient and doctor pickers, loaded on first open (appointment-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./appointment-dialog.lazy"), "AppointmentDialog");
export const AppointmentDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
