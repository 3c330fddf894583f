import { Link } from "~/components/ui/link";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { ListToolbar } from "~/components/list-toolbar";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatPhone } from "~/lib/documents";
import { listUrl, parseListState } from "~/lib/list-params";
import { DOCTOR_LIST } from "~/lib/lists";
import { can, rightsIn } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { createDoctor, deleteDoctor, doctorDeleteBlock, getDoctor, listDoctors, updateDoctor } from "~/models/doctor.server";
import { DoctorDialog } from "~/components/doctor-dialog";
import { formatCommission, formatCrm } from "~/lib/documents";
import { doctorSchema } from "~/validation/doctor";
import type { Route } from "./+types/doctors";

export const handle = { title: "Médicos", subtitle: "Corpo clínico, CRM e comissões" };
export const meta: Route.MetaFunction = () => [{ title: "Médicos · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "doctors", "view");
  const url = routeUrl(request);
  const params = parseListState(url, DOCTOR_LIST);
  const { dialog, editing, deleting } = resolveDialog(url, user, {
    area: "doctors",
    notFoundMessage: "Médico não encontrado.",
    loadEditing: getDoctor,
    loadDeleting: (id) => {
      const doctor = getDoctor(id);
      return doctor && { id: doctor.id, name: doctor.name, refusal: doctorDeleteBlock(doctor) };
    },
  });
  return {
    ...listDoctors(params),
    params,
    dialog,
    editing,
    deleting,
    closeTo: listUrl(url),
    permissions: rightsIn(user, "doctors"),
    canExport: can(user, "doctors", "export"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "doctors", "view");
  return dispatchIntent(request, user, {
    back: listUrl(routeUrl(request)),
    notFoundMessage: "Médico não encontrado.",
    intents: crudIntents({
      area: "doctors",
      schema: doctorSchema,
      messages: {
        created: "Doctor created successfully",
        updated: "Doctor updated successfully",
        deleted: "Doctor deleted successfully",
        saveFailed: "Failed to save doctor",
        deleteFailed: "Failed to delete doctor",
      },
      create: createDoctor,
      update: updateDoctor,
      remove: deleteDoctor,
    }),
  });
}

type LoaderData = Route.ComponentProps["loaderData"];
type Row = LoaderData["rows"][number];

export default function DoctorsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, dialog, editing, deleting, closeTo } = loaderData;
  const hrefWith = useHrefWithParams();
  useToastEffect(actionData?.toast);
  const editHref = deleting ? hrefWith({ edit: deleting.id, delete: null, dialog: null }) : "";

  return (
    <div className="space-y-4">
      <ListToolbar
        search={{ placeholder: "Nome, especialidade, CRM ou e-mail...", label: "Buscar médicos" }}
        listHref={closeTo}
        canExport={loaderData.canExport}
        create={permissions.create ? { label: "Novo Médico", href: hrefWith({ dialog: "new", edit: null, delete: null }) } : null}
      />

      <DataTable
        caption="Médicos"
        rows={rows}
        total={total}
        page={params.page}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="No doctors found"
        keepRows={permissions}
        columns={[
          { key: "name", header: "Nome", sortKey: "name", className: "font-medium", cell: (row) => row.name },
          { key: "specialty", header: "Especialidade", sortKey: "specialty", cell: (row) => row.specialty },
          { key: "crm", header: "CRM", className: "whitespace-nowrap", cell: (row) => formatCrm(row.crm, row.crmUf) },
          {
            key: "phone",
            header: "Telefone",
            className: "whitespace-nowrap",
            cell: (row) => (row.phone ? formatPhone(row.phone) : "-"),
          },
          { key: "email", header: "E-mail", cell: (row) => row.email || "-" },
          {
            key: "commission",
            header: "Comissão",
            className: "text-right tabular-nums",
            cell: (row) => formatCommission(row.commissionRate),
          },
          {
            key: "status",
            header: "Status",
            cell: (row) => (row.active ? <Badge variant="success">Ativo</Badge> : <Badge variant="secondary">Inativo</Badge>),
          },
          ...actionsColumn<Row>(permissions, hrefWith, (row) => row.name),
        ]}
      />

      {dialog === "new" || editing ? (
        <DoctorDialog
          key={editing?.id ?? "new"}
          doctor={editing}
          closeTo={closeTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir médico"
          message={
            <>
              Are you sure you want to delete this doctor? <strong>{deleting.name}</strong> será removido
              permanentemente.
            </>
          }
          id={deleting.id}
          closeTo={closeTo}
          error={deleteErrorOf(actionData)}
          errorAction={
            <Link to={editHref} className="underline">
              Editar médico
            </Link>
          }
          refusal={deleting.refusal}
          refusalNote="Um médico inativo continua no histórico, mas deixa de aparecer na escolha de novas consultas e cirurgias."
          refusalActions={
            <ButtonLink to={editHref} preventScrollReset>
              Editar e marcar como inativo
            </ButtonLink>
          }
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
