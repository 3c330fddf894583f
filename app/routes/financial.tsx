import { Scale, TrendingDown, TrendingUp } from "~/components/icons";
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { ExportLink } from "~/components/export-link";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { StatCard } from "~/components/stat-card";
import { TransactionDialog } from "~/components/transaction-dialog";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { requireFinanceAccess } from "~/.server/finance-access";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatIsoDate, todayIsoInClinic } from "~/lib/dates";
import { TRANSACTION_CATEGORIES, TRANSACTION_TYPE_LABELS, labelFor } from "~/lib/enums";
import { draftFromUrl, listUrl, parseId, parseListState } from "~/lib/list-params";
import { TRANSACTION_LIST } from "~/lib/lists";
import { formatBRL } from "~/lib/money";
import { rightsIn } from "~/lib/permissions";
import { cleanQueryText } from "~/lib/text";
import { useToastEffect } from "~/lib/use-toast-effect";
import { surgeryPickerOptions } from "~/models/task-options.server";
import {
  createTransaction,
  deleteTransaction,
  getTransaction,
  listTransactions,
  transactionSummary,
  updateTransaction,
} from "~/models/transaction.server";
import { transactionSchema } from "~/validation/transaction";
import type { Route } from "./+types/financial";

export const handle = { title: "Financeiro", subtitle: "Receitas, despesas e saldo da clínica" };
export const meta: Route.MetaFunction = () => [{ title: "Financeiro · Sinapse" }];

const NOT_FOUND = "Transação não encontrada.";
const TYPE_FILTER_OPTIONS = [
  { value: "receita", label: "Somente receitas" },
  { value: "despesa", label: "Somente despesas" },
];
const CATEGORY_OPTIONS = [...new Set([...TRANSACTION_CATEGORIES.receita, ...TRANSACTION_CATEGORIES.despesa])]
  .sort((a, b) => a.localeCompare(b, "pt-BR"))
  .map((category) => ({ value: category, label: category }));
const FORM_FIELDS = ["transactionType", "amount", "transactionCategory", "description", "transactionDate", "surgeryId"] as const;

function dialogData(url: URL, editing: ReturnType<typeof getTransaction>) {
  const base: Partial<Record<(typeof FORM_FIELDS)[number], string>> = editing
    ? {
        transactionType: editing.type,
        amount: (editing.amountCents / 100).toFixed(2).replace(".", ","),
        transactionCategory: editing.category,
        description: editing.description ?? "",
        transactionDate: editing.transactionDate,
        surgeryId: editing.surgeryId ? String(editing.surgeryId) : "",
      }
    : { transactionDate: todayIsoInClinic() };
  const defaults = { ...base, ...draftFromUrl(url, FORM_FIELDS) };
  const surgeryQ = cleanQueryText(url.searchParams.get("surgeryQ"));
  return { defaults, surgeryQ, surgeryOptions: surgeryPickerOptions(surgeryQ, parseId(defaults.surgeryId)) };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireFinanceAccess(request);
  const url = routeUrl(request);
  const params = parseListState(url, TRANSACTION_LIST);
  const { dialog, editing, deleting } = resolveDialog(url, user, {
    area: "financial",
    notFoundMessage: NOT_FOUND,
    loadEditing: getTransaction,
    loadDeleting: getTransaction,
  });
  return {
    ...listTransactions(params),
    summary: transactionSummary(params.filters),
    params,
    dialog,
    editing,
    deleting,
    form: dialog === "new" || editing ? dialogData(url, editing) : null,
    closeTo: listUrl(url, TRANSACTION_LIST),
    permissions: rightsIn(user, "financial"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireFinanceAccess(request);
  return dispatchIntent(request, user, {
    back: listUrl(routeUrl(request), TRANSACTION_LIST),
    notFoundMessage: NOT_FOUND,
    intents: crudIntents({
      area: "financial",
      schema: transactionSchema,
      messages: {
        created: "Transaction created successfully",
        updated: "Transaction updated successfully",
        deleted: "Transaction deleted successfully",
        saveFailed: "Failed to save transaction",
        deleteFailed: "Failed to delete transaction",
      },
      create: createTransaction,
      update: updateTransaction,
      remove: deleteTransaction,
    }),
  });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

export default function FinancialPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, editing, deleting, closeTo, form, summary } = loaderData;
  const hrefWith = useHrefWithParams();
  const location = useLocation();
  useToastEffect(actionData?.toast);
  const { filters } = params;

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard title="Total Revenue" value={formatBRL(summary.revenueCents)} icon={TrendingUp} />
        <StatCard title="Total Expenses" value={formatBRL(summary.expensesCents)} icon={TrendingDown} />
        <StatCard title="Balance" value={formatBRL(summary.balanceCents)} icon={Scale} className={summary.balanceCents < 0 ? "text-destructive" : undefined} />
      </div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <FilterBar
          fields={[
            { name: "type", label: "Tipo", all: "Todas as transações", options: TYPE_FILTER_OPTIONS, value: filters.type },
            { name: "category", label: "Categoria", all: "Todas as categorias", options: CATEGORY_OPTIONS, value: filters.category },
            { type: "date", name: "from", label: "De", value: filters.from },
            { type: "date", name: "to", label: "Até", value: filters.to },
          ]}
          keep={keptListParams(params, TRANSACTION_LIST)}
        />
        <div className="flex flex-wrap gap-2">
          <ExportLink listHref={closeTo} />
          {permissions.create ? (
            <ButtonLink to={hrefWith({ dialog: "new", edit: null, delete: null })} preventScrollReset>
              Nova Transação
            </ButtonLink>
          ) : null}
        </div>
      </div>
      <DataTable
        caption="Transações"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="No transactions found"
        keepRows={permissions}
        columns={[
          { key: "transactionDate", header: "Data", sortKey: "transactionDate", className: "whitespace-nowrap", cell: (row: Row) => formatIsoDate(row.transactionDate) },
          {
            key: "type",
            header: "Tipo",
            cell: (row: Row) => <Badge variant={row.type === "receita" ? "success" : "destructive"}>{labelFor(TRANSACTION_TYPE_LABELS, row.type)}</Badge>,
          },
          { key: "category", header: "Categoria", cell: (row: Row) => row.category },
          { key: "description", header: "Descrição", cell: (row: Row) => row.description ?? "-" },
          {
            key: "surgery",
            header: "Cirurgia",
            cell: (row: Row) => (row.surgeryId ? <Link to={`/pipeline/${row.surgeryId}`} className="underline underline-offset-2">Ver cirurgia</Link> : "-"),
          },
          {
            key: "amount",
            header: "Valor",
            className: "whitespace-nowrap text-right tabular-nums",
            cell: (row: Row) => (row.type === "despesa" ? `− ${formatBRL(row.amountCents)}` : formatBRL(row.amountCents)),
          },
          ...actionsColumn<Row>(permissions, hrefWith, (row) => `${row.category} de ${formatIsoDate(row.transactionDate)}`),
        ]}
      />
      {form ? (
        <TransactionDialog
          key={`${editing?.id ?? "new"}:${location.search}`}
          transaction={editing}
          form={form}
          closeTo={closeTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir transação"
          message={
            <>
              Are you sure you want to delete this transaction? <strong>{deleting.category}</strong> de {formatIsoDate(deleting.transactionDate)},{" "}
              {formatBRL(deleting.amountCents)}.
            </>
          }
          id={deleting.id}
          closeTo={closeTo}
          error={deleteErrorOf(actionData)}
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
