import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, SelectField } from "~/components/form-field";
import { BRAZIL_UFS, formatCommission, formatPhone } from "~/lib/documents";
import { doctorSchema } from "~/validation/doctor";
import type { Route } from "../routes/+types/doctors";

/** The create/edit dialog of /doctors (`?dialog=new`, `?edit=ID`). */

type LoaderData = Route.ComponentProps["loaderData"];

const UF_OPTIONS = BRAZIL_UFS.map((uf) => ({ value: uf, label: uf }));

export function DoctorDialog({
  doctor,
  closeTo,
  lastResult,
}: {
  doctor: LoaderData["editing"];
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const [form, fields] = useForm({
    id: doctor ? `doctor-${doctor.id}` : "doctor-new",
    lastResult,
    defaultValue: doctor
      ? {
          name: doctor.name,
          specialty: doctor.specialty,
          crm: doctor.crm,
          crmUf: doctor.crmUf ?? "",
          phone: doctor.phone ? formatPhone(doctor.phone) : "",
          email: doctor.email ?? "",
          commissionRate: String(doctor.commissionRate),
          active: doctor.active ? "on" : "",
        }
      : { commissionRate: "0", active: "on" },
    constraint: getZodConstraint(doctorSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: doctorSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <UrlDialog title={doctor ? "Edit Doctor" : "Add New Doctor"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={doctor ? "update" : "create"} />
        {doctor ? <input type="hidden" name="id" value={doctor.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.name} label="Nome" className="sm:col-span-2" autoComplete="off" autoFocus />
          <Field meta={fields.specialty} label="Especialidade" placeholder="Ex.: Neurocirurgia" />
          <div className="grid grid-cols-[1fr_6rem] items-start gap-2">
            <Field meta={fields.crm} label="CRM" inputMode="numeric" placeholder="123456" autoComplete="off" />
            <SelectField meta={fields.crmUf} label="UF do CRM" options={UF_OPTIONS} placeholder="—" />
          </div>
          <Field meta={fields.phone} label="Telefone" type="tel" placeholder="(00) 00000-0000" />
          <Field meta={fields.email} label="E-mail" type="email" />
          <Field
            meta={fields.commissionRate}
            label="Taxa de comissão"
            type="number"
            min={0}
            max={1}
            step={0.01}
            inputMode="decimal"
            hint={commissionHint(fields.commissionRate.value)}
          />
          <CheckboxField
            meta={fields.active}
            label="Ativo"
            className="self-center"
            hint="Inativos não aparecem na escolha de novas consultas e cirurgias."
          />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={doctor ? "Salvar alterações" : "Cadastrar médico"} />
      </Form>
    </UrlDialog>
  );
}

/** 'Fração de 0 a 1 (0,15 = 15%). Equivale a 15%.' — the percentage the table will show. */
function commissionHint(value: unknown) {
  const text = typeof value === "string" ? value.trim().replace(",", ".") : "";
  const rate = text === "" ? 0 : Number(text);
  const valid = Number.isFinite(rate) && rate >= 0 && rate <= 1;
  return (
    <>
      Fração de 0 a 1 (0,15 = 15%).
      {valid ? <span data-testid="commission-percent"> Equivale a {formatCommission(rate)}.</span> : null}
    </>
  );
}
