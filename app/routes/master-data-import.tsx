import { Form, Link, data } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button, ButtonLink } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { assertCan, requirePermission } from "~/.server/auth";
import { readFormBody } from "~/.server/form-body";
import { redirectWithToast } from "~/.server/toast";
import { MASTER_DATA_TAB_LABELS, masterDataTabOf } from "~/lib/master-data-tabs";
import { CSV_COLUMNS, importCsv } from "~/models/master-data-csv.server";
import type { Route } from "./+types/master-data-import";
import { ImportLineErrors } from "~/components/import-line-errors";

export const handle = { title: "Cadastros", subtitle: "Importar CSV" };
export const meta: Route.MetaFunction = () => [{ title: "Importar CSV · Cadastros · Sinapse" }];

/** GET /master-data/{tab}/import: the upload form, for admins. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "masterData", "view");
  assertCan(user, "masterData", "create");
  const tab = masterDataTabOf(new URL(request.url).pathname);
  return { tab, label: MASTER_DATA_TAB_LABELS[tab], headers: CSV_COLUMNS[tab].map((column) => column.header) };
}

/**
 * POST: `preview` reads the file (or the text pasted), validates every line and shows the result;
 * `apply` imports the same text, all lines or none. Admins only.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "masterData", "view");
  assertCan(user, "masterData", "create");
  const tab = masterDataTabOf(new URL(request.url).pathname);
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
  const check = actionData?.check;
  return (
    <div className="max-w-4xl space-y-4">
      <h2 className="text-lg font-semibold">Importar {label.toLowerCase()} de um CSV</h2>
      <p className="text-sm text-muted-foreground">
        A primeira linha é o cabeçalho, com as colunas da exportação: {headers.join(", ")}. Separador ';' ou ','. Nada é gravado
        se alguma linha tiver erro.
      </p>
      <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="preview" />
        <div className="space-y-1">
          <Label htmlFor="import-file">Arquivo CSV</Label>
          <input id="import-file" name="file" type="file" accept=".csv,text/csv" required className="block text-sm" />
        </div>
        <Button type="submit" variant="outline">
          Pré-visualizar
        </Button>
        <ButtonLink to={`/master-data/${tab}`} variant="ghost">
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

      {check ? <ImportLineErrors id="import-errors" errors={check.errors} /> : null}

      {check && !check.errors.length ? (
        <section aria-labelledby="import-preview" className="space-y-3">
          <h3 id="import-preview" className="font-medium">
            Pré-visualização: {check.count} {check.count === 1 ? "linha pronta" : "linhas prontas"} para importar
          </h3>
          <div className="overflow-x-auto rounded-md border">
            <Table>
              <TableHeader>
                <TableRow>
                  {check.headers.map((header) => (
                    <TableHead key={header}>{header}</TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {check.preview.map((row, i) => (
                  <TableRow key={i}>
                    {check.headers.map((header) => (
                      <TableCell key={header}>{row[header]}</TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <Form method="post" className="flex gap-2">
            <input type="hidden" name="intent" value="apply" />
            <textarea name="csv" defaultValue={actionData?.csv} hidden readOnly aria-hidden />
            <Button type="submit">Confirmar importação</Button>
            <Link to={`/master-data/${tab}`} className="self-center text-sm underline">
              Cancelar
            </Link>
          </Form>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
