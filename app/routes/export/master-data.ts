import { assertCan, requirePermission } from "~/.server/auth";
import { csvExport } from "~/.server/csv-export";
import { routeUrl } from "~/.server/route-url";
import { parseListState } from "~/lib/list-params";
import { HOSPITAL_LIST, MEDICAL_CODE_LIST, PAYER_LIST, SUPPLIER_LIST } from "~/lib/lists";
import { masterDataTabOf } from "~/lib/master-data-tabs";
import { CSV_COLUMNS } from "~/models/master-data-csv.server";
import { hospitalExport } from "~/models/hospital.server";
import { medicalCodeExport } from "~/models/medical-code.server";
import { payerExport } from "~/models/payer.server";
import { supplierExport } from "~/models/supplier.server";
import type { Route } from "./+types/master-data";

/** GET /master-data/{tab}/export.csv?q=… — the tab's list as searched, for admins; the columns the import reads back. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "masterData", "view");
  assertCan(user, "masterData", "export");
  const url = routeUrl(request);
  const tab = masterDataTabOf(url.pathname);
  switch (tab) {
    case "payers": {
      const { page: _page, filters: _filters, ...state } = parseListState(url, PAYER_LIST);
      return csvExport({ user, entity: "payer", filename: "pagadores", criteria: state, ...payerExport(state), columns: CSV_COLUMNS.payers });
    }
    case "hospitals": {
      const { page: _page, filters: _filters, ...state } = parseListState(url, HOSPITAL_LIST);
      return csvExport({ user, entity: "hospital", filename: "hospitais", criteria: state, ...hospitalExport(state), columns: CSV_COLUMNS.hospitals });
    }
    case "codes": {
      const { page: _page, ...state } = parseListState(url, MEDICAL_CODE_LIST);
      return csvExport({ user, entity: "medical_code", filename: "codigos-medicos", criteria: state, ...medicalCodeExport(state), columns: CSV_COLUMNS.codes });
    }
    case "suppliers": {
      const { page: _page, filters: _filters, ...state } = parseListState(url, SUPPLIER_LIST);
      return csvExport({ user, entity: "supplier", filename: "fornecedores", criteria: state, ...supplierExport(state), columns: CSV_COLUMNS.suppliers });
    }
  }
}
