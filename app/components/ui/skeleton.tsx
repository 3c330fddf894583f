import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

/** A grey placeholder block for content that is still loading. */
export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn("animate-pulse rounded-md bg-accent", className)}
      {...props}
    />
  );
}
