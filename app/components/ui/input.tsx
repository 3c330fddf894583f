import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

// The look of text-like controls is app.css's `.control` (with `.input`, `.select`, `.textarea`):
// a form or a filter bar repeats it on every field, and one short class keeps the HTML small.
// Utilities passed in `className` still win, since components sit in a lower layer.

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input type={type} className={cn("control input", className)} {...props} />;
}
