import { Download, FileSpreadsheet, FileText } from "~/components/icons";
import { Form } from "react-router";
import { DataTable } from "~/components/data-table";
import { ImportLineErrors } from "~/components/import-line-errors";
import { RouteErrorBoundary } from "~/components/route-error";
import { StatementUploadForm } from "~/components/statement-upload-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { assertCan, requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { redirectWithToast } from "~/.server/toast";
import { formatDateTime, formatIsoDate } from "~/lib/dates";
import {
  FEE_IMPORT_LIST,
  IMPORT_KIND_LABELS,
  IMPORT_MESSAGES,
  LINE_OUTCOME_LABELS,
  STATEMENT_COLUMNS,
  STATEMENT_MAX_MB,
  UPLOAD_ERROR_MESSAGES,
  type UploadErrorCode,
} from "~/lib/fee-statement";
import { listUrl, parseListState } from "~/lib/list-params";
import { formatBRL } from "~/lib/money";
import { can } from "~/lib/permissions";
import { formatFileSize } from "~/lib/text";
import { useToastEffect } from "~/lib/use-toast-effect";
import { FeeStatementError, applyStatement, discardPending, listImports, statementPreview } from "~/models/fee-statement.server";
import type { Route } from "./+types/financeiro-importar";

export const handle = { title: "Importar Honorários", subtitle: "Demonstrativos de pagamento dos convênios" };
export const meta: Route.MetaFunction = () => [{ title: "Importar Honorários · Sinapse" }];

const PAGE = "/financeiro/importar-honorarios";

/** /financeiro/importar-honorarios: what was received (admins and staff) and, for admins, the uploads and a CSV's preview. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "feeImports", "view");
  const url = new URL(request.url);
  const { filters: _filters, ...params } = parseListState(url, FEE_IMPORT_LIST);
  const token = url.searchParams.get("preview");
  let preview = null;
  if (token !== null) {
    assertCan(user, "feeImports", "create");
    preview = statementPreview(token);
  }
  const errorCode = url.searchParams.get("erro");
  return {
    ...listImports(params),
    params,
    preview,
    uploadError: errorCode && Object.hasOwn(UPLOAD_ERROR_MESSAGES, errorCode) ? UPLOAD_ERROR_MESSAGES[errorCode as UploadErrorCode] : null,
    canImport: can(user, "feeImports", "create"),
    listHref: listUrl(url, FEE_IMPORT_LIST),
  };
}

/** 'Aplicar' (all the statement's lines in one transaction) and 'Descartar' of a CSV's preview; admins. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "feeImports", "view");
  return dispatchIntent(request, user, {
    back: PAGE,
    intents: {
      apply: intent({
        permission: ["feeImports", "create"],
        run: ({ user: admin, form }) => {
          const token = String(form.get("token") ?? "");
          try {
            const applied = applyStatement(admin.id, token);
            const lines = applied.rows === 1 ? "1 linha aplicada" : `${applied.rows} linhas aplicadas`;
            return redirectWithToast(PAGE, { type: "success", message: IMPORT_MESSAGES.success, description: `${lines}: ${formatBRL(applied.totalCents)}.` });
          } catch (error) {
            if (!(error instanceof FeeStatementError)) throw error;
            const back = /^[0-9a-f]{32}$/.test(token) ? `${PAGE}?preview=${token}` : PAGE;
            return redirectWithToast(back, { type: "error", message: IMPORT_MESSAGES.failure, description: error.message });
          }
        },
        success: IMPORT_MESSAGES.success,
      }),
      discard: intent({
        permission: ["feeImports", "create"],
        run: ({ form }) => discardPending(String(form.get("token") ?? "")),
        success: { type: "info", message: "Pré-visualização descartada." },
      }),
    },
  });
}

type LoaderData = Route.ComponentProps["loaderData"];
type Preview = NonNullable<LoaderData["preview"]>;

function PreviewSection({ preview }: { preview: Preview }) {
  if (preview.status === "expired") {
    return (
      <Alert variant="warning">
        <AlertDescription>{IMPORT_MESSAGES.expired}</AlertDescription>
      </Alert>
    );
  }
  const blocked = preview.status === "duplicate" || Boolean(preview.fatal) || preview.errorCount > 0;
  return (
    <section aria-labelledby="preview-title" className="space-y-3 rounded-lg border p-4">
      <h2 id="preview-title" className="text-base font-semibold">
        Pré-visualização: {preview.originalName}
      </h2>
      {preview.status === "duplicate" || preview.fatal ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p>{preview.status === "duplicate" ? IMPORT_MESSAGES.duplicate : preview.fatal}</p>
          </AlertDescription>
        </Alert>
      ) : null}
      {preview.errorCount ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p className="font-medium">
              Nada será aplicado: {preview.errorCount === 1 ? "1 linha tem erro" : `${preview.errorCount} linhas têm erro`}. Corrija o arquivo e envie de novo.
            </p>
            <div className="mt-2">
              <ImportLineErrors id="preview-errors" errors={preview.errors.map((error) => ({ line: error.line, messages: [error.message] }))} />
            </div>
          </AlertDescription>
        </Alert>
      ) : null}
      {!preview.fatal ? (
        <p className="text-sm">
          {preview.lineCount} {preview.lineCount === 1 ? "linha lida" : "linhas lidas"}, {formatBRL(preview.totalCents)} em {preview.receivables}{" "}
          {preview.receivables === 1 ? "cirurgia" : "cirurgias"}.
          {preview.lineCount > preview.lines.length ? ` Mostrando as primeiras ${preview.lines.length}.` : ""}
        </p>
      ) : null}
      {preview.lines.length ? (
        <div className="overflow-x-auto rounded-md border">
          <Table>
            <caption className="sr-only">Linhas do demonstrativo e o que acontece com cada uma</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Linha</TableHead>
                <TableHead>Guia</TableHead>
                <TableHead>Paciente</TableHead>
                <TableHead>Código</TableHead>
                <TableHead>Data</TableHead>
                <TableHead className="text-right">Valor</TableHead>
                <TableHead>Pagador</TableHead>
                <TableHead>Resultado</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {preview.lines.map((line) => (
                <TableRow key={line.line}>
                  <TableCell className="tabular-nums">{line.line}</TableCell>
                  <TableCell className="tabular-nums">{line.guide ?? "-"}</TableCell>
                  <TableCell className="whitespace-normal">{line.patient}</TableCell>
                  <TableCell className="tabular-nums">{line.code}</TableCell>
                  <TableCell className="tabular-nums">{formatIsoDate(line.date)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatBRL(line.amountCents)}</TableCell>
                  <TableCell className="whitespace-normal">{line.payer}</TableCell>
                  <TableCell className="whitespace-normal">
                    {line.error ? (
                      <span className="text-destructive">{line.error}</span>
                    ) : line.outcome ? (
                      <span>
                        {LINE_OUTCOME_LABELS[line.outcome]}
                        {line.outcome === "parcial" ? ` (glosa de ${formatBRL(line.differenceCents)})` : null}
                        {line.outcome === "recurso" && line.differenceCents ? ` (perdido: ${formatBRL(line.differenceCents)})` : null}
                        <span className="block text-xs text-muted-foreground">Achada pela {line.matchedBy === "guia" ? "guia" : "paciente, data e pagador"}</span>
                      </span>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {!blocked ? (
          <Form method="post" action={PAGE}>
            <input type="hidden" name="intent" value="apply" />
            <input type="hidden" name="token" value={preview.token} />
            <Button type="submit">Aplicar</Button>
          </Form>
        ) : null}
        <Form method="post" action={PAGE}>
          <input type="hidden" name="intent" value="discard" />
          <input type="hidden" name="token" value={preview.token} />
          <Button type="submit" variant="outline">
            Descartar
          </Button>
        </Form>
      </div>
    </section>
  );
}

function CsvColumns() {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium">Colunas do CSV</summary>
      <p className="mt-2 text-muted-foreground">
        A primeira linha é o cabeçalho. Separador ';' (Excel) ou ','; valores como 1.234,56; datas dd/mm/aaaa. Cada linha é ligada à cirurgia pela
        guia; sem guia, pelo paciente, a data da cirurgia e o pagador. Com uma linha errada, nada é aplicado.
      </p>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {STATEMENT_COLUMNS.map((column) => (
          <div key={column.key} className="contents">
            <dt className="font-medium">{column.header}</dt>
            <dd className="text-muted-foreground">{column.help}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export default function ImportHonorariosPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, preview, canImport, uploadError } = loaderData;
  useToastEffect(actionData && "toast" in actionData ? actionData.toast : undefined);

  return (
    <div className="space-y-6">
      {uploadError ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p>
              {IMPORT_MESSAGES.failure}: {uploadError}
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      {preview ? <PreviewSection preview={preview} /> : null}

      {canImport && !preview ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-base">
                <FileText aria-hidden className="size-5" />
                Enviar demonstrativo (PDF ou imagem)
              </CardTitle>
            </CardHeader>
            <CardContent>
              <StatementUploadForm
                intent="upload"
                label="Arquivo do demonstrativo"
                accept="application/pdf,image/jpeg,image/png,image/webp,image/heic"
                submitLabel="Enviar arquivo"
                hint={`PDF, JPG, PNG, WEBP ou HEIC, até ${STATEMENT_MAX_MB} MB. O arquivo fica guardado e listado abaixo.`}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-base">
                <FileSpreadsheet aria-hidden className="size-5" />
                Importar CSV de honorários
              </CardTitle>
            </CardHeader>
            <CardContent className="space-y-3">
              <StatementUploadForm
                intent="preview"
                label="Arquivo CSV do demonstrativo"
                accept=".csv,text/csv"
                submitLabel="Pré-visualizar"
                hint={`CSV até ${STATEMENT_MAX_MB} MB. Você confere cada linha antes de aplicar.`}
              />
              <CsvColumns />
            </CardContent>
          </Card>
        </div>
      ) : null}

      <DataTable
        caption="Demonstrativos recebidos"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum demonstrativo recebido ainda"
        columns={[
          { key: "uploadedAt", header: "Enviado em", sortKey: "uploadedAt", className: "whitespace-nowrap tabular-nums", cell: (row) => formatDateTime(row.uploadedAt) },
          { key: "name", header: "Arquivo", className: "font-medium whitespace-normal break-all", cell: (row) => row.originalName },
          { key: "kind", header: "Tipo", cell: (row) => <Badge variant="outline">{IMPORT_KIND_LABELS[row.kind]}</Badge> },
          {
            key: "applied",
            header: "Aplicado",
            className: "whitespace-nowrap tabular-nums",
            cell: (row) => (row.kind === "csv" ? `${row.rowsApplied} ${row.rowsApplied === 1 ? "linha" : "linhas"} · ${formatBRL(row.amountCents)}` : "-"),
          },
          { key: "size", header: "Tamanho", className: "whitespace-nowrap tabular-nums", cell: (row) => formatFileSize(row.sizeBytes) },
          { key: "by", header: "Enviado por", className: "whitespace-normal", cell: (row) => row.uploadedByName ?? "-" },
          {
            key: "actions",
            header: <span className="sr-only">Ações</span>,
            className: "w-px whitespace-nowrap",
            cell: (row) =>
              row.stored ? (
                <ButtonLink to={`${PAGE}/${row.id}/arquivo`} reloadDocument variant="ghost" size="icon" aria-label={`Baixar ${row.originalName}`} title="Baixar">
                  <Download aria-hidden />
                </ButtonLink>
              ) : null,
          },
        ]}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
