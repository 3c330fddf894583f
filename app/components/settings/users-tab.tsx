import { lazyComponent } from "~/components/lazy-component";

/** `?tab=usuarios`, loaded when the tab is first shown (users-tab.lazy.tsx; see lazyComponent). */
const tab = lazyComponent(() => import("./users-tab.lazy"), "UsersTab");
export const UsersTab = tab.Component;
await tab.preloadIfShown('[data-settings-tab="usuarios"]');
