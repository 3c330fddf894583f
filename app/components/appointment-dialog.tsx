import { lazyComponent } from "~/components/lazy-component";

export { APPOINTMENT_STATUS_OPTIONS as STATUS_OPTIONS } from "~/lib/form-options";

/** The create/edit dialog of /appointments with its patient and doctor pickers, loaded on first open (appointment-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./appointment-dialog.lazy"), "AppointmentDialog");
export const AppointmentDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
