import { requireFinanceAccess } from "~/.server/finance-access";
import { csvExport } from "~/.server/csv-export";
import { routeUrl } from "~/.server/route-url";
import { formatIsoDate } from "~/lib/dates";
import { TRANSACTION_TYPE_LABELS, labelFor } from "~/lib/enums";
import { parseListState } from "~/lib/list-params";
import { TRANSACTION_LIST } from "~/lib/lists";
import { transactionExport } from "~/models/transaction.server";
import type { Route } from "./+types/financial-export";

/** GET /financial/export.csv?type=&category=&from=&to=&dir= — the cash book as filtered, admins only. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireFinanceAccess(request);
  const { filters, dir } = parseListState(routeUrl(request), TRANSACTION_LIST);
  return csvExport({
    user,
    entity: "financial_transaction",
    filename: "transacoes",
    criteria: { dir, ...filters },
    ...transactionExport({ dir }, filters),
    columns: [
      { header: "Data", value: (r) => formatIsoDate(r.transactionDate) },
      { header: "Tipo", value: (r) => labelFor(TRANSACTION_TYPE_LABELS, r.type) },
      { header: "Categoria", value: (r) => r.category },
      { header: "Descrição", value: (r) => r.description },
      // Reais as a number with decimal comma, so Excel can sum the column.
      { header: "Valor (R$)", value: (r) => r.amountCents / 100 },
      { header: "Cirurgia (id)", value: (r) => r.surgeryId },
    ],
  });
}
