import { ChevronDown } from "~/components/icons";
import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";
import { controlClasses } from "./input";

export interface SelectProps extends ComponentProps<"select"> {
  /** Classes for the wrapper that positions the chevron (e.g. a width). */
  wrapperClassName?: string;
}

/** A styled native `<select>`: works without JavaScript and keeps the platform's pickers. */
export function Select({ className, wrapperClassName, multiple, children, ...props }: SelectProps) {
  return (
    <div data-slot="select-wrapper" className={cn("relative w-full", wrapperClassName)}>
      <select
        data-slot="select"
        multiple={multiple}
        className={cn(
          controlClasses,
          "cursor-pointer appearance-none [&>option]:bg-popover [&>option]:text-popover-foreground",
          multiple ? "min-h-20 py-1" : "h-9 py-1 pr-9",
          className,
        )}
        {...props}
      >
        {children}
      </select>
      {!multiple && (
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground opacity-70"
        />
      )}
    </div>
  );
}
