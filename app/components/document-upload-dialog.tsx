import { lazyComponent } from "~/components/lazy-component";

/** The upload dialog of /files and the patient record. Loaded on first open (document-upload-dialog.lazy.tsx; see lazyComponent). */
const documentUploadDialog = lazyComponent(() => import("./document-upload-dialog.lazy"), "DocumentUploadDialog");
export const DocumentUploadDialog = documentUploadDialog.Component;
await documentUploadDialog.preloadIfShown("[data-url-dialog]");
