import type { BadgeVariant } from "~/components/ui/badge";

const BADGES: Record<string, BadgeVariant> = {
  realizado: "secondary",
  faturado: "info",
  pendente: "warning",
  glosa: "destructive",
  pago: "success",
};

/** The badge colour of a receivable status (Cirurgias a receber and pagas). */
export function receivableBadge(status: string | null | undefined): BadgeVariant {
  return (status && BADGES[status]) || "outline";
}
