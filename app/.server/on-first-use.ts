import { createRequire } from "node:module";

/**
 * Libraries that only a few requests need, loaded by the first of them instead of when the server
 * starts: Google's clients, the Markdown pipeline of the SOPs, file-type sniffing, the TOTP and QR
 * code of two-factor sign-in. Loaded at start they cost about 0.3 s of every `npm start` and
 * 15-25 MB of memory for as long as the server runs, in a clinic that may never use them
 * (docs/decisions/0008-performance-budget-and-server.md, 'Libraries loaded on first use').
 */
const requireHere = createRequire(import.meta.url);

/** A CommonJS package, required on the first call and the same module after it (synchronous, as its callers are). */
export function onFirstUse<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(id) as T);
}

/** What `load` resolves to (an ES module imported, and whatever is made of it), loaded on the first call and shared by every call after it. */
export function onFirstImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
