import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, TextareaField } from "~/components/form-field";
import { formatCpf, formatPhone } from "~/lib/documents";
import { patientSchema } from "~/validation/patient";
import type { Route } from "../routes/+types/patients";

type LoaderData = Route.ComponentProps["loaderData"];

/** The create/edit dialog of /patients (`?dialog=new`, `?edit=ID`): every SPEC §3 field and the WhatsApp consent. */
export function PatientDialog({
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
          insuranceCardNumber: patient.insuranceCardNumber ?? "",
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
          <Field meta={fields.insuranceCardNumber} label="Número da carteirinha" autoComplete="off" />
          <Field meta={fields.address} label="Endereço" className="sm:col-span-2" />
          <TextareaField meta={fields.medicalHistory} label="Histórico médico" className="sm:col-span-2" rows={4} />
          <CheckboxField meta={fields.whatsappOptIn} label="Aceita receber mensagens por WhatsApp" className="sm:col-span-2" />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={patient ? "Salvar alterações" : "Cadastrar paciente"} />
      </Form>
    </UrlDialog>
  );
}
