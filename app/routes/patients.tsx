import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Plus } from "lucide-react";
import { Form } from "react-router";
import { DataTable, SearchForm, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { ExportLink } from "~/components/export-link";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, TextareaField } from "~/components/form-field";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { formatCpf, formatPhone } from "~/lib/documents";
import { listUrl, parseListState } from "~/lib/list-params";
import { PATIENT_LIST } from "~/lib/lists";
import { can, rightsIn } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import {
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
  const params = parseListState(url, PATIENT_LIST);
  const { dialog, editing, deleting } = resolveDialog(url, user, {
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
    canExport: can(user, "patients", "export"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "patients", "view");
  return dispatchIntent(request, user, {
    back: listUrl(new URL(request.url)),
    notFoundMessage: "Paciente não encontrado.",
    intents: crudIntents({
      area: "patients",
      schema: patientSchema,
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
    }),
  });
}

type LoaderData = Route.ComponentProps["loaderData"];

export default function PatientsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, permissions, dialog, editing, deleting, closeTo } = loaderData;
  const hrefWith = useHrefWithParams();
  useToastEffect(actionData?.toast);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchForm placeholder="Buscar por nome, CPF ou e-mail..." label="Buscar pacientes" className="w-full max-w-md" />
        <div className="flex flex-wrap gap-2">
          {loaderData.canExport ? <ExportLink listHref={closeTo} /> : null}
          {permissions.create ? (
            <ButtonLink to={hrefWith({ dialog: "new", edit: null, delete: null })} preventScrollReset>
              <Plus aria-hidden />
              Novo Paciente
            </ButtonLink>
          ) : null}
        </div>
      </div>

      <DataTable
        caption="Pacientes"
        rows={rows}
        total={total}
        page={params.page}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="No patients found"
        columns={[
          { key: "name", header: "Name", sortKey: "name", className: "font-medium", cell: (row) => row.name },
          { key: "cpf", header: "CPF", className: "whitespace-nowrap", cell: (row) => (row.cpf ? formatCpf(row.cpf) : "-") },
          { key: "phone", header: "Phone", className: "whitespace-nowrap", cell: (row) => (row.phone ? formatPhone(row.phone) : "-") },
          { key: "email", header: "Email", cell: (row) => row.email || "-" },
          { key: "insurance", header: "Insurance", cell: (row) => row.insurance || "-" },
          ...actionsColumn<LoaderData["rows"][number]>(permissions, hrefWith, (row) => row.name, "Actions"),
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
        <DeleteDialog
          title="Excluir paciente"
          message={
            <>
              Are you sure you want to delete this patient? <strong>{deleting.name}</strong> será removido
              permanentemente.
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
