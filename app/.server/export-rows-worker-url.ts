/**
 * The module an export's worker runs (app/.server/export-rows.worker.ts): in the tests and in
 * development, a loader that runs its TypeScript source through tsx; the production build replaces
 * this module with the bundled worker's URL (vite.config.ts, `serverWorkers`).
 */
export const exportRowsWorkerUrl = new URL("./export-rows.worker.dev.mjs", import.meta.url);
