import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { CheckboxField, Field, FormErrors, SelectField, type SelectOption } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import {
  ACCESS_ROUTES,
  ACCESS_ROUTE_LABELS,
  ACCOMMODATIONS,
  ACCOMMODATION_LABELS,
  SURGERY_TEAM_ROLES,
  SURGERY_TEAM_ROLE_LABELS,
  type SurgeryTeamRole,
  URGENCY_MODES,
  URGENCY_MODE_LABELS,
  enumOptions,
} from "~/lib/enums";
import { formatBRL } from "~/lib/money";
import { feeOverrideSchema, feeSettingsSchema, procedureSchema, teamSchema } from "~/validation/surgery-fees";

/** The forms of a surgery's honorários screen: each a plain POST with its intent, working without JavaScript. */

type LastResult = SubmissionResult<string[]> | undefined;

export function ProcedureForm({ lastResult }: { lastResult: LastResult }) {
  const [form, fields] = useForm({
    id: "procedure-add",
    lastResult,
    defaultValue: { accessRoute: "same" },
    constraint: getZodConstraint(procedureSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: procedureSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid items-end gap-3 sm:grid-cols-[1fr_auto_auto_auto]" preventScrollReset>
      <input type="hidden" name="intent" value="add-procedure" />
      <FormErrors errors={form.errors} id={form.errorId} className="sm:col-span-4" />
      <Field meta={fields.code} label="Código CBHPM ou TUSS" placeholder="3.07.15.18-0" autoComplete="off" />
      <SelectField meta={fields.accessRoute} label="Via de acesso" options={enumOptions(ACCESS_ROUTES, ACCESS_ROUTE_LABELS)} />
      <CheckboxField meta={fields.bilateral} label="Bilateral" />
      <Button type="submit" variant="outline">
        Adicionar procedimento
      </Button>
    </Form>
  );
}

export function TeamForm({ team, doctorOptions, lastResult }: { team: Partial<Record<SurgeryTeamRole, number>>; doctorOptions: SelectOption[]; lastResult: LastResult }) {
  const [form, fields] = useForm({
    id: "surgery-team",
    lastResult,
    defaultValue: Object.fromEntries(SURGERY_TEAM_ROLES.map((role) => [role, team[role] ? String(team[role]) : ""])),
    constraint: getZodConstraint(teamSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: teamSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3" preventScrollReset>
      <input type="hidden" name="intent" value="save-team" />
      <FormErrors errors={form.errors} id={form.errorId} />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {SURGERY_TEAM_ROLES.map((role) => (
          <SelectField key={role} meta={fields[role]} label={SURGERY_TEAM_ROLE_LABELS[role]} options={doctorOptions} placeholder={role === "cirurgiao" ? "Escolha o cirurgião" : "Ninguém"} />
        ))}
      </div>
      <Button type="submit" variant="outline">
        Salvar equipe
      </Button>
    </Form>
  );
}

export function SettingsForm({ settings, lastResult }: { settings: { accommodation: string; urgency: string }; lastResult: LastResult }) {
  const [form, fields] = useForm({
    id: "fee-settings",
    lastResult,
    defaultValue: settings,
    constraint: getZodConstraint(feeSettingsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: feeSettingsSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]" preventScrollReset>
      <input type="hidden" name="intent" value="save-settings" />
      <SelectField meta={fields.accommodation} label="Acomodação" options={enumOptions(ACCOMMODATIONS, ACCOMMODATION_LABELS)} />
      <SelectField meta={fields.urgency} label="Urgência" options={enumOptions(URGENCY_MODES, URGENCY_MODE_LABELS)} />
      <Button type="submit" variant="outline">
        Salvar
      </Button>
    </Form>
  );
}

/** `?ajustar=LINE`: the amount to pay instead of the computed one, and why. */
export function OverrideDialog({
  line,
  closeTo,
  lastResult,
}: {
  line: { id: number; doctorName: string; amountCents: number; computedCents: number | null };
  closeTo: string;
  lastResult: LastResult;
}) {
  const [form, fields] = useForm({
    id: `fee-override-${line.id}`,
    lastResult,
    defaultValue: { lineId: String(line.id), amount: (line.amountCents / 100).toFixed(2).replace(".", ",") },
    constraint: getZodConstraint(feeOverrideSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: feeOverrideSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <UrlDialog
      title="Ajustar honorário"
      description={`${line.doctorName}: calculado ${line.computedCents === null ? "sem memória de cálculo" : formatBRL(line.computedCents)}. O ajuste fica registrado com o motivo.`}
      closeTo={closeTo}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value="override-line" />
        <input type="hidden" name="lineId" value={line.id} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field meta={fields.amount} label="Valor a pagar (R$)" inputMode="decimal" autoComplete="off" />
        <Field meta={fields.reason} label="Motivo do ajuste" autoComplete="off" placeholder="Ex.: valor acordado com o convênio" />
        <FormDialogFooter closeTo={closeTo} submitLabel="Salvar ajuste" />
      </Form>
    </UrlDialog>
  );
}
