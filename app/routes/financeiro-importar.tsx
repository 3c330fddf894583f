import { StatementPreview } from "~/components/financeiro/statement-preview";
import { StatementUploads } from "~/components/financeiro/statement-uploads";
import { RouteErrorBoundary } from "~/components/route-error";
import { StoredFilesTable } from "~/components/stored-files-table";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { assertCan, requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { redirectWithToast } from "~/.server/toast";
import { FEE_IMPORT_LIST, IMPORT_KIND_LABELS, IMPORT_MESSAGES, UPLOAD_ERROR_MESSAGES, type UploadErrorCode } from "~/lib/fee-statement";
import { listUrl, parseListState } from "~/lib/list-params";
import { formatBRL } from "~/lib/money";
import { can } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { FeeStatementError, applyStatement, discardPending, listImports, statementPreview } from "~/models/fee-statement.server";
import type { Route } from "./+types/financeiro-importar";

export const handle = { title: "Importar Honorários", subtitle: "Demonstrativos de pagamento dos convênios" };
export const meta: Route.MetaFunction = () => [{ title: "Importar Honorários · Sinapse" }];

const PAGE = "/financeiro/importar-honorarios";

/** /financeiro/importar-honorarios: what was received (admins and staff) and, for admins, the uploads and a CSV's preview. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "feeImports", "view");
  const url = routeUrl(request);
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

export default function ImportHonorariosPage({ loaderData, actionData }: Route.ComponentProps) {
  const { params, preview, canImport, uploadError } = loaderData;
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
      {preview ? <StatementPreview preview={preview} action={PAGE} /> : null}

      {canImport && !preview ? <StatementUploads /> : null}

      <StoredFilesTable
        caption="Demonstrativos recebidos"
        list={loaderData}
        sort={{ key: params.sort, dir: params.dir }}
        emptyText="Nenhum demonstrativo recebido ainda"
        keepRows={null}
        file={(row) => ({ name: row.originalName, uploadedAt: row.uploadedAt, sizeBytes: row.sizeBytes, downloadHref: row.stored ? `${PAGE}/${row.id}/arquivo` : null })}
        columns={[
          { key: "kind", header: "Tipo", cell: (row) => <Badge variant="outline">{IMPORT_KIND_LABELS[row.kind]}</Badge> },
          {
            key: "applied",
            header: "Aplicado",
            className: "whitespace-nowrap tabular-nums",
            cell: (row) => (row.kind === "csv" ? `${row.rowsApplied} ${row.rowsApplied === 1 ? "linha" : "linhas"} · ${formatBRL(row.amountCents)}` : "-"),
          },
        ]}
        trailing={[{ key: "by", header: "Enviado por", className: "whitespace-normal", cell: (row) => row.uploadedByName ?? "-" }]}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
