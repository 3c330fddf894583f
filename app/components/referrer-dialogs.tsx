import { lazyComponent } from "~/components/lazy-component";

/** The dialogs of /referrers, loaded on first open (referrer-dialogs.lazy.tsx; see lazyComponent). */
const referrerDialog = lazyComponent(() => import("./referrer-dialogs.lazy"), "ReferrerDialog");
const referralsDialog = lazyComponent(() => import("./referrer-dialogs.lazy"), "ReferralsDialog");
export const ReferrerDialog = referrerDialog.Component;
export const ReferralsDialog = referralsDialog.Component;
await referrerDialog.preloadIfShown("[data-url-dialog]");
await referralsDialog.preloadIfShown("[data-url-dialog]");
