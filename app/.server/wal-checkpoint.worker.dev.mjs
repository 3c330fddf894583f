// The WAL checkpoint worker run from its TypeScript source, through tsx (the tests and development);
// the production build bundles wal-checkpoint.worker.ts itself (vite.config.ts, `serverWorkers`).
import { tsImport } from "tsx/esm/api";

await tsImport("./wal-checkpoint.worker.ts", import.meta.url);
