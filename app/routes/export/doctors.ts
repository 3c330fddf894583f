import { assertCan, requirePermission } from "~/.server/auth";
import { csvExport } from "~/.server/csv-export";
import { routeUrl } from "~/.server/route-url";
import { formatPhone } from "~/lib/documents";
import { parseListState } from "~/lib/list-params";
import { DOCTOR_LIST } from "~/lib/lists";
import { doctorExport } from "~/models/doctor.server";
import type { Route } from "./+types/doctors";

/** GET /doctors/export.csv?q=&sort=&dir= — the list as it is searched and sorted, for admins. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "doctors", "view");
  assertCan(user, "doctors", "export");
  const { page: _page, filters: _filters, ...state } = parseListState(routeUrl(request), DOCTOR_LIST);
  return csvExport({
    user,
    entity: "doctor",
    filename: "medicos",
    criteria: state,
    ...doctorExport(state),
    columns: [
      { header: "Nome", value: (d) => d.name },
      { header: "Especialidade", value: (d) => d.specialty },
      { header: "CRM", value: (d) => d.crm },
      { header: "UF do CRM", value: (d) => d.crmUf },
      { header: "Telefone", value: (d) => (d.phone ? formatPhone(d.phone) : null) },
      { header: "E-mail", value: (d) => d.email },
      // A number with decimal comma, so Excel can sum and average it.
      { header: "Comissão (%)", value: (d) => Math.round(d.commissionRate * 10_000) / 100 },
      { header: "Status", value: (d) => (d.active ? "Ativo" : "Inativo") },
    ],
  });
}
