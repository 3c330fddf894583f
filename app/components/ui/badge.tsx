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

const variantClasses: Record<BadgeVariant, string> = {
  default: "border-transparent bg-primary text-primary-foreground",
  secondary: "border-transparent bg-secondary text-secondary-foreground",
  outline: "text-foreground",
  // Dark mode's red is light enough to be read as text; under white text it is toned down (WCAG AA).
  destructive: "border-transparent bg-destructive text-destructive-foreground dark:bg-destructive/70",
  success: "border-transparent bg-success text-success-foreground",
  warning: "border-transparent bg-warning text-warning-foreground",
  info: "border-transparent bg-info text-info-foreground",
};

export function badgeVariants({
  variant = "default",
  className,
}: { variant?: BadgeVariant; className?: string } = {}): string {
  // `.badge` (app.css) holds the shape: a list shows a badge per row, and one short class keeps
  // its HTML small. The variant's colours stay utilities, so `className` can still override them.
  const classes = `badge ${variantClasses[variant]}`;
  return className ? cn(classes, className) : classes;
}

export type BadgeProps = ComponentProps<"span"> & { variant?: BadgeVariant };

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span className={badgeVariants({ variant, className })} {...props} />;
}
