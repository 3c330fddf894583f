import { lazyComponent } from "~/components/lazy-component";

/** The create/edit dialog of /doctors, loaded on first open (doctor-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./doctor-dialog.lazy"), "DoctorDialog");
export const DoctorDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
