import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Filter, Pencil, Plus, Trash2, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Form, useLocation, useNavigation, useSearchParams, useSubmit } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DataTable, SearchForm, useHrefWithParams } from "~/components/data-table";
import { DialogFooter, UrlDialog } from "~/components/dialog";
import { DefaultSubmitButton, EntityPicker, type PickerOption } from "~/components/entity-picker";
import { Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { requirePermission } from "~/.server/auth";
import { crudAction, resolveDialog } from "~/.server/crud-action";
import { formatDateTime, toDateTimeLocalValue } from "~/lib/dates";
import { formatCpf } from "~/lib/documents";
import { SURGERY_STATUSES, SURGERY_STATUS_LABELS, type SurgeryStatus, enumOptions, labelFor } from "~/lib/enums";
import { draftFromUrl, listUrl, parseId, parseListParams } from "~/lib/list-params";
import { centsToReaisInput } from "~/lib/money";
import { can } from "~/lib/permissions";
import { INITIAL_PIPELINE_STAGE, PIPELINE_STAGES, stageLabel } from "~/lib/pipeline";
import { normalizeSearch } from "~/lib/search";
import { useToastEffect } from "~/lib/use-toast-effect";
import { getDoctorOption, searchDoctorOptions } from "~/models/doctor-options.server";
import { getPatient, searchPatientOptions } from "~/models/patient.server";
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

/** The list's own filters, kept by links, dialogs and redirects (besides q, page, sort, dir). */
const FILTER_PARAMS = ["status", "stage", "doctor"] as const;
/** Everything that makes up the list's URL state (kept through the dialog's picker round trip). */
const LIST_PARAMS = ["q", "page", "sort", "dir", ...FILTER_PARAMS] as const;

const STATUS_BADGES: Record<SurgeryStatus, BadgeVariant> = {
  scheduled: "info",
  completed: "success",
  cancelled: "destructive",
};
const STATUS_OPTIONS = enumOptions(SURGERY_STATUSES, SURGERY_STATUS_LABELS);
const STAGE_OPTIONS = PIPELINE_STAGES.map((stage) => ({ value: stage.id, label: stage.label }));

// The same labels whether the options come from the loader or from the picker's fetch.
function patientLabel(p: { name: string; cpf?: string | null }) {
  return p.cpf ? `${p.name} · CPF ${formatCpf(p.cpf)}` : p.name;
}
function doctorLabel(d: { name: string; specialty?: string | null }) {
  return d.specialty ? `${d.name} · ${d.specialty}` : d.name;
}
function toPatientOption(item: Record<string, unknown>): PickerOption | null {
  if (typeof item.id !== "number" || typeof item.name !== "string") return null;
  return { id: item.id, label: patientLabel({ name: item.name, cpf: typeof item.cpf === "string" ? item.cpf : null }) };
}
function toDoctorOption(item: Record<string, unknown>): PickerOption | null {
  if (typeof item.id !== "number" || typeof item.name !== "string") return null;
  return { id: item.id, label: doctorLabel({ name: item.name, specialty: typeof item.specialty === "string" ? item.specialty : null }) };
}

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

  const patientOptions = searchPatientOptions(patientQ).map((p) => ({ id: p.id, label: patientLabel(p) }));
  const patientId = parseId(defaults.patientId);
  if (patientId && !patientOptions.some((o) => o.id === patientId)) {
    const selected = getPatient(patientId);
    if (selected) patientOptions.unshift({ id: selected.id, label: patientLabel(selected) });
  }
  const doctorOptions = searchDoctorOptions(doctorQ).map((d) => ({ id: d.id, label: doctorLabel(d) }));
  const doctorId = parseId(defaults.doctorId);
  if (doctorId && !doctorOptions.some((o) => o.id === doctorId)) {
    const selected = getDoctorOption(doctorId);
    if (selected) doctorOptions.unshift({ id: selected.id, label: doctorLabel(selected) });
  }

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
    permissions: {
      create: can(user, "surgeries", "create"),
      edit: can(user, "surgeries", "edit"),
      delete: can(user, "surgeries", "delete"),
    },
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

/** The picker's selection: what was posted (a 400 re-render), else the loader's default. */
function pickedId(posted: unknown, fallback: string | undefined) {
  return parseId(typeof posted === "string" ? posted : fallback);
}

const validateSurgery = (formData: FormData) => parseWithZod(formData, { schema: surgerySchema });

/** Lets the 'Outro' name fields stay visible without JavaScript and follow the select with it. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

function SurgeryDialog({
  surgery,
  history,
  form: data,
  closeTo,
  lastResult,
}: {
  surgery: LoaderData["editing"];
  history: LoaderData["history"];
  form: NonNullable<LoaderData["form"]>;
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const hydrated = useHydrated();
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const [form, fields] = useForm({
    id: surgery ? `surgery-${surgery.id}` : "surgery-new",
    lastResult,
    defaultValue: data.defaults,
    constraint: getZodConstraint(surgerySchema),
    onValidate: ({ formData }) => validateSurgery(formData),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const showHospitalName = !hydrated || fields.hospitalId.value === OTHER_CHOICE;
  const showPayerName = !hydrated || fields.payerId.value === OTHER_CHOICE;
  const keptListParams = LIST_PARAMS.flatMap((key) => {
    const value = searchParams.get(key);
    return value ? [[key, value] as const] : [];
  });

  return (
    <UrlDialog title={surgery ? "Edit Surgery" : "Add New Surgery"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <DefaultSubmitButton />
        <input type="hidden" name="intent" value={surgery ? "update" : "create"} />
        {surgery ? <input type="hidden" name="id" value={surgery.id} /> : null}
        {/* Keep the dialog open and the list's state through the pickers' GET round trip. */}
        {surgery ? <input type="hidden" name="edit" value={surgery.id} /> : <input type="hidden" name="dialog" value="new" />}
        {keptListParams.map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <EntityPicker
            name="patientId"
            label="Paciente"
            searchParam="patientQ"
            endpoint="/api/patients"
            resultsKey="patients"
            toOption={toPatientOption}
            options={data.patientOptions}
            defaultValue={pickedId(fields.patientId.initialValue, data.defaults.patientId)}
            searchDefault={data.patientQ}
            searchPlaceholder="Nome ou CPF..."
            errors={fields.patientId.errors}
            errorId={fields.patientId.errorId}
            required
          />
          <EntityPicker
            name="doctorId"
            label="Médico"
            searchParam="doctorQ"
            endpoint="/api/doctors"
            resultsKey="doctors"
            toOption={toDoctorOption}
            options={data.doctorOptions}
            defaultValue={pickedId(fields.doctorId.initialValue, data.defaults.doctorId)}
            searchDefault={data.doctorQ}
            searchPlaceholder="Nome ou especialidade..."
            errors={fields.doctorId.errors}
            errorId={fields.doctorId.errorId}
            required
          />
          <Field
            meta={fields.surgeryType}
            label="Tipo de cirurgia"
            className="sm:col-span-2"
            placeholder="Ex.: Artrodese lombar L4-L5"
            autoComplete="off"
          />
          <Field meta={fields.scheduledDate} label="Data e hora" type="datetime-local" hint="Horário de Brasília (São Paulo)." />
          <Field
            meta={fields.estimatedDurationMin}
            label="Duração estimada (min)"
            type="number"
            min={1}
            max={1440}
            step={1}
            inputMode="numeric"
            placeholder="120"
          />
          <SelectField meta={fields.surgeryStatus} label="Status" options={STATUS_OPTIONS} />
          <SelectField
            meta={fields.currentStage}
            label="Etapa"
            options={STAGE_OPTIONS}
            hint="Concluído e Cancelado ajustam o status, salvo se você o mudar."
          />
          <div className="grid content-start gap-4">
            <SelectField
              meta={fields.hospitalId}
              label="Hospital"
              options={[...data.hospitalOptions, { value: OTHER_CHOICE, label: "Outro (digitar o nome)" }]}
              placeholder="Não definido"
            />
            {showHospitalName ? (
              <Field
                meta={fields.hospitalName}
                label="Nome do hospital"
                hint={hydrated ? undefined : "Preencha apenas se escolheu Outro."}
                autoComplete="off"
              />
            ) : null}
          </div>
          <div className="grid content-start gap-4">
            <SelectField
              meta={fields.payerId}
              label="Pagador"
              options={[...data.payerOptions, { value: OTHER_CHOICE, label: "Outro (digitar o nome)" }]}
              placeholder="Não definido"
            />
            {showPayerName ? (
              <Field
                meta={fields.payerName}
                label="Nome do pagador"
                hint={hydrated ? undefined : "Preencha apenas se escolheu Outro."}
                autoComplete="off"
              />
            ) : null}
          </div>
          <Field meta={fields.guideNumber} label="Número da guia" autoComplete="off" />
          <Field meta={fields.billedAmount} label="Valor faturado (R$)" inputMode="decimal" placeholder="0,00" autoComplete="off" />
          <TextareaField meta={fields.notes} label="Observações" className="sm:col-span-2" rows={3} />
        </div>
        {surgery && history.length > 0 ? <StageHistory history={history} /> : null}
        <DialogFooter>
          <ButtonLink to={closeTo} variant="outline" preventScrollReset>
            Cancelar
          </ButtonLink>
          <Button type="submit" disabled={busy}>
            {busy ? "Salvando..." : surgery ? "Salvar alterações" : "Agendar cirurgia"}
          </Button>
        </DialogFooter>
      </Form>
    </UrlDialog>
  );
}

function StageHistory({ history }: { history: LoaderData["history"] }) {
  return (
    <details className="rounded-md border p-3 text-sm">
      <summary className="cursor-pointer font-medium">Histórico de etapas</summary>
      <ol className="mt-2 space-y-1 text-muted-foreground">
        {history.map((move) => (
          <li key={move.id}>
            <span className="tabular-nums">{formatDateTime(move.createdAt)}</span> —{" "}
            {move.fromStage ? `${stageLabel(move.fromStage)} → ` : "Início em "}
            <span className="text-foreground">{stageLabel(move.stage)}</span>
            {move.movedByName ? ` (por ${move.movedByName})` : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
