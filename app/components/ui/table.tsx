import type { ComponentProps, ReactNode } from "react";

import { CachedElement } from "~/lib/markup-cache";
import { cn } from "~/lib/utils";

/** A table inside a horizontally scrolling container (wide tables stay usable on small screens). */
export function Table({
  className,
  containerClassName,
  ...props
}: ComponentProps<"table"> & { containerClassName?: string }) {
  return (
    <div data-slot="table-container" className={cn("relative w-full overflow-x-auto", containerClassName)}>
      <table
        data-slot="table"
        className={cn("w-full caption-bottom text-sm", className)}
        {...props}
      />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return (
    <tbody data-slot="table-body" className={cn("[&_tr:last-child]:border-0", className)} {...props} />
  );
}

/**
 * A TableBody whose markup is kept per `cacheKey` (docs/decisions/0025-cached-shell-markup.md): every
 * value its rows' server markup reads, or undefined to render them every time. `children` may be a
 * function, called only when the markup is not kept.
 */
export function KeptTableBody({ id, cacheKey, children }: { id: string; cacheKey: string | undefined; children: ReactNode | (() => ReactNode) }) {
  return (
    <CachedElement as="tbody" id={id} cacheKey={cacheKey} data-slot="table-body" className="[&_tr:last-child]:border-0">
      {children}
    </CachedElement>
  );
}

export function TableFooter({ className, ...props }: ComponentProps<"tfoot">) {
  return (
    <tfoot
      data-slot="table-footer"
      className={cn("border-t bg-muted/50 font-medium [&>tr]:last:border-b-0", className)}
      {...props}
    />
  );
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return (
    <tr
      className={cn("dt-row", className)}
      {...props}
    />
  );
}

export function TableHead({ className, scope = "col", ...props }: ComponentProps<"th">) {
  return (
    <th
      scope={scope}
      className={cn("dt-head", className)}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return (
    <td
      className={cn("dt-cell", className)}
      {...props}
    />
  );
}

export function TableCaption({ className, ...props }: ComponentProps<"caption">) {
  return (
    <caption
      data-slot="table-caption"
      className={cn("mt-4 text-sm text-muted-foreground", className)}
      {...props}
    />
  );
}
