import { lazyComponent } from "~/components/lazy-component";

/** The 'Create Form' dialog of /google-forms, loaded on first open (google-form-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./google-form-dialog.lazy"), "GoogleFormDialog");
export const GoogleFormDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
