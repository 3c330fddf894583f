import { useLocation } from "react-router";
import { DataTable } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { AppointmentDialog, STATUS_OPTIONS } from "~/components/appointment-dialog";
import { ListToolbar } from "~/components/list-toolbar";
import { PatientLink } from "~/components/patient-link";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { AppointmentStatusBadge } from "~/components/appointments/appointment-status-badge";
import { requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatAppointmentDate, formatTime } from "~/lib/dates";
import { listUrl, parseListState, safeReturnTo } from "~/lib/list-params";
import { APPOINTMENT_LIST } from "~/lib/lists";
import { can, rightsIn } from "~/lib/permissions";
import { type ParamChanges, pathWithParams } from "~/lib/url";
import { useToastEffect } from "~/lib/use-toast-effect";
import {
  createAppointment,
  deleteAppointment,
  describeSlot,
  getAppointment,
  getAppointmentSummary,
  listAppointments,
  updateAppointment,
} from "~/models/appointment.server";
import { appointmentDialogData, appointmentListStateUrl } from "~/models/appointment-dialog.server";
import { getDoctorOption, listActiveDoctorOptions } from "~/models/doctor-options.server";
import { optionsOf } from "~/models/filter-options.server";
import { withSelected } from "~/models/picker-options.server";
import { appointmentSchema } from "~/validation/appointment";
import type { Route } from "./+types/appointments";

export const handle = { title: "Consultas", subtitle: "Agenda de consultas dos pacientes" };
export const meta: Route.MetaFunction = () => [{ title: "Consultas · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "appointments", "view");
  const url = routeUrl(request);
  const list = appointmentListStateUrl(url);
  const { filters, ...params } = parseListState(list, APPOINTMENT_LIST);
  const { dialog, editing, deleting } = resolveDialog(url, user, {
    area: "appointments",
    notFoundMessage: "Consulta não encontrada.",
    loadEditing: getAppointment,
    loadDeleting: (id) => {
      const summary = getAppointmentSummary(id);
      return summary && { ...summary, slot: describeSlot(summary.startTime, summary.endTime) };
    },
  });

  const form = dialog === "new" || editing ? appointmentDialogData(url, editing) : null;

  return {
    ...listAppointments(params, filters),
    params,
    filters,
    doctorFilterOptions: optionsOf(withSelected(listActiveDoctorOptions(200), filters.doctorId, getDoctorOption), doctorFilterOption),
    dialog,
    editing: editing ? { id: editing.id } : null,
    deleting,
    form,
    listHref: listUrl(list, APPOINTMENT_LIST),
    // Opened from the schedule: closing or saving goes back there.
    returnTo: safeReturnTo(url.searchParams.get("returnTo")),
    closeTo: safeReturnTo(url.searchParams.get("returnTo")) ?? listUrl(list, APPOINTMENT_LIST),
    permissions: rightsIn(user, "appointments"),
    canExport: can(user, "appointments", "export"),
  };
}

/** An active doctor as the doctor filter's option. */
function doctorFilterOption(doctor: { id: number; name: string }) {
  return { value: String(doctor.id), label: doctor.name };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "appointments", "view");
  const url = routeUrl(request);
  return dispatchIntent(request, user, {
    // Validated before any write: a malformed returnTo falls back to the list.
    back: safeReturnTo(url.searchParams.get("returnTo")) ?? listUrl(appointmentListStateUrl(url), APPOINTMENT_LIST),
    notFoundMessage: "Consulta não encontrada.",
    intents: crudIntents({
      area: "appointments",
      schema: appointmentSchema,
      messages: {
        created: "Appointment created successfully",
        updated: "Appointment updated successfully",
        deleted: "Appointment deleted successfully",
        saveFailed: "Failed to save appointment",
        deleteFailed: "Failed to delete appointment",
      },
      create: createAppointment,
      update: updateAppointment,
      remove: deleteAppointment,
    }),
  });
}

type LoaderData = Route.ComponentProps["loaderData"];
type Row = LoaderData["rows"][number];

export default function AppointmentsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, dialog, editing, deleting, form, closeTo, listHref } = loaderData;
  // Links start from the list's own URL, never from a dialog's fields left in the query string.
  const [listPath, listSearch = ""] = listHref.split("?");
  const hrefWith = (changes: ParamChanges) => pathWithParams(listPath, listSearch, changes);
  const location = useLocation();
  useToastEffect(actionData?.toast);

  return (
    <div className="space-y-4">
      <ListToolbar
        search={{ placeholder: "Buscar por paciente, médico, tipo ou local...", label: "Buscar consultas" }}
        listHref={listHref}
        canExport={loaderData.canExport}
        create={permissions.create ? { label: "Nova Consulta", href: hrefWith({ dialog: "new", edit: null, delete: null }) } : null}
      />

      <FilterBar
        label="Filtrar consultas"
        keep={keptListParams(params, APPOINTMENT_LIST)}
        fields={[
          { name: "status", label: "Status", all: "Todos", options: STATUS_OPTIONS, value: loaderData.filters.status },
          {
            name: "doctor",
            label: "Médico",
            all: "Todos",
            options: loaderData.doctorFilterOptions,
            value: loaderData.filters.doctorId,
            width: "w-64",
          },
        ]}
      />

      <DataTable
        caption="Consultas"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="No appointments found"
        // The cells read their row, the URL and the rights behind the actions column.
        keepRows={permissions}
        columns={[
          {
            key: "date",
            header: "Data",
            sortKey: "startTime",
            className: "whitespace-nowrap",
            cell: (row) => formatAppointmentDate(row.startTime),
          },
          {
            key: "time",
            header: "Horário",
            className: "whitespace-nowrap tabular-nums",
            cell: (row) => `${formatTime(row.startTime)}–${formatTime(row.endTime)}`,
          },
          { key: "patient", header: "Paciente", className: "font-medium", cell: (row) => <PatientLink id={row.patientId} name={row.patientName} /> },
          { key: "doctor", header: "Médico", cell: (row) => row.doctorName },
          { key: "type", header: "Tipo", cell: (row) => row.type },
          { key: "location", header: "Local", cell: (row) => row.location || "-" },
          {
            key: "status",
            header: "Status",
            cell: (row) => <AppointmentStatusBadge status={row.status} />,
          },
          ...actionsColumn<Row>(permissions, hrefWith, (row) => `consulta de ${row.patientName}`),
        ]}
      />

      {form && (dialog === "new" || editing) ? (
        <AppointmentDialog
          // A picker's GET round trip changes the search: remount so the new defaults apply.
          key={`${editing?.id ?? "new"}${location.search}`}
          editingId={editing?.id ?? null}
          form={form}
          params={params}
          filters={loaderData.filters}
          closeTo={closeTo}
          returnTo={loaderData.returnTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir consulta"
          message={
            <>
              Are you sure you want to delete this appointment? A consulta de <strong>{deleting.patientName}</strong> com{" "}
              {deleting.doctorName} {deleting.slot} será removida permanentemente.
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
