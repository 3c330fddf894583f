import { lazyComponent } from "~/components/lazy-component";

/** A task's card in full, with its checklist (/tasks?view=ID). Loaded on first open (task-view-dialog.lazy.tsx; see lazyComponent). */
const taskViewDialog = lazyComponent(() => import("./task-view-dialog.lazy"), "TaskViewDialog");
export const TaskViewDialog = taskViewDialog.Component;
await taskViewDialog.preloadIfShown("[data-url-dialog]");
