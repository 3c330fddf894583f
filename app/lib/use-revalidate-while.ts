import { useEffect } from "react";
import { useRevalidator } from "react-router";

/**
 * Reads the page's data again every `everyMs` while `active` (work the server does in the
 * background, such as a backup): the page shows its end without a reload. Without JavaScript the
 * page offers a link to itself instead.
 */
export function useRevalidateWhile(active: boolean, everyMs: number) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active || state !== "idle") return;
    const timer = setTimeout(() => void revalidate(), everyMs);
    return () => clearTimeout(timer);
  }, [active, everyMs, revalidate, state]);
}
