import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

/** A text area with the inputs' look (app.css `.control`), growing with its content. */
export function Textarea({ className, rows = 3, ...props }: ComponentProps<"textarea">) {
  return <textarea rows={rows} className={cn("control textarea", className)} {...props} />;
}
