import { lazyComponent } from "~/components/lazy-component";

/** `?ajustar=LINE`, loaded on first open (fee-override-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./fee-override-dialog.lazy"), "OverrideDialog");
export const OverrideDialog = dialog.Component;
await dialog.preloadIfShown('form[id^="fee-override-"]');
