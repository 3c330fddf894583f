import { useEffect } from "react";
import { toast as showToast } from "sonner";
import type { Toast } from "./toast";

/**
 * Shows a toast an action returned alongside a 4xx (React Router does not revalidate the
 * root loader after a failed action, so the flash cookie route cannot carry it).
 */
export function useToastEffect(toast: Toast | null | undefined) {
  useEffect(() => {
    if (!toast) return;
    if (toast.type === "error") showToast.error(toast.message, { description: toast.description });
    else if (toast.type === "success") showToast.success(toast.message, { description: toast.description });
    else showToast.info(toast.message, { description: toast.description });
  }, [toast]);
}
