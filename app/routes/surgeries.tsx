import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { ListToolbar } from "~/components/list-toolbar";
import { PatientLink } from "~/components/patient-link";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { STAGE_OPTIONS, STATUS_OPTIONS, SurgeryDialog } from "~/components/surgery-dialog";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { SURGERY_STATUS_LABELS, type SurgeryStatus, labelFor } from "~/lib/enums";
import { listUrl, parseListState } from "~/lib/list-params";
import { SURGERY_LIST } from "~/lib/lists";
import { can, rightsIn } from "~/lib/permissions";
import { stageLabel } from "~/lib/pipeline";
import { useToastEffect } from "~/lib/use-toast-effect";
import { listDoctorFilterOptions } from "~/models/doctor-options.server";
import { optionsOf } from "~/models/filter-options.server";
import {
  createSurgery,
  deleteSurgery,
  getSurgery,
  listStageHistory,
  listSurgeries,
  surgeryDeleteBlock,
  surgeryDialogData,
  updateSurgery,
} from "~/models/surgery.server";
import { surgerySchema } from "~/validation/surgery";
import type { Route } from "./+types/surgeries";
import { registryOption } from "~/lib/form-options";

export const handle = { title: "Cirurgias", subtitle: "Agenda cirúrgica, autorizações e faturamento" };
export const meta: Route.MetaFunction = () => [{ title: "Cirurgias · Sinapse" }];

const STATUS_BADGES: Record<SurgeryStatus, BadgeVariant> = {
  scheduled: "info",
  completed: "success",
  cancelled: "destructive",
};

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "surgeries", "view");
  const url = routeUrl(request);
  const { filters, ...params } = parseListState(url, SURGERY_LIST);
  const { dialog, editing, deleting } = resolveDialog(url, user, {
    area: "surgeries",
    notFoundMessage: "Cirurgia não encontrada.",
    loadEditing: getSurgery,
    loadDeleting: (id) => {
      const surgery = getSurgery(id);
      return (
        surgery && {
          id: surgery.id,
          patientName: surgery.patientName,
          surgeryType: surgery.surgeryType,
          scheduledDate: surgery.scheduledDate,
          refusal: surgeryDeleteBlock(surgery.id),
        }
      );
    },
  });

  return {
    ...listSurgeries(params, filters),
    params,
    filters,
    doctorFilterOptions: optionsOf(listDoctorFilterOptions(), registryOption),
    dialog,
    editing,
    history: editing ? listStageHistory(editing.id) : [],
    form: dialog === "new" || editing ? surgeryDialogData(url, editing) : null,
    deleting,
    closeTo: listUrl(url, SURGERY_LIST),
    permissions: rightsIn(user, "surgeries"),
    canExport: can(user, "surgeries", "export"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "surgeries", "view");
  return dispatchIntent(request, user, {
    back: listUrl(routeUrl(request), SURGERY_LIST),
    notFoundMessage: "Cirurgia não encontrada.",
    intents: crudIntents({
      area: "surgeries",
      schema: surgerySchema,
      messages: {
        created: "Surgery created successfully",
        updated: "Surgery updated successfully",
        deleted: "Surgery deleted successfully",
        saveFailed: "Failed to save surgery",
        deleteFailed: "Failed to delete surgery",
      },
      create: createSurgery,
      update: updateSurgery,
      remove: deleteSurgery,
    }),
  });
}

type LoaderData = Route.ComponentProps["loaderData"];
type Row = LoaderData["rows"][number];

export default function SurgeriesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, filters, permissions, dialog, editing, history, form, deleting, closeTo } = loaderData;
  const hrefWith = useHrefWithParams();
  const location = useLocation();
  useToastEffect(actionData?.toast);
  const describe = (row: { surgeryType: string; patientName: string }) => `${row.surgeryType} de ${row.patientName}`;

  return (
    <div className="space-y-4">
      <ListToolbar
        search={{ placeholder: "Buscar por paciente, médico, cirurgia, hospital, pagador ou guia...", label: "Buscar cirurgias" }}
        listHref={closeTo}
        canExport={loaderData.canExport}
        create={permissions.create ? { label: "Nova Cirurgia", href: hrefWith({ dialog: "new", edit: null, delete: null }) } : null}
      />

      <FilterBar
        keep={keptListParams(params, SURGERY_LIST)}
        fields={[
          { name: "status", label: "Status", all: "Todos os status", options: STATUS_OPTIONS, value: filters.status, width: "w-48" },
          { name: "stage", label: "Etapa", all: "Todas as etapas", options: STAGE_OPTIONS, value: filters.stage, width: "w-48" },
          { name: "doctor", label: "Médico", all: "Todos os médicos", options: loaderData.doctorFilterOptions, value: filters.doctorId, width: "w-48" },
        ]}
      />

      <DataTable
        caption="Cirurgias"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="No surgeries scheduled"
        // The cells read their row, the URL and the rights behind the actions column.
        keepRows={permissions}
        columns={[
          // Names wrap, so eight columns and the actions fit a 1366-pixel laptop without scrolling.
          { key: "patient", header: "Paciente", className: "font-medium whitespace-normal", cell: (row) => <PatientLink id={row.patientId} name={row.patientName} /> },
          { key: "doctor", header: "Médico", className: "whitespace-normal", cell: (row) => row.doctorName },
          { key: "type", header: "Cirurgia", className: "whitespace-normal", cell: (row) => row.surgeryType },
          {
            key: "date",
            header: "Data",
            sortKey: "scheduledDate",
            className: "whitespace-nowrap tabular-nums",
            cell: (row) => formatDateTime(row.scheduledDate),
          },
          {
            key: "status",
            header: "Status",
            cell: (row) => (
              <Badge variant={STATUS_BADGES[row.status as SurgeryStatus] ?? "secondary"}>
                {labelFor(SURGERY_STATUS_LABELS, row.status)}
              </Badge>
            ),
          },
          { key: "hospital", header: "Hospital", className: "whitespace-normal", cell: (row) => row.hospital || "-" },
          { key: "payer", header: "Pagador", className: "whitespace-normal", cell: (row) => row.payerName || "-" },
          {
            key: "stage",
            header: "Etapa",
            className: "whitespace-nowrap",
            cell: (row) => <Badge variant="outline">{stageLabel(row.currentStage)}</Badge>,
          },
          {
            key: "fees",
            header: "Honorários",
            className: "whitespace-nowrap",
            cell: (row) => (
              <Link to={`/surgeries/${row.id}/honorarios`} className="underline underline-offset-2" aria-label={`Honorários de ${describe(row)}`}>
                Honorários
              </Link>
            ),
          },
          ...actionsColumn<Row>(permissions, hrefWith, describe),
        ]}
      />

      {(dialog === "new" || editing) && form ? (
        <SurgeryDialog
          // A picker's 'Buscar' reloads the page with new options and the typed values: start afresh.
          key={`${editing?.id ?? "new"}:${location.search}`}
          surgery={editing}
          history={history}
          form={form}
          closeTo={closeTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir cirurgia"
          message={
            <>
              Are you sure you want to delete this surgery? <strong>{describe(deleting)}</strong> em{" "}
              {formatDateTime(deleting.scheduledDate)} será removida permanentemente, com o histórico de etapas.
            </>
          }
          id={deleting.id}
          closeTo={closeTo}
          error={deleteErrorOf(actionData)}
          refusal={deleting.refusal}
          refusalActions={
            permissions.edit ? (
              <ButtonLink to={hrefWith({ edit: deleting.id, delete: null, dialog: null })} preventScrollReset>
                Editar cirurgia
              </ButtonLink>
            ) : null
          }
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
