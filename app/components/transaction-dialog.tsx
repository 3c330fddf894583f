import { lazyComponent } from "~/components/lazy-component";

/** The create/edit dialog of /financial, loaded on first open (transaction-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./transaction-dialog.lazy"), "TransactionDialog");
export const TransactionDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
