import { lazyComponent } from "~/components/lazy-component";
import { TASK_CATEGORIES, TASK_CATEGORY_LABELS, TASK_PRIORITIES, TASK_PRIORITY_LABELS, TASK_STATUSES, TASK_STATUS_LABELS, enumOptions } from "~/lib/enums";

export const CATEGORY_OPTIONS = enumOptions(TASK_CATEGORIES, TASK_CATEGORY_LABELS);
export const PRIORITY_OPTIONS = enumOptions(TASK_PRIORITIES, TASK_PRIORITY_LABELS);
export const STATUS_OPTIONS = enumOptions(TASK_STATUSES, TASK_STATUS_LABELS);

/** The create/edit dialog of /tasks, loaded on first open (task-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./task-dialog.lazy"), "TaskDialog");
export const TaskDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
