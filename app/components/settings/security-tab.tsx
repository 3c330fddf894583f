import { lazyComponent } from "~/components/lazy-component";

/** `?tab=seguranca`, loaded when the tab is first shown (security-tab.lazy.tsx; see lazyComponent). */
const tab = lazyComponent(() => import("./security-tab.lazy"), "SecurityTab");
export const SecurityTab = tab.Component;
await tab.preloadIfShown('[data-settings-tab="seguranca"]');
