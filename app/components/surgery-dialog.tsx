import { lazyComponent } from "~/components/lazy-component";
import { SURGERY_STATUSES, SURGERY_STATUS_LABELS, enumOptions } from "~/lib/enums";
import { PIPELINE_STAGES } from "~/lib/pipeline";

/** The list's own filters, kept by links, dialogs and redirects (besides q, page, sort, dir). */
export const FILTER_PARAMS = ["status", "stage", "doctor"] as const;
export const STATUS_OPTIONS = enumOptions(SURGERY_STATUSES, SURGERY_STATUS_LABELS);
export const STAGE_OPTIONS = PIPELINE_STAGES.map((stage) => ({ value: stage.id, label: stage.label }));

/** The create/edit dialog of /surgeries with its pickers and Cadastros selects, loaded on first open (surgery-dialog.lazy.tsx; see lazyComponent). */
const dialog = lazyComponent(() => import("./surgery-dialog.lazy"), "SurgeryDialog");
export const SurgeryDialog = dialog.Component;
await dialog.preloadIfShown("[data-url-dialog]");
