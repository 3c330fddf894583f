import { Eye } from "~/components/icons";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { ListToolbar } from "~/components/list-toolbar";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, intent, resolveDialog } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { startOfMonthInClinic, todayIsoInClinic, isoDateInClinic } from "~/lib/dates";
import { formatPhone } from "~/lib/documents";
import { listUrl, parseId, parseListState } from "~/lib/list-params";
import { REFERRER_LIST, type ReferrerFilters } from "~/lib/lists";
import { formatBRL } from "~/lib/money";
import { rightsIn } from "~/lib/permissions";
import { cleanQueryText } from "~/lib/text";
import { hrefWithParams } from "~/lib/url";
import { useToastEffect } from "~/lib/use-toast-effect";
import { patientPickerOptions } from "~/models/picker-options.server";
import { createReferrer, deleteReferrer, getReferrer, linkPatient, listReferrers, referrerView, unlinkPatient, updateReferrer } from "~/models/referrer.server";
import { ReferralsDialog, ReferrerDialog } from "~/components/referrer-dialogs";
import { referralSchema, referrerSchema } from "~/validation/referrer";
import type { Route } from "./+types/referrers";

export const handle = { title: "Encaminhadores", subtitle: "Quem encaminha pacientes, e a comissão sobre cirurgias pagas" };
export const meta: Route.MetaFunction = () => [{ title: "Encaminhadores · Sinapse" }];

const NOT_FOUND = "Encaminhador não encontrado.";

/** The commission period from `?from=&to=` (dates, `to` inclusive, from the list's filters); this month by default. */
function periodOf({ from, to }: ReferrerFilters) {
  const today = todayIsoInClinic();
  const fromIso = from ?? isoDateInClinic(startOfMonthInClinic())!;
  const toIso = to && to >= fromIso ? to : today >= fromIso ? today : fromIso;
  return { fromIso, toIso };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "referrers", "view");
  const url = routeUrl(request);
  const params = parseListState(url, REFERRER_LIST);
  const { fromIso, toIso } = periodOf(params.filters);
  const { dialog, editing, deleting } = resolveDialog(url, user, {
    area: "referrers",
    notFoundMessage: NOT_FOUND,
    loadEditing: getReferrer,
    loadDeleting: (id) => {
      const referrer = getReferrer(id);
      return referrer && { id: referrer.id, name: referrer.name };
    },
  });
  let viewing = null;
  if (url.searchParams.has("view")) {
    const patientQ = cleanQueryText(url.searchParams.get("patientQ"));
    const referredQ = cleanQueryText(url.searchParams.get("referredQ"));
    const { referrer, ...referred } = referrerView(parseId(url.searchParams.get("view")) ?? notFound(NOT_FOUND), {
      q: referredQ,
      before: parseId(url.searchParams.get("referredBefore")),
      after: parseId(url.searchParams.get("referredAfter")),
    });
    if (!referrer) notFound(NOT_FOUND);
    viewing = { id: referrer.id, name: referrer.name, ...referred, referredQ, patientQ, patientOptions: patientPickerOptions(patientQ, null) };
  }
  return {
    ...listReferrers(params, { fromIso, toIso }),
    params,
    fromIso,
    toIso,
    dialog,
    editing,
    deleting,
    viewing,
    closeTo: listUrl(url, REFERRER_LIST),
    permissions: rightsIn(user, "referrers"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "referrers", "view");
  const url = routeUrl(request);
  const back = listUrl(url, REFERRER_LIST);
  const viewBack = ({ id }: { id: number }) => hrefWithParams(back, { view: id });
  return dispatchIntent(request, user, {
    back,
    notFoundMessage: NOT_FOUND,
    intents: {
      ...crudIntents({
        area: "referrers",
        schema: referrerSchema,
        messages: {
          created: "Encaminhador criado",
          updated: "Encaminhador atualizado",
          deleted: "Encaminhador excluído",
          saveFailed: "Erro ao salvar encaminhador",
          deleteFailed: "Erro ao excluir encaminhador",
        },
        create: createReferrer,
        update: updateReferrer,
        remove: deleteReferrer,
      }),
      "link-patient": intent({
        permission: ["referrers", "edit"],
        schema: referralSchema,
        record: true,
        run: ({ user, id, input }) => linkPatient(user.id, id, input.patientId),
        success: "Paciente vinculado ao encaminhador",
        failure: "Erro ao salvar encaminhador",
        back: viewBack,
      }),
      "unlink-patient": intent({
        permission: ["referrers", "edit"],
        schema: referralSchema,
        record: true,
        run: ({ user, id, input }) => unlinkPatient(user.id, id, input.patientId),
        success: "Vínculo removido",
        failure: "Erro ao salvar encaminhador",
        back: viewBack,
      }),
    },
  });
}

type LoaderData = Route.ComponentProps["loaderData"];
type Row = LoaderData["rows"][number];

export default function ReferrersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, dialog, editing, deleting, viewing, closeTo, fromIso, toIso } = loaderData;
  const hrefWith = useHrefWithParams();
  useToastEffect(actionData?.toast);

  return (
    <div className="space-y-4">
      <ListToolbar
        search={{ placeholder: "Buscar por nome, especialidade, CRM ou e-mail...", label: "Buscar encaminhadores" }}
        listHref={closeTo}
        canExport={false}
        create={permissions.create ? { label: "Novo Encaminhador", href: hrefWith({ dialog: "new", edit: null, delete: null, view: null }) } : null}
      />
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Período da comissão">
        {params.q ? <input type="hidden" name="q" value={params.q} /> : null}
        <div className="space-y-1">
          <Label htmlFor="period-from">Cirurgias pagas de</Label>
          <Input id="period-from" type="date" name="from" defaultValue={fromIso} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="period-to">até</Label>
          <Input id="period-to" type="date" name="to" defaultValue={toIso} />
        </div>
        <Button type="submit" variant="outline">
          Aplicar período
        </Button>
      </Form>
      <DataTable
        caption="Encaminhadores"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum encaminhador encontrado"
        keepRows={permissions}
        columns={[
          {
            key: "name",
            header: "Nome",
            sortKey: "name",
            className: "font-medium",
            cell: (row: Row) => (
              <Link to={hrefWith({ view: row.id, dialog: null, edit: null, delete: null })} preventScrollReset className="inline-flex items-center gap-1 underline-offset-4 hover:underline">
                <Eye aria-hidden className="size-4" />
                {row.name}
              </Link>
            ),
          },
          { key: "specialty", header: "Especialidade", cell: (row: Row) => row.specialty ?? "-" },
          { key: "crm", header: "CRM", className: "whitespace-nowrap", cell: (row: Row) => (row.crm ? (row.crmUf ? `CRM/${row.crmUf} ${row.crm}` : row.crm) : "-") },
          { key: "phone", header: "Telefone", className: "whitespace-nowrap", cell: (row: Row) => (row.phone ? formatPhone(row.phone) : "-") },
          { key: "patients", header: "Pacientes", className: "text-right", cell: (row: Row) => row.patients },
          { key: "surgeries", header: "Cirurgias", className: "text-right", cell: (row: Row) => row.surgeries },
          { key: "rate", header: "Comissão", className: "text-right", cell: (row: Row) => `${Math.round(row.commissionRate * 100)}%` },
          {
            key: "owed",
            header: "Comissão no período",
            className: "text-right whitespace-nowrap",
            cell: (row: Row) => (
              <span title={`${row.paidSurgeries} cirurgia(s) paga(s), ${formatBRL(row.paidCents)}`}>{formatBRL(row.commissionCents)}</span>
            ),
          },
          { key: "active", header: "Status", cell: (row: Row) => <Badge variant={row.active ? "success" : "secondary"}>{row.active ? "Ativo" : "Inativo"}</Badge> },
          ...actionsColumn<Row>(permissions, hrefWith, (row) => row.name),
        ]}
      />
      {viewing ? <ReferralsDialog viewing={viewing} canEdit={permissions.edit} closeTo={closeTo} /> : null}
      {dialog === "new" || editing ? (
        <ReferrerDialog
          key={editing?.id ?? "new"}
          referrer={editing}
          closeTo={closeTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir encaminhador"
          message={
            <>
              Tem certeza que deseja excluir o encaminhador <strong>{deleting.name}</strong>? Os pacientes continuam cadastrados; só o vínculo é removido.
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
