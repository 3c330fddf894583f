import { createContext, useContext } from "react";

/**
 * The per-request CSP nonce (app/entry.server.tsx) for the inline scripts a page renders. Empty
 * in the browser: a nonce is only needed where the HTML is made, and browsers hide it anyway.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
