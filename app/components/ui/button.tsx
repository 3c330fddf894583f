import type { ComponentProps } from "react";
import { Link } from "~/components/ui/link";

import { cn } from "~/lib/utils";

export type ButtonVariant = "default" | "destructive" | "outline" | "secondary" | "ghost" | "link";
export type ButtonSize = "default" | "sm" | "lg" | "icon";

// The classes live in app.css (`.btn`, `.btn-<variant>`, `.btn-<size>`): a list shows dozens of
// buttons, and one short class each keeps its HTML small.
const variantClasses: Record<ButtonVariant, string> = {
  default: "btn-default",
  destructive: "btn-destructive",
  outline: "btn-outline",
  secondary: "btn-secondary",
  ghost: "btn-ghost",
  link: "btn-link",
};

const sizeClasses: Record<ButtonSize, string> = {
  default: "btn-md",
  sm: "btn-sm",
  lg: "btn-lg",
  icon: "btn-icon",
};

export interface ButtonStyleProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

/** The classes of a button, for elements that must look like one (links, labels, summary…). */
export function buttonVariants({
  variant = "default",
  size = "default",
  className,
}: ButtonStyleProps & { className?: string } = {}): string {
  return cn("btn", variantClasses[variant], sizeClasses[size], className);
}

export type ButtonProps = ComponentProps<"button"> & ButtonStyleProps;

export function Button({ className, variant, size, ...props }: ButtonProps) {
  return (
    <button
      className={buttonVariants({ variant, size, className })}
      {...props}
    />
  );
}

export type ButtonLinkProps = ComponentProps<typeof Link> & ButtonStyleProps;

/** A react-router `<Link>` that looks like a Button (works without JavaScript). */
export function ButtonLink({ className, variant, size, ...props }: ButtonLinkProps) {
  return (
    <Link
      className={buttonVariants({ variant, size, className })}
      {...props}
    />
  );
}
