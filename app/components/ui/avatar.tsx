import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

/**
 * Up to two initials of a name ("Maria da Silva" → "MS", "Ana" → "A"), or `fallback`
 * when the name is empty.
 */
export function getInitials(name: string | null | undefined, fallback = "DA"): string {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return fallback;
  const first = words[0].charAt(0);
  const last = words.length > 1 ? words[words.length - 1].charAt(0) : "";
  return (first + last).toLocaleUpperCase("pt-BR");
}

const sizeClasses = {
  sm: "size-7 text-xs",
  md: "size-9 text-sm",
  lg: "size-12 text-base",
} as const;

type AvatarProps = Omit<ComponentProps<"span">, "children"> & {
  /** The person's name; initials are derived from it. */
  name?: string | null;
  /** Initials shown when there is no name (default "DA"). */
  fallback?: string;
  size?: keyof typeof sizeClasses;
};

/**
 * A round badge with a person's initials. Decorative by default (the name should be written
 * beside it); pass `aria-hidden={false} role="img" aria-label={name}` when it stands alone.
 */
export function Avatar({ name, fallback, size = "md", className, ...props }: AvatarProps) {
  return (
    <span
      data-slot="avatar"
      aria-hidden="true"
      title={name ?? undefined}
      className={cn(
        "inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary/15 font-semibold text-primary select-none dark:bg-primary/25",
        sizeClasses[size],
        className,
      )}
      {...props}
    >
      {getInitials(name, fallback)}
    </span>
  );
}
