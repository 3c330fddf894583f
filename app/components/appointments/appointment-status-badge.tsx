import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { APPOINTMENT_STATUS_LABELS, type AppointmentStatus, labelFor } from "~/lib/enums";

const STATUS_BADGES: Record<AppointmentStatus, BadgeVariant> = {
  scheduled: "info",
  confirmed: "success",
  completed: "secondary",
  cancelled: "destructive",
};

/** An appointment's status as the /appointments list shows it: its label on a badge of its colour. */
export function AppointmentStatusBadge({ status }: { status: AppointmentStatus }) {
  return <Badge variant={STATUS_BADGES[status] ?? "outline"}>{labelFor(APPOINTMENT_STATUS_LABELS, status)}</Badge>;
}
