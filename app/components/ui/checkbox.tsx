import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

/** A native checkbox (submits "on" by default; works without JavaScript). */
export function Checkbox({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  return (
    <input
      type="checkbox"
      className={cn(
        "peer size-4 shrink-0 cursor-pointer accent-primary",
        // Native checkboxes ignore box-shadow rings in some browsers, so focus uses an outline.
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        "disabled:cursor-not-allowed disabled:opacity-50",
        "aria-invalid:outline-2 aria-invalid:outline-offset-2 aria-invalid:outline-destructive",
        className,
      )}
      {...props}
    />
  );
}
