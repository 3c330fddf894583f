import { lazyComponent } from "~/components/lazy-component";

export {
  SURGERY_FILTER_PARAMS as FILTER_PARAMS,
  SURGERY_STAGE_OPTIONS as STAGE_OPTIONS,
  SURGERY_STATUS_OPTIONS as STATUS_OPTIONS,
} from "~/lib/form-options";

/** The create/edit dialog of /surgeries with its pickers and Cadastros selects, loaded on first open (surgery-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./surgery-dialog.lazy"), "SurgeryDialog");
export const SurgeryDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
