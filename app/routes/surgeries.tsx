import { Filter, Pencil, Plus, Trash2, X } from "lucide-react";
import { Form, useLocation, useSearchParams, useSubmit } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DataTable, SearchForm, useHrefWithParams } from "~/components/data-table";
import { DialogFooter, UrlDialog } from "~/components/dialog";
import { RouteErrorBoundary } from "~/components/route-error";
import { FILTER_PARAMS, STAGE_OPTIONS, STATUS_OPTIONS, SurgeryDialog } from "~/components/surgery-dialog";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { requirePermission } from "~/.server/auth";
import { crudAction, resolveDialog } from "~/.server/crud-action";
import { formatDateTime, toDateTimeLocalValue } from "~/lib/dates";
import { SURGERY_STATUS_LABELS, type SurgeryStatus, labelFor } from "~/lib/enums";
import { draftFromUrl, listUrl, parseId, parseListParams } from "~/lib/list-params";
import { centsToReaisInput } from "~/lib/money";
import { rightsIn } from "~/lib/permissions";
import { INITIAL_PIPELINE_STAGE, stageLabel } from "~/lib/pipeline";
import { normalizeSearch } from "~/lib/search";
import { useToastEffect } from "~/lib/use-toast-effect";
import { doctorPickerOptions, patientPickerOptions } from "~/models/picker-options.server";
import {
  SURGERY_SORTS,
  createSurgery,
  deleteSurgery,
  getSurgery,
  listDoctorFilterOptions,
  listHospitalOptions,
  listPayerOptions,
  listStageHistory,
  listSurgeries,
  parseSurgeryFilters,
  surgeryDeleteBlock,
  updateSurgery,
} from "~/models/surgery.server";
import { OTHER_CHOICE, SURGERY_FORM_FIELDS, surgerySchema } from "~/validation/surgery";
import type { Route } from "./+types/surgeries";

export const handle = { title: "Cirurgias", subtitle: "Agenda cirúrgica, autorizações e faturamento" };
export const meta: Route.MetaFunction = () => [{ title: "Cirurgias · Sinapse" }];

const STATUS_BADGES: Record<SurgeryStatus, BadgeVariant> = {
  scheduled: "info",
  completed: "success",
  cancelled: "destructive",
};

type FormDefaults = Partial<Record<(typeof SURGERY_FORM_FIELDS)[number], string>>;

/** Picker options, Cadastros selects and default values of the create/edit dialog. */
function dialogData(url: URL, editing: ReturnType<typeof getSurgery>) {
  const draft = draftFromUrl(url, SURGERY_FORM_FIELDS);
  const patientQ = (url.searchParams.get("patientQ") ?? "").trim().slice(0, 100);
  const doctorQ = (url.searchParams.get("doctorQ") ?? "").trim().slice(0, 100);

  const base: FormDefaults = editing
    ? {
        patientId: String(editing.patientId),
        doctorId: String(editing.doctorId),
        surgeryType: editing.surgeryType,
        scheduledDate: toDateTimeLocalValue(editing.scheduledDate),
        surgeryStatus: editing.status,
        currentStage: editing.currentStage,
        estimatedDurationMin: editing.estimatedDurationMin ? String(editing.estimatedDurationMin) : "",
        // A name without a Cadastros link (typed, or its hospital was deleted) comes back as 'Outro'.
        hospitalId: editing.hospitalId ? String(editing.hospitalId) : editing.hospital ? OTHER_CHOICE : "",
        hospitalName: editing.hospitalId ? "" : (editing.hospital ?? ""),
        payerId: editing.payerId ? String(editing.payerId) : editing.payerName ? OTHER_CHOICE : "",
        payerName: editing.payerId ? "" : (editing.payerName ?? ""),
        guideNumber: editing.guideNumber ?? "",
        billedAmount: centsToReaisInput(editing.billedAmountCents),
        notes: editing.notes ?? "",
      }
    : { surgeryStatus: "scheduled", currentStage: INITIAL_PIPELINE_STAGE };
  const defaults: FormDefaults = { ...base, ...draft };

  const patientOptions = patientPickerOptions(patientQ, parseId(defaults.patientId));
  const doctorOptions = doctorPickerOptions(doctorQ, parseId(defaults.doctorId));

  const hospitals = listHospitalOptions(editing?.hospitalId);
  const payers = listPayerOptions(editing?.payerId);
  if (!draft) {
    // A name typed earlier that matches a Cadastros row (same name, ignoring accents and case) is
    // offered as that row, so saving links it instead of keeping loose text.
    linkTypedName(defaults, "hospitalId", "hospitalName", hospitals);
    linkTypedName(defaults, "payerId", "payerName", payers);
  }
  const label = (row: { name: string; active: boolean }) => (row.active ? row.name : `${row.name} (inativo)`);
  return {
    defaults,
    patientQ,
    doctorQ,
    patientOptions,
    doctorOptions,
    hospitalOptions: hospitals.map((h) => ({ value: String(h.id), label: label(h) })),
    payerOptions: payers.map((p) => ({ value: String(p.id), label: label(p) })),
  };
}

function linkTypedName(
  defaults: FormDefaults,
  idField: "hospitalId" | "payerId",
  nameField: "hospitalName" | "payerName",
  rows: { id: number; name: string; active: boolean }[],
) {
  if (defaults[idField] !== OTHER_CHOICE || !defaults[nameField]) return;
  const typed = normalizeSearch(defaults[nameField]);
  const match = rows.find((row) => row.active && normalizeSearch(row.name) === typed);
  if (!match) return;
  defaults[idField] = String(match.id);
  defaults[nameField] = "";
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "surgeries", "view");
  const url = new URL(request.url);
  const params = parseListParams(url, SURGERY_SORTS, { sort: "scheduledDate", dir: "desc" });
  const filters = parseSurgeryFilters(url);
  const { dialog, editing, deleting } = await resolveDialog(request, {
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
    doctorFilterOptions: listDoctorFilterOptions().map((d) => ({ value: String(d.id), label: d.active ? d.name : `${d.name} (inativo)` })),
    dialog,
    editing,
    history: editing ? listStageHistory(editing.id) : [],
    form: dialog === "new" || editing ? dialogData(url, editing) : null,
    deleting,
    closeTo: listUrl(url, FILTER_PARAMS),
    permissions: rightsIn(user, "surgeries"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requirePermission(request, "surgeries", "view");
  const formData = await request.formData();
  return crudAction(request, formData, {
    area: "surgeries",
    schema: surgerySchema,
    back: listUrl(new URL(request.url), FILTER_PARAMS),
    notFoundMessage: "Cirurgia não encontrada.",
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
  });
}

type LoaderData = Route.ComponentProps["loaderData"];
type Row = LoaderData["rows"][number];

export default function SurgeriesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, dialog, editing, history, form, deleting, closeTo } = loaderData;
  const hrefWith = useHrefWithParams();
  const location = useLocation();
  useToastEffect(actionData?.toast);
  const showActions = permissions.edit || permissions.delete;
  const deleteError = actionData?.intent === "delete" ? actionData.toast?.message : undefined;
  const describe = (row: { surgeryType: string; patientName: string }) => `${row.surgeryType} de ${row.patientName}`;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchForm
          placeholder="Buscar por paciente, médico, cirurgia, hospital, pagador ou guia..."
          label="Buscar cirurgias"
          className="w-full max-w-md"
        />
        {permissions.create ? (
          <ButtonLink to={hrefWith({ dialog: "new", edit: null, delete: null })} preventScrollReset>
            <Plus aria-hidden />
            Nova Cirurgia
          </ButtonLink>
        ) : null}
      </div>

      <SurgeryFilters doctorOptions={loaderData.doctorFilterOptions} />

      <DataTable
        caption="Cirurgias"
        rows={rows}
        total={total}
        page={params.page}
        pageSize={pageSize}
        getRowKey={(row) => row.id}
        emptyText="No surgeries scheduled"
        columns={[
          { key: "patient", header: "Paciente", className: "font-medium", cell: (row) => row.patientName },
          { key: "doctor", header: "Médico", cell: (row) => row.doctorName },
          { key: "type", header: "Cirurgia", cell: (row) => row.surgeryType },
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
          { key: "hospital", header: "Hospital", cell: (row) => row.hospital || "-" },
          { key: "payer", header: "Pagador", cell: (row) => row.payerName || "-" },
          {
            key: "stage",
            header: "Etapa",
            className: "whitespace-nowrap",
            cell: (row) => <Badge variant="outline">{stageLabel(row.currentStage)}</Badge>,
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
                          aria-label={`Editar ${describe(row)}`}
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
                          aria-label={`Excluir ${describe(row)}`}
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
      {deleting?.refusal ? (
        <UrlDialog title="Excluir cirurgia" closeTo={closeTo} maxWidth="md">
          <Alert variant="destructive">
            <AlertDescription>
              <p role="alert">{deleting.refusal}</p>
            </AlertDescription>
          </Alert>
          <DialogFooter>
            <ButtonLink to={closeTo} variant="outline" preventScrollReset>
              Fechar
            </ButtonLink>
            {permissions.edit ? (
              <ButtonLink to={hrefWith({ edit: deleting.id, delete: null, dialog: null })} preventScrollReset>
                Editar cirurgia
              </ButtonLink>
            ) : null}
          </DialogFooter>
        </UrlDialog>
      ) : deleting ? (
        <ConfirmDialog
          title="Excluir cirurgia"
          message={
            <>
              Are you sure you want to delete this surgery? <strong>{describe(deleting)}</strong> em{" "}
              {formatDateTime(deleting.scheduledDate)} será removida permanentemente, com o histórico de etapas.
              {deleteError ? (
                <span role="alert" className="mt-2 block text-destructive">
                  {deleteError}
                </span>
              ) : null}
            </>
          }
          fields={{ intent: "delete", id: deleting.id }}
          closeTo={closeTo}
        />
      ) : null}
    </div>
  );
}

/** Status, stage and doctor filters: a GET form, applied on change with JavaScript, by 'Filtrar' without. */
function SurgeryFilters({ doctorOptions }: { doctorOptions: { value: string; label: string }[] }) {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const submit = useSubmit();
  const hrefWith = useHrefWithParams();
  const current = {
    status: searchParams.get("status") ?? "",
    stage: searchParams.get("stage") ?? "",
    doctor: searchParams.get("doctor") ?? "",
  };
  const active = FILTER_PARAMS.some((key) => current[key] !== "");
  const kept = ["q", "sort", "dir"].flatMap((key) => {
    const value = searchParams.get(key);
    return value ? [[key, value] as const] : [];
  });
  const filters: { name: (typeof FILTER_PARAMS)[number]; label: string; all: string; options: { value: string; label: string }[] }[] = [
    { name: "status", label: "Status", all: "Todos os status", options: STATUS_OPTIONS },
    { name: "stage", label: "Etapa", all: "Todas as etapas", options: STAGE_OPTIONS },
    { name: "doctor", label: "Médico", all: "Todos os médicos", options: doctorOptions },
  ];

  return (
    <Form
      method="get"
      action={pathname}
      preventScrollReset
      aria-label="Filtros"
      className="flex flex-wrap items-end gap-3"
      // Changing a select applies it at once when JavaScript runs.
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
    >
      {kept.map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      {filters.map((filter) => (
        <div key={filter.name} className="grid gap-1.5">
          <Label htmlFor={`filter-${filter.name}`} className="text-xs text-muted-foreground">
            {filter.label}
          </Label>
          <Select
            // Re-mount when the URL changes (Back, 'Limpar'), so the select shows the applied filter.
            key={`${filter.name}:${current[filter.name]}`}
            id={`filter-${filter.name}`}
            name={filter.name}
            defaultValue={filter.options.some((o) => o.value === current[filter.name]) ? current[filter.name] : ""}
            wrapperClassName="w-48"
          >
            <option value="">{filter.all}</option>
            {filter.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
      ))}
      <Button type="submit" variant="outline">
        <Filter aria-hidden />
        Filtrar
      </Button>
      {active ? (
        <ButtonLink to={hrefWith({ status: null, stage: null, doctor: null, page: null })} variant="ghost" preventScrollReset>
          <X aria-hidden />
          Limpar filtros
        </ButtonLink>
      ) : null}
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
