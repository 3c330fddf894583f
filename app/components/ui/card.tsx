import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

// The classes live in app.css (`.card`, `.card-header` …): a KPI screen shows forty cards, and one
// short class each keeps its HTML small. A class passed in `className` is a utility, and utilities
// come after the kit's components in the cascade, so it overrides the card's own (`gap-3`, `p-0`).

export function Card({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("card", className)} {...props} />;
}

export function CardHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("card-header", className)} {...props} />;
}

type CardTitleProps = ComponentProps<"div"> & {
  /** Render the title as a heading when it names a section of the page. */
  as?: "div" | "h2" | "h3" | "h4";
};

export function CardTitle({ className, as: Tag = "div", ...props }: CardTitleProps) {
  return <Tag className={cn("card-title", className)} {...props} />;
}

export function CardDescription({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("card-description", className)} {...props} />;
}

/** Top-right slot of a CardHeader (a button or menu beside the title). */
export function CardAction({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("card-action", className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("card-content", className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("card-footer", className)} {...props} />;
}
