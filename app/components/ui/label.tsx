import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

/** A field's label (app.css `.label`); utilities in `className` adjust it. */
export function Label({ className, ...props }: ComponentProps<"label">) {
  return <label className={cn("label", className)} {...props} />;
}
