// The export worker run from its TypeScript source, through tsx (the tests and development); the
// production build bundles export-rows.worker.ts itself (vite.config.ts, `serverWorkers`).
import { tsImport } from "tsx/esm/api";

await tsImport("./export-rows.worker.ts", import.meta.url);
