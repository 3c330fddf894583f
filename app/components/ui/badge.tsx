import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

export type BadgeVariant =
  | "default"
  | "secondary"
  | "outline"
  | "destructive"
  | "success"
  | "warning"
  | "info";

export function badgeVariants({
  variant = "default",
  className,
}: { variant?: BadgeVariant; className?: string } = {}): string {
  // `.badge` and `.badge-<variant>` (app.css) hold the shape and colours: a list shows a badge per
  // row, and two short classes keep its HTML small. Utilities in `className` still win over them.
  const classes = `badge badge-${variant}`;
  return className ? cn(classes, className) : classes;
}

export type BadgeProps = ComponentProps<"span"> & { variant?: BadgeVariant };

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span className={badgeVariants({ variant, className })} {...props} />;
}
