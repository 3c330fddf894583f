import { lazyComponent } from "~/components/lazy-component";

/** The create/edit dialog of /patients: every SPEC §3 field and the WhatsApp consent. Loaded on first open (patient-dialog.lazy.tsx; see lazyComponent). */
const patientDialog = lazyComponent(() => import("./patient-dialog.lazy"), "PatientDialog");
export const PatientDialog = patientDialog.Component;
await patientDialog.preloadIfShown("[data-url-dialog]");
