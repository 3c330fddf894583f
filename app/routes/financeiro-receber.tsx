import { CircleCheck, Eye, FileText, Receipt } from "~/components/icons";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { ListToolbar } from "~/components/list-toolbar";
import { ReceivableDialog } from "~/components/receivable-dialog";
import { RouteErrorBoundary } from "~/components/route-error";
import { StatCard } from "~/components/stat-card";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { formatDate } from "~/lib/dates";
import { enumOptions, labelFor } from "~/lib/enums";
import { listUrl, parseDialog, parseId, parseListState } from "~/lib/list-params";
import { formatBRL } from "~/lib/money";
import { can, rightsIn } from "~/lib/permissions";
import { RECEIVABLE_LIST, RECEIVABLE_STATUSES, RECEIVABLE_STATUS_LABELS } from "~/lib/receivables";
import { useToastEffect } from "~/lib/use-toast-effect";
import { receivableBadge } from "~/components/receivable-badge";
import {
  feeLinesOf,
  getReceivable,
  listReceivables,
  receivableHistory,
  receivableIntents,
  receivableMoney,
  receivableRemoveBlock,
  receivableScope,
  receivableSummary,
} from "~/models/receivable.server";
import { listPayerOptions } from "~/models/surgery.server";
import { payerLoteCount } from "~/models/tiss-honorarios.server";
import type { Route } from "./+types/financeiro-receber";
import { registryOption } from "~/lib/form-options";
import { optionsOf } from "~/models/filter-options.server";

export const handle = { title: "Cirurgias a Receber", subtitle: "Faturamento, glosas e pagamentos das cirurgias realizadas" };
export const meta: Route.MetaFunction = () => [{ title: "Cirurgias a Receber · Sinapse" }];

const NOT_FOUND = "Recebível não encontrado.";
const STATUS_OPTIONS = enumOptions(RECEIVABLE_STATUSES, RECEIVABLE_STATUS_LABELS);

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "receivables", "view");
  const url = routeUrl(request);
  const scope = receivableScope(user);
  const { filters, ...params } = parseListState(url, RECEIVABLE_LIST);
  const dialog = parseDialog(url);
  if (dialog === "invalid" || dialog?.mode === "new" || dialog?.mode === "edit") notFound(NOT_FOUND);
  let deleting = null;
  if (dialog?.mode === "delete") {
    if (!can(user, "receivables", "delete")) notFound(NOT_FOUND);
    const row = getReceivable(dialog.id, scope) ?? notFound(NOT_FOUND);
    deleting = { id: row.id, patientName: row.patientName, surgeryType: row.surgeryType, refusal: receivableRemoveBlock(row.status) };
  }
  let viewing = null;
  if (url.searchParams.has("view")) {
    const row = getReceivable(parseId(url.searchParams.get("view")) ?? notFound(NOT_FOUND), scope) ?? notFound(NOT_FOUND);
    viewing = { ...row, history: receivableHistory(row.id), money: receivableMoney(row.id), feeLines: feeLinesOf(row.id), panel: url.searchParams.get("acao") };
  }
  const payers = listPayerOptions();
  return {
    ...listReceivables(params, filters, scope),
    params,
    filters,
    summary: receivableSummary(scope),
    payerOptions: optionsOf(payers, registryOption),
    deleting,
    viewing,
    closeTo: listUrl(url, RECEIVABLE_LIST),
    permissions: rightsIn(user, "receivables"),
    // The payer's billed surgeries as TISS lotes of at most 100 Guias de Honorários (admins, staff).
    tissLotes: filters.payerId !== null && can(user, "tiss", "view") ? payerLoteCount(filters.payerId) : 0,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "receivables", "view");
  const url = routeUrl(request);
  const back = listUrl(url, RECEIVABLE_LIST);
  return dispatchIntent(request, user, {
    back,
    notFoundMessage: NOT_FOUND,
    intents: receivableIntents(back),
  });
}

type LoaderData = Route.ComponentProps["loaderData"];
type Row = LoaderData["rows"][number];

export default function ReceivablesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, filters, summary, permissions, deleting, viewing, closeTo } = loaderData;
  const hrefWith = useHrefWithParams();
  useToastEffect(actionData?.toast);
  const describe = (row: Row) => `${row.surgeryType} de ${row.patientName}`;

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <StatCard title="Realizadas" value={summary.realizadas.toLocaleString("pt-BR")} icon={CircleCheck} description="Cirurgias concluídas a faturar" />
        <StatCard title="Faturadas" value={summary.faturadas.toLocaleString("pt-BR")} icon={Receipt} description="Enviadas ao pagador, aguardando" />
      </div>
      <ListToolbar
        search={{ placeholder: "Buscar por paciente, médico, cirurgia, pagador ou guia...", label: "Buscar cirurgias a receber" }}
        listHref={closeTo}
        canExport={false}
        create={null}
      />
      <FilterBar
        keep={keptListParams(params, RECEIVABLE_LIST)}
        fields={[
          { name: "status", label: "Status", all: "Todos os status", options: STATUS_OPTIONS, value: filters.status, width: "w-44" },
          { name: "payer", label: "Pagador", all: "Todos os pagadores", options: loaderData.payerOptions, value: filters.payerId, width: "w-56" },
        ]}
      />
      {loaderData.tissLotes > 0 ? (
        <nav aria-label="Guias de Honorários TISS" className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground">Guias de Honorários TISS das cirurgias faturadas deste pagador (até 100 por lote):</span>
          {Array.from({ length: loaderData.tissLotes }, (_, i) => (
            <ButtonLink key={i} to={`/financeiro/cirurgias-receber/tiss.xml?payer_id=${filters.payerId}&lote=${i + 1}`} reloadDocument variant="outline" size="sm">
              Baixar lote {i + 1} (XML)
            </ButtonLink>
          ))}
        </nav>
      ) : null}
      <DataTable
        caption="Cirurgias a receber"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhuma cirurgia a receber"
        keepRows={permissions}
        columns={[
          {
            key: "patient",
            header: "Paciente",
            className: "font-medium whitespace-normal",
            cell: (row: Row) => (
              <Link to={hrefWith({ view: row.id, delete: null, acao: null })} preventScrollReset className="inline-flex items-center gap-1 underline-offset-4 hover:underline" aria-label={`Detalhes de ${describe(row)}`}>
                <Eye aria-hidden className="size-4" />
                {row.patientName}
              </Link>
            ),
          },
          { key: "type", header: "Cirurgia", className: "whitespace-normal", cell: (row: Row) => row.surgeryType },
          { key: "doctor", header: "Médico", className: "whitespace-normal", cell: (row: Row) => row.doctorName },
          { key: "date", header: "Data", sortKey: "scheduledDate", className: "whitespace-nowrap tabular-nums", cell: (row: Row) => formatDate(row.scheduledDate) },
          { key: "payer", header: "Pagador", className: "whitespace-normal", cell: (row: Row) => row.payerName || "-" },
          { key: "guide", header: "Guia", className: "whitespace-nowrap", cell: (row: Row) => row.guideNumber || "-" },
          { key: "amount", header: "Valor", className: "text-right whitespace-nowrap tabular-nums", cell: (row: Row) => formatBRL(row.billedAmountCents) },
          { key: "status", header: "Status", cell: (row: Row) => <Badge variant={receivableBadge(row.status)}>{labelFor(RECEIVABLE_STATUS_LABELS, row.status)}</Badge> },
          ...(permissions.edit || permissions.delete
            ? [
                {
                  key: "actions",
                  header: "Ações",
                  className: "text-right whitespace-nowrap",
                  cell: (row: Row) => (
                    <div className="flex justify-end gap-1">
                      {permissions.edit && row.status === "realizado" ? (
                        <Form method="post" preventScrollReset>
                          <input type="hidden" name="intent" value="bill" />
                          <input type="hidden" name="id" value={row.id} />
                          <Button type="submit" variant="outline" size="sm" aria-label={`Marcar como faturado: ${describe(row)}`}>
                            <FileText aria-hidden className="size-4" />
                            Faturar
                          </Button>
                        </Form>
                      ) : null}
                      {permissions.delete ? (
                        <Link
                          to={hrefWith({ delete: row.id, view: null, acao: null })}
                          preventScrollReset
                          className="inline-flex h-8 items-center rounded-md px-2 text-sm text-destructive hover:bg-accent"
                          aria-label={`Excluir ${describe(row)}`}
                        >
                          Excluir
                        </Link>
                      ) : null}
                    </div>
                  ),
                },
              ]
            : []),
        ]}
      />
      {viewing ? <ReceivableDialog viewing={viewing} canEdit={permissions.edit} closeTo={closeTo} actionData={actionData} /> : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir recebível"
          message={
            <>
              Tem certeza que deseja excluir <strong>{deleting.surgeryType}</strong> de <strong>{deleting.patientName}</strong> das cirurgias a
              receber? A cirurgia e o prontuário continuam registrados; ela apenas deixa de ser cobrada.
            </>
          }
          id={deleting.id}
          closeTo={closeTo}
          error={deleteErrorOf(actionData)}
          refusal={deleting.refusal}
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
