import { Pencil, Plus, Trash2 } from "lucide-react";
import { Form, useLocation, useSubmit } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DataTable, SearchForm } from "~/components/data-table";
import { AppointmentDialog, STATUS_OPTIONS } from "~/components/appointment-dialog";
import { RouteErrorBoundary } from "~/components/route-error";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { requirePermission } from "~/.server/auth";
import { crudAction, resolveDialog } from "~/.server/crud-action";
import { formatAppointmentDate, formatTime, toDateTimeLocalValue } from "~/lib/dates";
import {
  APPOINTMENT_STATUSES,
  APPOINTMENT_STATUS_LABELS,
  type AppointmentStatus,
  isOneOf,
  labelFor,
} from "~/lib/enums";
import { draftFromUrl, safeReturnTo, listUrl, parseId, parseListParams } from "~/lib/list-params";
import { rightsIn } from "~/lib/permissions";
import { type ParamChanges, pathWithParams } from "~/lib/url";
import { useToastEffect } from "~/lib/use-toast-effect";
import {
  APPOINTMENT_SORTS,
  createAppointment,
  deleteAppointment,
  describeSlot,
  getAppointment,
  getAppointmentSummary,
  listAppointments,
  updateAppointment,
} from "~/models/appointment.server";
import { getDoctorOption, searchDoctorOptions } from "~/models/doctor-options.server";
import { doctorPickerOptions, patientPickerOptions, withSelected } from "~/models/picker-options.server";
import { appointmentSchema } from "~/validation/appointment";
import type { Route } from "./+types/appointments";

export const handle = { title: "Consultas", subtitle: "Agenda de consultas dos pacientes" };
export const meta: Route.MetaFunction = () => [{ title: "Consultas · Sinapse" }];

/** The dialog's fields, as they travel in the URL when a picker's 'Buscar' resubmits it without JavaScript. */
const FORM_FIELDS = ["patientId", "doctorId", "startTime", "endTime", "type", "location", "status", "notes"] as const;
type FormValues = Partial<Record<(typeof FORM_FIELDS)[number], string>>;

/** List filters besides search, page and sort. */
const FILTER_PARAMS = ["status", "doctor"] as const;

const STATUS_BADGES: Record<AppointmentStatus, BadgeVariant> = {
  scheduled: "info",
  confirmed: "success",
  completed: "secondary",
  cancelled: "destructive",
};

/**
 * The URL of the list behind the page. When a picker resubmitted the dialog as a GET, `status` is
 * the form's field, and the list's own status filter travelled as `listStatus`.
 */
function listStateUrl(url: URL): URL {
  if (!url.searchParams.has("picker")) return url;
  const list = new URL(url);
  const filter = url.searchParams.get("listStatus");
  if (filter) list.searchParams.set("status", filter);
  else list.searchParams.delete("status");
  return list;
}

function parseFilters(url: URL) {
  const status = url.searchParams.get("status");
  return {
    status: isOneOf(APPOINTMENT_STATUSES, status) ? status : null,
    doctorId: parseId(url.searchParams.get("doctor")),
  };
}

function searchParamText(url: URL, name: string) {
  return (url.searchParams.get(name) ?? "").trim().slice(0, 100);
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "appointments", "view");
  const url = new URL(request.url);
  const list = listStateUrl(url);
  const params = parseListParams(list, APPOINTMENT_SORTS, { sort: "startTime", dir: "desc" });
  const filters = parseFilters(list);

  const { dialog, editing, deleting } = await resolveDialog(request, {
    area: "appointments",
    notFoundMessage: "Consulta não encontrada.",
    loadEditing: getAppointment,
    loadDeleting: (id) => {
      const summary = getAppointmentSummary(id);
      return summary && { ...summary, slot: describeSlot(summary.startTime, summary.endTime) };
    },
  });

  let form = null;
  if (dialog === "new" || editing) {
    const values: FormValues =
      draftFromUrl(url, FORM_FIELDS) ??
      (editing
        ? {
            patientId: String(editing.patientId),
            doctorId: String(editing.doctorId),
            startTime: toDateTimeLocalValue(editing.startTime),
            endTime: toDateTimeLocalValue(editing.endTime),
            type: editing.type,
            location: editing.location ?? "",
            status: editing.status,
            notes: editing.notes ?? "",
          }
        : { status: "scheduled" });
    const patientQ = searchParamText(url, "patientQ");
    const doctorQ = searchParamText(url, "doctorQ");
    form = {
      values,
      patientQ,
      doctorQ,
      patients: patientPickerOptions(patientQ, parseId(values.patientId)),
      doctors: doctorPickerOptions(doctorQ, parseId(values.doctorId)),
    };
  }

  return {
    ...listAppointments(params, filters),
    params,
    filters,
    doctorFilterOptions: withSelected(searchDoctorOptions("", 200), filters.doctorId, getDoctorOption),
    dialog,
    editing: editing ? { id: editing.id } : null,
    deleting,
    form,
    listHref: listUrl(list, FILTER_PARAMS),
    // Opened from the schedule: closing or saving goes back there.
    returnTo: safeReturnTo(url.searchParams.get("returnTo")),
    closeTo: safeReturnTo(url.searchParams.get("returnTo")) ?? listUrl(list, FILTER_PARAMS),
    permissions: rightsIn(user, "appointments"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requirePermission(request, "appointments", "view");
  const formData = await request.formData();
  return crudAction(request, formData, {
    area: "appointments",
    schema: appointmentSchema,
    back:
      safeReturnTo(new URL(request.url).searchParams.get("returnTo")) ??
      listUrl(listStateUrl(new URL(request.url)), FILTER_PARAMS),
    notFoundMessage: "Consulta não encontrada.",
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
  const showActions = permissions.edit || permissions.delete;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchForm
          placeholder="Buscar por paciente, médico, tipo ou local..."
          label="Buscar consultas"
          className="w-full max-w-md"
        />
        {permissions.create ? (
          <ButtonLink to={hrefWith({ dialog: "new", edit: null, delete: null })} preventScrollReset>
            <Plus aria-hidden />
            Nova Consulta
          </ButtonLink>
        ) : null}
      </div>

      <FilterForm loaderData={loaderData} />

      <DataTable
        caption="Consultas"
        rows={rows}
        total={total}
        page={params.page}
        pageSize={pageSize}
        getRowKey={(row) => row.id}
        emptyText="No appointments found"
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
          { key: "patient", header: "Paciente", className: "font-medium", cell: (row) => row.patientName },
          { key: "doctor", header: "Médico", cell: (row) => row.doctorName },
          { key: "type", header: "Tipo", cell: (row) => row.type },
          { key: "location", header: "Local", cell: (row) => row.location || "-" },
          {
            key: "status",
            header: "Status",
            cell: (row) => (
              <Badge variant={STATUS_BADGES[row.status] ?? "outline"}>{labelFor(APPOINTMENT_STATUS_LABELS, row.status)}</Badge>
            ),
          },
          ...(showActions
            ? [
                {
                  key: "actions",
                  header: "Ações",
                  className: "w-24 text-right",
                  cell: (row: Row) => (
                    <div className="flex justify-end gap-1">
                      {permissions.edit ? (
                        <ButtonLink
                          to={hrefWith({ edit: row.id, dialog: null, delete: null })}
                          variant="ghost"
                          size="icon"
                          aria-label={`Editar consulta de ${row.patientName}`}
                          preventScrollReset
                        >
                          <Pencil aria-hidden />
                        </ButtonLink>
                      ) : null}
                      {permissions.delete ? (
                        <ButtonLink
                          to={hrefWith({ delete: row.id, dialog: null, edit: null })}
                          variant="ghost"
                          size="icon"
                          aria-label={`Excluir consulta de ${row.patientName}`}
                          preventScrollReset
                        >
                          <Trash2 aria-hidden className="text-destructive" />
                        </ButtonLink>
                      ) : null}
                    </div>
                  ),
                },
              ]
            : []),
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
        <ConfirmDialog
          title="Excluir consulta"
          message={
            <>
              Are you sure you want to delete this appointment? A consulta de <strong>{deleting.patientName}</strong> com{" "}
              {deleting.doctorName} {deleting.slot} será removida permanentemente.
            </>
          }
          fields={{ intent: "delete", id: deleting.id }}
          closeTo={closeTo}
        />
      ) : null}
    </div>
  );
}

/** Status and doctor filters: a GET form (works without JavaScript; with it, a change applies at once). */
function FilterForm({ loaderData }: { loaderData: LoaderData }) {
  const { params, filters, doctorFilterOptions } = loaderData;
  const submit = useSubmit();
  const location = useLocation();
  return (
    <Form
      method="get"
      action={location.pathname}
      preventScrollReset
      className="flex flex-wrap items-end gap-3"
      aria-label="Filtrar consultas"
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
    >
      {params.q ? <input type="hidden" name="q" value={params.q} /> : null}
      {/* The default order needs no parameter; an explicit one is kept. */}
      {params.sort !== "startTime" || params.dir !== "desc" ? (
        <>
          <input type="hidden" name="sort" value={params.sort} />
          <input type="hidden" name="dir" value={params.dir} />
        </>
      ) : null}
      <div className="grid gap-1.5">
        <Label htmlFor="filter-status">Status</Label>
        <Select id="filter-status" name="status" defaultValue={filters.status ?? ""} wrapperClassName="w-44" key={`s${filters.status}`}>
          <option value="">Todos</option>
          {STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="filter-doctor">Médico</Label>
        <Select id="filter-doctor" name="doctor" defaultValue={filters.doctorId ? String(filters.doctorId) : ""} wrapperClassName="w-64" key={`d${filters.doctorId}`}>
          <option value="">Todos</option>
          {doctorFilterOptions.map((doctor) => (
            <option key={doctor.id} value={doctor.id}>
              {doctor.name}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" variant="outline">
        Filtrar
      </Button>
      {filters.status || filters.doctorId ? (
        <ButtonLink to={params.q ? `${location.pathname}?q=${encodeURIComponent(params.q)}` : location.pathname} variant="ghost" preventScrollReset>
          Limpar filtros
        </ButtonLink>
      ) : null}
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
