import type { IconComponent } from "~/components/icons";
import type { ReactNode } from "react";

import { cn } from "~/lib/utils";

export interface EmptyStateProps {
  icon?: IconComponent;
  title: ReactNode;
  description?: ReactNode;
  /** A button or link, e.g. `<ButtonLink to="?dialog=new">Novo Paciente</ButtonLink>`. */
  action?: ReactNode;
  className?: string;
}

/** The placeholder shown where a list or screen has nothing yet. */
export function EmptyState({ icon: Icon, title, description, action, className }: EmptyStateProps) {
  return (
    <div
      data-slot="empty-state"
      className={cn(
        "flex flex-col items-center justify-center gap-3 rounded-lg border border-dashed px-6 py-12 text-center",
        className,
      )}
    >
      {Icon && (
        <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Icon aria-hidden="true" className="size-6" />
        </div>
      )}
      <div className="grid max-w-md gap-1">
        <h3 className="text-base font-semibold">{title}</h3>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
