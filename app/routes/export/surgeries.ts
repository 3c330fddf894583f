import { assertCan, requirePermission } from "~/.server/auth";
import { csvExport } from "~/.server/csv-export";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { SURGERY_STATUS_LABELS, labelFor } from "~/lib/enums";
import { parseListState } from "~/lib/list-params";
import { SURGERY_LIST } from "~/lib/lists";
import { stageLabel } from "~/lib/pipeline";
import { surgeryExport } from "~/models/surgery.server";
import type { Route } from "./+types/surgeries";

/** GET /surgeries/export.csv?q=&status=&stage=&doctor=&dir= — the list as filtered, for admins. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "surgeries", "view");
  assertCan(user, "surgeries", "export");
  const { page: _page, filters, ...state } = parseListState(routeUrl(request), SURGERY_LIST);
  return csvExport({
    user,
    entity: "surgery",
    filename: "cirurgias",
    criteria: { ...state, ...filters },
    ...surgeryExport(state, filters),
    columns: [
      { header: "Data", value: (s) => formatDateTime(s.scheduledDate) },
      { header: "Paciente", value: (s) => s.patientName },
      { header: "Médico", value: (s) => s.doctorName },
      { header: "Cirurgia", value: (s) => s.surgeryType },
      { header: "Status", value: (s) => labelFor(SURGERY_STATUS_LABELS, s.status) },
      { header: "Etapa", value: (s) => stageLabel(s.currentStage) },
      { header: "Hospital", value: (s) => s.hospital },
      { header: "Pagador", value: (s) => s.payerName },
      { header: "Guia", value: (s) => s.guideNumber },
      // Reais as a number with decimal comma, so Excel can sum the column.
      { header: "Valor faturado (R$)", value: (s) => (s.billedAmountCents == null ? null : s.billedAmountCents / 100) },
    ],
  });
}
