import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** False in the server's HTML and while hydrating it; true afterwards, and at once for parts mounted later. */
export function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
