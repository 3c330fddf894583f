import { TrendingDown, TrendingUp, type IconComponent } from "~/components/icons";
import type { ReactNode } from "react";

import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { cn } from "~/lib/utils";

const percentFormat = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 1 });

export interface StatTrend {
  /** Percentage change; positive is up, negative is down (12 → "+12%"). */
  value: number;
  /** Text after the badge, e.g. "vs last month". */
  label: string;
}

export interface StatCardProps {
  title: ReactNode;
  /** The figure, already formatted ("1.234", "R$ 5.000,00", "95,2%"). */
  value: ReactNode;
  icon?: IconComponent;
  /** A short line under the value. */
  description?: ReactNode;
  /** Alias of `description`. */
  hint?: ReactNode;
  /** Up/down badge; nothing is shown when undefined. */
  trend?: StatTrend;
  className?: string;
}

/** A dashboard figure: title with icon, big value, optional description and trend badge. */
export function StatCard({ title, value, icon: Icon, description, hint, trend, className }: StatCardProps) {
  const note = description ?? hint;
  return (
    <Card className={cn("gap-2", className)}>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
        {Icon && <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />}
      </CardHeader>
      <CardContent className="grid gap-1">
        <div className="text-2xl font-bold tracking-tight tabular-nums">{value}</div>
        {note && <p className="text-xs text-muted-foreground">{note}</p>}
        {trend && <TrendLine trend={trend} />}
      </CardContent>
    </Card>
  );
}

function TrendLine({ trend }: { trend: StatTrend }) {
  const up = trend.value >= 0;
  const TrendIcon = up ? TrendingUp : TrendingDown;
  const sign = trend.value > 0 ? "+" : trend.value < 0 ? "−" : "";
  return (
    <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
      <Badge variant={up ? "success" : "destructive"}>
        <TrendIcon aria-hidden="true" />
        {sign}
        {percentFormat.format(Math.abs(trend.value))}%
      </Badge>
      <span>{trend.label}</span>
    </p>
  );
}
