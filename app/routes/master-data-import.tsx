import { data } from "react-router";
import { CsvImportPage } from "~/components/csv-import";
import { RouteErrorBoundary } from "~/components/route-error";
import { assertCan, requirePermission } from "~/.server/auth";
import { readFormBody } from "~/.server/form-body";
import { routeUrl } from "~/.server/route-url";
import { redirectWithToast } from "~/.server/toast";
import { MASTER_DATA_TAB_LABELS, masterDataTabOf } from "~/lib/master-data-tabs";
import { CSV_COLUMNS, importCsv } from "~/models/master-data-csv.server";
import type { Route } from "./+types/master-data-import";

export const handle = { title: "Cadastros", subtitle: "Importar CSV" };
export const meta: Route.MetaFunction = () => [{ title: "Importar CSV · Cadastros · Sinapse" }];

/** GET /master-data/{tab}/import: the upload form, for admins. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "masterData", "view");
  assertCan(user, "masterData", "create");
  const tab = masterDataTabOf(routeUrl(request).pathname);
  return { tab, label: MASTER_DATA_TAB_LABELS[tab], headers: CSV_COLUMNS[tab].map((column) => column.header) };
}

/**
 * POST: `preview` reads the file (or the text pasted), validates every line and shows the result;
 * `apply` imports the same text, all lines or none. Admins only.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "masterData", "view");
  assertCan(user, "masterData", "create");
  const tab = masterDataTabOf(routeUrl(request).pathname);
  const form = await readFormBody(request);
  const file = form.get("file");
  const csv = file instanceof File && file.size > 0 ? await file.text() : String(form.get("csv") ?? "");
  if (!csv.trim()) return data({ csv: "", check: null, message: "Escolha um arquivo CSV." }, { status: 400 });
  const apply = form.get("intent") === "apply";
  const check = importCsv(tab, user.id, csv, { apply });
  if (check.applied && apply) {
    const noun = check.count === 1 ? "registro importado" : "registros importados";
    return redirectWithToast(`/master-data/${tab}`, { type: "success", message: `${check.count} ${noun} com sucesso` });
  }
  return data({ csv, check, message: check.errors.length ? "Nada foi importado: corrija as linhas indicadas." : null }, { status: check.errors.length ? 400 : 200 });
}

export default function MasterDataImport({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, label, headers } = loaderData;
  return (
    <CsvImportPage
      id="import"
      title={`Importar ${label.toLowerCase()} de um CSV`}
      help={`A primeira linha é o cabeçalho, com as colunas da exportação: ${headers.join(", ")}. Separador ';' ou ','. Nada é gravado se alguma linha tiver erro.`}
      backTo={`/master-data/${tab}`}
      result={actionData}
      preview={(check) => ({
        heading: `Pré-visualização: ${check.count} ${check.count === 1 ? "linha pronta" : "linhas prontas"} para importar`,
        columns: check.headers.map((header) => ({ header })),
        rows: check.preview.map((row) => check.headers.map((header) => row[header])),
      })}
    />
  );
}

export const ErrorBoundary = RouteErrorBoundary;
