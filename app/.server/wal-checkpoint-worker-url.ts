/**
 * The module the WAL's checkpoint thread runs (app/.server/wal-checkpoint.worker.ts): in the tests
 * and in development, a loader that runs its TypeScript source through tsx; the production build
 * replaces this module with the bundled worker's URL (vite.config.ts, `serverWorkers`).
 */
export const walCheckpointWorkerUrl = new URL("./wal-checkpoint.worker.dev.mjs", import.meta.url);
