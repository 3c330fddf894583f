import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { DefaultSubmitButton, DoctorPicker, PatientPicker } from "~/components/entity-picker";
import { Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { APPOINTMENT_STATUS_OPTIONS as STATUS_OPTIONS } from "~/lib/form-options";
import { APPOINTMENT_TYPES } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { appointmentSchema } from "~/validation/appointment";
import type { Route } from "../routes/+types/appointments";

/** The create/edit dialog of /appointments, with its patient and doctor pickers. */

type LoaderData = Route.ComponentProps["loaderData"];


/** A label with the same red mark the pickers show for a required field. */
function Required({ children }: { children: string }) {
  return (
    <>
      {children}
      <span aria-hidden="true" className="text-destructive">
        *
      </span>
    </>
  );
}

export function AppointmentDialog({
  editingId,
  form: data,
  params,
  filters,
  closeTo,
  returnTo,
  lastResult,
}: {
  editingId: number | null;
  form: NonNullable<LoaderData["form"]>;
  params: LoaderData["params"];
  filters: LoaderData["filters"];
  closeTo: string;
  returnTo: string | null;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const [form, fields] = useForm({
    id: editingId ? `appointment-${editingId}` : "appointment-new",
    lastResult,
    defaultValue: data.values,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: appointmentSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // After a refused save, Conform's initial values are what was posted, so the choice survives the re-render.
  const picked = (value: unknown) => (typeof value === "string" ? parseId(value) : null);

  return (
    <UrlDialog title={editingId ? "Edit Appointment" : "Add New Appointment"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <DefaultSubmitButton />
        <input type="hidden" name="intent" value={editingId ? "update" : "create"} />
        {editingId ? <input type="hidden" name="id" value={editingId} /> : null}
        {/* For a picker's 'Buscar' without JavaScript (a GET of this form): reopen this dialog over the same list. */}
        {editingId ? <input type="hidden" name="edit" value={editingId} /> : <input type="hidden" name="dialog" value="new" />}
        {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
        {params.q ? <input type="hidden" name="q" value={params.q} /> : null}
        {params.page > 1 ? <input type="hidden" name="page" value={params.page} /> : null}
        {params.sort !== "startTime" || params.dir !== "desc" ? (
          <>
            <input type="hidden" name="sort" value={params.sort} />
            <input type="hidden" name="dir" value={params.dir} />
          </>
        ) : null}
        {filters.status ? <input type="hidden" name="listStatus" value={filters.status} /> : null}
        {filters.doctorId ? <input type="hidden" name="doctor" value={filters.doctorId} /> : null}

        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <PatientPicker
            options={data.patients}
            defaultValue={picked(fields.patientId.initialValue)}
            searchDefault={data.patientQ}
            searchPlaceholder="Nome, CPF ou telefone..."
            errors={fields.patientId.errors}
            errorId={fields.patientId.errorId}
            required
          />
          <DoctorPicker
            options={data.doctors}
            defaultValue={picked(fields.doctorId.initialValue)}
            searchDefault={data.doctorQ}
            searchPlaceholder="Nome ou especialidade..."
            errors={fields.doctorId.errors}
            errorId={fields.doctorId.errorId}
            required
          />
          <Field meta={fields.startTime} label={<Required>Início</Required>} type="datetime-local" required />
          <Field meta={fields.endTime} label={<Required>Término</Required>} type="datetime-local" required />
          <Field meta={fields.type} label={<Required>Tipo</Required>} list="appointment-types" autoComplete="off" required />
          <datalist id="appointment-types">
            {APPOINTMENT_TYPES.map((type) => (
              <option key={type} value={type} />
            ))}
          </datalist>
          <Field meta={fields.location} label="Local" placeholder="Consultório, hospital, teleconsulta..." />
          <SelectField meta={fields.status} label="Status" options={STATUS_OPTIONS} className="sm:col-span-2" />
          <TextareaField meta={fields.notes} label="Observações" className="sm:col-span-2" rows={3} />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={editingId ? "Salvar alterações" : "Agendar consulta"} />
      </Form>
    </UrlDialog>
  );
}

