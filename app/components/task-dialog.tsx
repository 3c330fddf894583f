import { lazyComponent } from "~/components/lazy-component";

export {
  TASK_CATEGORY_OPTIONS as CATEGORY_OPTIONS,
  TASK_PRIORITY_OPTIONS as PRIORITY_OPTIONS,
  TASK_STATUS_OPTIONS as STATUS_OPTIONS,
} from "~/lib/form-options";

/** The create/edit dialog of /tasks, loaded on first open (task-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./task-dialog.lazy"), "TaskDialog");
export const TaskDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
