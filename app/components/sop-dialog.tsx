import { lazyComponent } from "~/components/lazy-component";

/** The create/edit and view dialogs of /sops. Loaded on first open (sop-dialog.lazy.tsx; see lazyComponent). */
const sopDialog = lazyComponent(() => import("./sop-dialog.lazy"), "SopDialog");
export const SopDialog = sopDialog.Component;
const sopViewDialog = lazyComponent(() => import("./sop-dialog.lazy"), "SopViewDialog");
export const SopViewDialog = sopViewDialog.Component;
await sopDialog.preloadIfShown("[data-url-dialog]");
await sopViewDialog.preloadIfShown("[data-url-dialog]");
