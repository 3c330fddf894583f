import { lazyComponent } from "~/components/lazy-component";

/** The create/edit dialog of /orders with its item rows. Loaded on first open (order-dialog.lazy.tsx; see lazyComponent). */
const orderDialog = lazyComponent(() => import("./order-dialog.lazy"), "OrderDialog");
export const OrderDialog = orderDialog.Component;
await orderDialog.preloadIfShown("[data-url-dialog]");
