import { data } from "react-router";
import { type CsvPreviewColumn, CsvImportPage } from "~/components/csv-import";
import { RouteErrorBoundary } from "~/components/route-error";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { assertCan, requirePermission } from "~/.server/auth";
import { readFormBody } from "~/.server/form-body";
import { redirectWithToast } from "~/.server/toast";
import { CBHPM_BANDS, CBHPM_BAND_LABELS, isOneOf } from "~/lib/enums";
import { PORTE_CSV_HEADERS, importPorteTable } from "~/models/porte-table-import.server";
import type { Route } from "./+types/honorarios-tabelas-importar";

export const handle = { title: "Tabelas de referência", subtitle: "Importar tabela de portes CBHPM" };
export const meta: Route.MetaFunction = () => [{ title: "Importar tabela de portes · Sinapse" }];

const PORTE_PREVIEW_COLUMNS: CsvPreviewColumn[] = [
  { header: "Porte" },
  { header: "Valor", headClassName: "text-right", cellClassName: "text-right tabular-nums" },
];

/** GET: the upload form (admins). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "honorarios", "view");
  assertCan(user, "honorarios", "create");
  return { headers: PORTE_CSV_HEADERS };
}

/** POST `preview` checks every line and shows the table; `apply` replaces that edition and band's table, all lines or none. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "honorarios", "view");
  assertCan(user, "honorarios", "create");
  const form = await readFormBody(request);
  const intentName = form.get("intent");
  if (intentName !== "preview" && intentName !== "apply") return data({ message: "Ação desconhecida.", check: null, csv: "", edition: "", band: "" }, { status: 400 });
  const edition = String(form.get("edition") ?? "").trim();
  const band = String(form.get("band") ?? "");
  const file = form.get("file");
  const csv = file instanceof File && file.size > 0 ? await file.text() : String(form.get("csv") ?? "");
  const echo = { csv, edition, band };
  if (!/^(19|20|21)\d{2}$/.test(edition)) return data({ ...echo, check: null, message: "Informe a edição da CBHPM (ano com 4 dígitos, ex.: 2022)." }, { status: 400 });
  if (!isOneOf(CBHPM_BANDS, band)) return data({ ...echo, check: null, message: "Escolha a faixa da tabela." }, { status: 400 });
  if (!csv.trim()) return data({ ...echo, check: null, message: "Escolha um arquivo CSV." }, { status: 400 });
  const check = importPorteTable(user.id, Number(edition), band, csv, { apply: intentName === "apply" });
  if (check.applied) {
    return redirectWithToast(`/honorarios/tabelas?kind=CBHPM&year=${edition}`, { type: "success", message: `Tabela de portes CBHPM ${edition} (${CBHPM_BAND_LABELS[band]}) importada: ${check.rows.length} portes` });
  }
  return data({ ...echo, check, message: check.errors.length ? "Nada foi importado: corrija as linhas indicadas." : null }, { status: check.errors.length ? 400 : 200 });
}

export default function PorteTableImport({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <CsvImportPage
      id="porte"
      title="Importar tabela de portes CBHPM"
      help={
        <>
          Um arquivo por edição e faixa. A primeira linha é o cabeçalho: {loaderData.headers.join(", ")} (valor em reais, ex.: 1.854,75). Separador ';' ou ','. A
          tabela da mesma edição e faixa é substituída; nada é gravado se alguma linha tiver erro.
        </>
      }
      fields={
        <>
          <div className="grid gap-1.5">
            <Label htmlFor="porte-edition">Edição</Label>
            <Input id="porte-edition" name="edition" inputMode="numeric" defaultValue={actionData?.edition || "2022"} required className="w-28" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="porte-band">Faixa</Label>
            <Select id="porte-band" name="band" defaultValue={actionData?.band || "original"} wrapperClassName="w-40">
              {CBHPM_BANDS.map((band) => (
                <option key={band} value={band}>
                  {CBHPM_BAND_LABELS[band]}
                </option>
              ))}
            </Select>
          </div>
        </>
      }
      backTo="/honorarios/tabelas"
      result={actionData}
      preview={(check) => ({
        heading: `Pré-visualização: ${check.rows.length} portes da CBHPM ${actionData?.edition} (${CBHPM_BAND_LABELS[actionData?.band as keyof typeof CBHPM_BAND_LABELS]})`,
        note: check.missing.length ? `Portes ausentes no arquivo: ${check.missing.join(", ")}.` : null,
        tableLabel: "Portes a importar",
        columns: PORTE_PREVIEW_COLUMNS,
        rows: check.rows.map((row) => [row.porte, row.value]),
        keep: { edition: actionData?.edition ?? "", band: actionData?.band ?? "" },
      })}
    />
  );
}

export const ErrorBoundary = RouteErrorBoundary;
