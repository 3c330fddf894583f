import { lazyComponent } from "~/components/lazy-component";

/** The record's consent dialog (`?consent=PURPOSE`), loaded on first open (patient-consent-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./patient-consent-dialog.lazy"), "ConsentDialog");
export const ConsentDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
