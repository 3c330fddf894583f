import { assertCan, requirePermission } from "~/.server/auth";
import { csvExport } from "~/.server/csv-export";
import { routeUrl } from "~/.server/route-url";
import { formatDate, formatTime } from "~/lib/dates";
import { APPOINTMENT_STATUS_LABELS, labelFor } from "~/lib/enums";
import { parseListState } from "~/lib/list-params";
import { APPOINTMENT_LIST } from "~/lib/lists";
import { appointmentExport } from "~/models/appointment.server";
import type { Route } from "./+types/appointments";

/** GET /appointments/export.csv?q=&status=&doctor=&dir= — the list as filtered, for admins. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "appointments", "view");
  assertCan(user, "appointments", "export");
  const { page: _page, filters, ...state } = parseListState(routeUrl(request), APPOINTMENT_LIST);
  return csvExport({
    user,
    entity: "appointment",
    filename: "consultas",
    criteria: { ...state, ...filters },
    ...appointmentExport(state, filters),
    columns: [
      { header: "Data", value: (a) => formatDate(a.startTime) },
      { header: "Início", value: (a) => formatTime(a.startTime) },
      { header: "Término", value: (a) => formatTime(a.endTime) },
      { header: "Paciente", value: (a) => a.patientName },
      { header: "Médico", value: (a) => a.doctorName },
      { header: "Tipo", value: (a) => a.type },
      { header: "Local", value: (a) => a.location },
      { header: "Status", value: (a) => labelFor(APPOINTMENT_STATUS_LABELS, a.status) },
      { header: "Observações", value: (a) => a.notes },
    ],
  });
}
