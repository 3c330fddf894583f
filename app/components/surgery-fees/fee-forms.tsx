import { getFormProps, useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { CheckboxField, Field, FormErrors, SelectField, type SelectOption } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
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
import { useLazyValidation } from "~/lib/use-lazy-validation";

/**
 * The forms of a surgery's honorários screen: each a plain POST with its intent, working without
 * JavaScript. They are on the page from the start, so their schemas load after hydration
 * (useLazyValidation); the adjust dialog is fee-override-dialog.tsx.
 */

export type LastResult = SubmissionResult<string[]> | undefined;

export function ProcedureForm({ lastResult }: { lastResult: LastResult }) {
  const [form, fields] = useForm({
    id: "procedure-add",
    lastResult,
    defaultValue: { accessRoute: "same" },
    ...useLazyValidation(() => import("~/validation/surgery-fees"), (m) => m.procedureSchema, { shouldValidate: "onBlur" }),
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
    ...useLazyValidation(() => import("~/validation/surgery-fees"), (m) => m.teamSchema, { shouldValidate: "onBlur" }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3" preventScrollReset>
      <input type="hidden" name="intent" value="save-team" />
      <FormErrors errors={form.errors} id={form.errorId} />
      {/* Six selects of every doctor: their markup kept per team and list of doctors (the loader's, until the next write), unless a submission's errors are shown. */}
      <CachedElement
        as="div"
        id="surgery-team-fields"
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
        cacheKey={lastResult ? undefined : cacheKeyOf(["surgery-team", team], doctorOptions)}
      >
        {() =>
          SURGERY_TEAM_ROLES.map((role) => (
            <SelectField key={role} meta={fields[role]} label={SURGERY_TEAM_ROLE_LABELS[role]} options={doctorOptions} placeholder={role === "cirurgiao" ? "Escolha o cirurgião" : "Ninguém"} />
          ))
        }
      </CachedElement>
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
    ...useLazyValidation(() => import("~/validation/surgery-fees"), (m) => m.feeSettingsSchema),
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
