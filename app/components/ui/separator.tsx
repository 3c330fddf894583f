import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

type SeparatorProps = ComponentProps<"div"> & {
  orientation?: "horizontal" | "vertical";
  /** Purely visual (default): hidden from assistive technology. */
  decorative?: boolean;
};

export function Separator({
  className,
  orientation = "horizontal",
  decorative = true,
  ...props
}: SeparatorProps) {
  const semantics = decorative
    ? { role: "none" as const }
    : {
        role: "separator" as const,
        "aria-orientation": orientation === "vertical" ? ("vertical" as const) : undefined,
      };
  return (
    <div
      data-slot="separator"
      data-orientation={orientation}
      {...semantics}
      className={cn(
        "shrink-0 bg-border",
        orientation === "horizontal" ? "h-px w-full" : "h-full w-px self-stretch",
        className,
      )}
      {...props}
    />
  );
}
