import { lazyComponent } from "~/components/lazy-component";

export type { CalendarPushView } from "./google-calendar-push.lazy";

/** /google-calendar's "Envio da agenda" card, loaded on demand (google-calendar-push.lazy.tsx; see lazyComponent). */
const card = lazyComponent(() => import("./google-calendar-push.lazy"), "CalendarPushCard");
export const CalendarPushCard = card.Component;
await card.preloadIfShown("[data-calendar-push]");
