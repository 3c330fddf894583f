import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { Form } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DataTable, SearchForm, useHrefWithParams } from "~/components/data-table";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, TextareaField } from "~/components/form-field";
import { RouteErrorBoundary } from "~/components/route-error";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { crudAction, resolveDialog } from "~/.server/crud-action";
import { formatCpf, formatPhone } from "~/lib/documents";
import { listUrl, parseListParams } from "~/lib/list-params";
import { rightsIn } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import {
  PATIENT_SORTS,
  createPatient,
  deletePatient,
  getPatient,
  listPatients,
  updatePatient,
} from "~/models/patient.server";
import { patientSchema } from "~/validation/patient";
import type { Route } from "./+types/patients";

export const handle = { title: "Pacientes", subtitle: "Cadastro e histórico dos pacientes" };
export const meta: Route.MetaFunction = () => [{ title: "Pacientes · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "patients", "view");
  const url = new URL(request.url);
  const params = parseListParams(url, PATIENT_SORTS, { sort: "name", dir: "asc" });

  const { dialog, editing, deleting } = await resolveDialog(request, {
    area: "patients",
    notFoundMessage: "Paciente não encontrado.",
    loadEditing: getPatient,
    loadDeleting: (id) => {
      const patient = getPatient(id);
      return patient && { id: patient.id, name: patient.name };
    },
  });


  return {
    ...listPatients(params),
    params,
    dialog,
    editing,
    deleting,
    closeTo: listUrl(url),
    permissions: rightsIn(user, "patients"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await request.formData();
  return crudAction(request, formData, {
    area: "patients",
    schema: patientSchema,
    back: listUrl(new URL(request.url)),
    notFoundMessage: "Paciente não encontrado.",
    messages: {
      created: "Patient created successfully",
      updated: "Patient updated successfully",
      deleted: "Patient deleted successfully",
      saveFailed: "Failed to save patient",
      deleteFailed: "Failed to delete patient",
    },
    create: createPatient,
    update: updatePatient,
    remove: deletePatient,
  });
}

type LoaderData = Route.ComponentProps["loaderData"];

export default function PatientsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, dialog, editing, deleting, closeTo } = loaderData;
  const hrefWith = useHrefWithParams();
  useToastEffect(actionData?.toast);
  const showActions = permissions.edit || permissions.delete;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchForm placeholder="Buscar por nome, CPF ou e-mail..." label="Buscar pacientes" className="w-full max-w-md" />
        {permissions.create ? (
          <ButtonLink to={hrefWith({ dialog: "new", edit: null, delete: null })} preventScrollReset>
            <Plus aria-hidden />
            Novo Paciente
          </ButtonLink>
        ) : null}
      </div>

      <DataTable
        caption="Pacientes"
        rows={rows}
        total={total}
        page={params.page}
        pageSize={pageSize}
        getRowKey={(row) => row.id}
        emptyText="No patients found"
        columns={[
          { key: "name", header: "Name", sortKey: "name", className: "font-medium", cell: (row) => row.name },
          { key: "cpf", header: "CPF", className: "whitespace-nowrap", cell: (row) => (row.cpf ? formatCpf(row.cpf) : "-") },
          { key: "phone", header: "Phone", className: "whitespace-nowrap", cell: (row) => (row.phone ? formatPhone(row.phone) : "-") },
          { key: "email", header: "Email", cell: (row) => row.email || "-" },
          { key: "insurance", header: "Insurance", cell: (row) => row.insurance || "-" },
          ...(showActions
            ? [
                {
                  key: "actions",
                  header: "Actions",
                  className: "w-24 text-right",
                  cell: (row: LoaderData["rows"][number]) => (
                    <div className="flex justify-end gap-1">
                      {permissions.edit ? (
                        <ButtonLink to={hrefWith({ edit: row.id, dialog: null, delete: null })} variant="ghost" size="icon" aria-label={`Editar ${row.name}`} preventScrollReset>
                          <Pencil aria-hidden />
                        </ButtonLink>
                      ) : null}
                      {permissions.delete ? (
                        <ButtonLink to={hrefWith({ delete: row.id, dialog: null, edit: null })} variant="ghost" size="icon" aria-label={`Excluir ${row.name}`} preventScrollReset>
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

      {dialog === "new" || editing ? (
        <PatientDialog
          key={editing?.id ?? "new"}
          patient={editing}
          closeTo={closeTo}
          lastResult={actionData?.intent === (editing ? "update" : "create") ? actionData.result : undefined}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Excluir paciente"
          message={
            <>
              Are you sure you want to delete this patient? <strong>{deleting.name}</strong> será removido
              permanentemente.
            </>
          }
          fields={{ intent: "delete", id: deleting.id }}
          closeTo={closeTo}
        />
      ) : null}
    </div>
  );
}

function PatientDialog({
  patient,
  closeTo,
  lastResult,
}: {
  patient: LoaderData["editing"];
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const [form, fields] = useForm({
    id: patient ? `patient-${patient.id}` : "patient-new",
    lastResult,
    defaultValue: patient
      ? {
          name: patient.name,
          cpf: patient.cpf ? formatCpf(patient.cpf) : "",
          dateOfBirth: patient.dateOfBirth ?? "",
          phone: patient.phone ? formatPhone(patient.phone) : "",
          email: patient.email ?? "",
          address: patient.address ?? "",
          insurance: patient.insurance ?? "",
          medicalHistory: patient.medicalHistory ?? "",
          whatsappOptIn: patient.whatsappOptIn ? "on" : "",
        }
      : undefined,
    constraint: getZodConstraint(patientSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: patientSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <UrlDialog title={patient ? "Edit Patient" : "Add New Patient"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={patient ? "update" : "create"} />
        {patient ? <input type="hidden" name="id" value={patient.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.name} label="Nome" className="sm:col-span-2" autoComplete="off" autoFocus />
          <Field meta={fields.cpf} label="CPF" placeholder="000.000.000-00" inputMode="numeric" />
          <Field meta={fields.dateOfBirth} label="Data de nascimento" type="date" />
          <Field meta={fields.phone} label="Telefone" type="tel" placeholder="(00) 00000-0000" />
          <Field meta={fields.email} label="E-mail" type="email" />
          <Field meta={fields.insurance} label="Convênio" />
          <Field meta={fields.address} label="Endereço" />
          <TextareaField meta={fields.medicalHistory} label="Histórico médico" className="sm:col-span-2" rows={4} />
          <CheckboxField meta={fields.whatsappOptIn} label="Aceita receber mensagens por WhatsApp" className="sm:col-span-2" />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={patient ? "Salvar alterações" : "Cadastrar paciente"} />
      </Form>
    </UrlDialog>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
