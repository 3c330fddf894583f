import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

export interface SelectProps extends ComponentProps<"select"> {
  /** Classes for the wrapper that draws the chevron (e.g. a width). */
  wrapperClassName?: string;
}

/**
 * A styled native `<select>`: works without JavaScript and keeps the platform's pickers. Its look is
 * app.css's `.control` and `.select`; a single select's wrapper draws the chevron (`.select-wrap`).
 */
export function Select({ className, wrapperClassName, multiple, children, ...props }: SelectProps) {
  return (
    <div className={cn(multiple ? "relative w-full" : "select-wrap", wrapperClassName)}>
      <select multiple={multiple} className={cn(multiple ? "control select-multiple" : "control select", className)} {...props}>
        {children}
      </select>
    </div>
  );
}
