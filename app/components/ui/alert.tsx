import { CircleCheck, CircleExclamationPoint, Info, TriangleExclamationPoint } from "~/components/icons";
import type { IconComponent } from "~/components/icons";
import type { ComponentProps } from "react";

import { cn } from "~/lib/utils";

export type AlertVariant = "default" | "destructive" | "success" | "warning" | "info";

const variantClasses: Record<AlertVariant, string> = {
  default: "bg-card text-card-foreground",
  destructive:
    "border-destructive/40 bg-destructive/5 text-destructive [&>svg]:text-destructive [&_[data-slot=alert-description]]:text-destructive/90",
  success: "border-success/40 bg-success/5 [&>svg]:text-success",
  warning: "border-warning/60 bg-warning/10 [&>svg]:text-warning-foreground dark:[&>svg]:text-warning",
  info: "border-info/40 bg-info/5 [&>svg]:text-info",
};

const defaultIcons: Record<AlertVariant, IconComponent> = {
  default: Info,
  destructive: CircleExclamationPoint,
  success: CircleCheck,
  warning: TriangleExclamationPoint,
  info: Info,
};

type AlertProps = ComponentProps<"div"> & {
  variant?: AlertVariant;
  /** Icon at the left; defaults to one matching the variant, `null` for none. */
  icon?: IconComponent | null;
};

/**
 * An inline message box. Destructive and warning alerts are announced (`role="alert"`);
 * the others are polite (`role="status"`). Compose with AlertTitle and AlertDescription.
 */
export function Alert({ className, variant = "default", icon, children, ...props }: AlertProps) {
  const Icon = icon === null ? null : (icon ?? defaultIcons[variant]);
  return (
    <div
      data-slot="alert"
      role={variant === "destructive" || variant === "warning" ? "alert" : "status"}
      className={cn(
        "relative flex w-full items-start gap-3 rounded-lg border px-4 py-3 text-sm",
        "[&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0",
        variantClasses[variant],
        className,
      )}
      {...props}
    >
      {Icon && <Icon aria-hidden="true" />}
      <div className="grid min-w-0 flex-1 gap-1">{children}</div>
    </div>
  );
}

export function AlertTitle({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="alert-title"
      className={cn("font-medium tracking-tight", className)}
      {...props}
    />
  );
}

export function AlertDescription({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="alert-description"
      className={cn(
        "grid justify-items-start gap-1 text-sm text-muted-foreground [&_p]:leading-relaxed",
        className,
      )}
      {...props}
    />
  );
}
