import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";
import { controlClasses } from "./input";

export function Textarea({ className, rows = 3, ...props }: ComponentProps<"textarea">) {
  return (
    <textarea
      data-slot="textarea"
      rows={rows}
      className={cn(controlClasses, "field-sizing-content min-h-16 py-2", className)}
      {...props}
    />
  );
}
