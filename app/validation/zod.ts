import { z } from "zod";

/**
 * zod for every form schema. Without `jitless`, zod 4 probes `new Function` when an object schema
 * is built, which the pages' CSP (no eval; app/entry.server.tsx) reports as a violation; the
 * interpreted parser it falls back to is what a form needs anyway.
 */
z.config({ jitless: true });

export { z };
