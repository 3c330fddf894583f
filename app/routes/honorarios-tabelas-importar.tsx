import { Form, Link, data } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { assertCan, requirePermission } from "~/.server/auth";
import { readFormBody } from "~/.server/form-body";
import { redirectWithToast } from "~/.server/toast";
import { CBHPM_BANDS, CBHPM_BAND_LABELS, isOneOf } from "~/lib/enums";
import { PORTE_CSV_HEADERS, importPorteTable } from "~/models/porte-table-import.server";
import type { Route } from "./+types/honorarios-tabelas-importar";
import { ImportLineErrors } from "~/components/import-line-errors";

export const handle = { title: "Tabelas de referência", subtitle: "Importar tabela de portes CBHPM" };
export const meta: Route.MetaFunction = () => [{ title: "Importar tabela de portes · Sinapse" }];

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
  const check = actionData?.check;
  return (
    <div className="max-w-4xl space-y-4">
      <h2 className="text-lg font-semibold">Importar tabela de portes CBHPM</h2>
      <p className="text-sm text-muted-foreground">
        Um arquivo por edição e faixa. A primeira linha é o cabeçalho: {loaderData.headers.join(", ")} (valor em reais, ex.: 1.854,75). Separador ';' ou ','. A
        tabela da mesma edição e faixa é substituída; nada é gravado se alguma linha tiver erro.
      </p>
      <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="preview" />
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
        <div className="grid gap-1.5">
          <Label htmlFor="porte-file">Arquivo CSV</Label>
          <input id="porte-file" name="file" type="file" accept=".csv,text/csv" required className="block text-sm" />
        </div>
        <Button type="submit" variant="outline">
          Pré-visualizar
        </Button>
        <ButtonLink to="/honorarios/tabelas" variant="ghost">
          Voltar
        </ButtonLink>
      </Form>

      {actionData?.message ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p role="alert">{actionData.message}</p>
          </AlertDescription>
        </Alert>
      ) : null}

      {check ? <ImportLineErrors id="porte-errors" errors={check.errors} /> : null}

      {check && !check.errors.length ? (
        <section aria-labelledby="porte-preview" className="space-y-3">
          <h3 id="porte-preview" className="font-medium">
            Pré-visualização: {check.rows.length} portes da CBHPM {actionData?.edition} ({CBHPM_BAND_LABELS[actionData?.band as keyof typeof CBHPM_BAND_LABELS]})
          </h3>
          {check.missing.length ? <p className="text-sm text-muted-foreground">Portes ausentes no arquivo: {check.missing.join(", ")}.</p> : null}
          <div className="overflow-x-auto rounded-md border">
            <Table aria-label="Portes a importar">
              <TableHeader>
                <TableRow>
                  <TableHead>Porte</TableHead>
                  <TableHead className="text-right">Valor</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {check.rows.map((row) => (
                  <TableRow key={row.porte}>
                    <TableCell>{row.porte}</TableCell>
                    <TableCell className="text-right tabular-nums">{row.value}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <Form method="post" className="flex gap-2">
            <input type="hidden" name="intent" value="apply" />
            <input type="hidden" name="edition" value={actionData?.edition} />
            <input type="hidden" name="band" value={actionData?.band} />
            <textarea name="csv" defaultValue={actionData?.csv} hidden readOnly aria-hidden />
            <Button type="submit">Confirmar importação</Button>
            <Link to="/honorarios/tabelas" className="self-center text-sm underline">
              Cancelar
            </Link>
          </Form>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
