import { assertCan, requirePermission } from "~/.server/auth";
import { csvExport } from "~/.server/csv-export";
import { routeUrl } from "~/.server/route-url";
import { formatDate, formatIsoDate } from "~/lib/dates";
import { formatCpf, formatPhone } from "~/lib/documents";
import { parseListState } from "~/lib/list-params";
import { PATIENT_LIST } from "~/lib/lists";
import { patientExport } from "~/models/patient.server";
import type { Route } from "./+types/patients";

/** GET /patients/export.csv?q=&sort=&dir= — the list as it is searched and sorted, for admins. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "patients", "view");
  assertCan(user, "patients", "export");
  const { page: _page, filters: _filters, ...state } = parseListState(routeUrl(request), PATIENT_LIST);
  return csvExport({
    user,
    entity: "patient",
    filename: "pacientes",
    criteria: state,
    ...patientExport(state),
    columns: [
      { header: "Nome", value: (p) => p.name },
      { header: "CPF", value: (p) => (p.cpf ? formatCpf(p.cpf) : null) },
      { header: "Data de nascimento", value: (p) => (p.dateOfBirth ? formatIsoDate(p.dateOfBirth) : null) },
      { header: "Telefone", value: (p) => (p.phone ? formatPhone(p.phone) : null) },
      { header: "E-mail", value: (p) => p.email },
      { header: "Convênio", value: (p) => p.insurance },
      { header: "Endereço", value: (p) => p.address },
      { header: "Aceita WhatsApp", value: (p) => (p.whatsappOptIn ? "Sim" : "Não") },
      { header: "Cadastrado em", value: (p) => formatDate(p.createdAt) },
    ],
  });
}
