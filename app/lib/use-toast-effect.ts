import { useEffect } from "react";
import type { Toast } from "./toast";

/**
 * Shows a toast an action returned alongside a 4xx (React Router does not revalidate the
 * root loader after a failed action, so the flash cookie route cannot carry it). The toast library
 * is loaded when a toast is shown, not with every page (the first-load JavaScript budget).
 */
export function useToastEffect(toast: Toast | null | undefined) {
  useEffect(() => {
    if (!toast) return;
    void import("sonner").then(({ toast: show }) => {
      const options = { description: toast.description };
      if (toast.type === "error") show.error(toast.message, options);
      else if (toast.type === "success") show.success(toast.message, options);
      else show.info(toast.message, options);
    });
  }, [toast]);
}
