import { DataTable, useHrefWithParams } from "~/components/data-table";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { ListToolbar } from "~/components/list-toolbar";
import { PatientDialog } from "~/components/patient-dialog";
import { PatientLink } from "~/components/patient-link";
import { RouteErrorBoundary } from "~/components/route-error";
import { actionsColumn } from "~/components/row-actions";
import { recordView } from "~/.server/audit";
import { requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
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
  const url = routeUrl(request);
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
  const list = listPatients(params);
  recordView(request, user, "patient", editing?.id ?? null, {
    ids: list.rows.map((row) => row.id),
    ...(params.q ? { q: params.q } : {}),
  });
  return {
    ...list,
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
    back: listUrl(routeUrl(request)),
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
      <ListToolbar
        search={{ placeholder: "Buscar por nome, CPF ou e-mail...", label: "Buscar pacientes" }}
        listHref={closeTo}
        canExport={loaderData.canExport}
        create={permissions.create ? { label: "Novo Paciente", href: hrefWith({ dialog: "new", edit: null, delete: null }) } : null}
      />

      <DataTable
        caption="Pacientes"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="No patients found"
        // The cells read their row, the URL and the rights behind the actions column.
        keepRows={permissions}
        columns={[
          { key: "name", header: "Name", sortKey: "name", className: "font-medium", cell: (row) => <PatientLink id={row.id} name={row.name} /> },
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

export const ErrorBoundary = RouteErrorBoundary;
