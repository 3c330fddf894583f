import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useLocation } from "react-router";
import { PageLink, SearchForm, useHrefWithParams } from "~/components/data-table";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { DefaultSubmitButton, PatientPicker } from "~/components/entity-picker";
import { CheckboxField, Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { BRAZIL_UFS, formatPhone } from "~/lib/documents";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { plural } from "~/lib/text";
import { referrerSchema } from "~/validation/referrer";
import type { Route } from "../routes/+types/referrers";

/** The dialogs of /referrers: create/edit (`?dialog=new`, `?edit=ID`) and the referred patients (`?view=ID`). */

type LoaderData = Route.ComponentProps["loaderData"];

const UF_OPTIONS = BRAZIL_UFS.map((uf) => ({ value: uf, label: uf }));
/** The referred patients' page cursors, which a new search of them drops. */
const REFERRED_CURSORS = ["referredBefore", "referredAfter"] as const;

export function ReferrerDialog({
  referrer,
  closeTo,
  lastResult,
}: {
  referrer: LoaderData["editing"];
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const [form, fields] = useForm({
    id: referrer ? `referrer-${referrer.id}` : "referrer-new",
    lastResult,
    defaultValue: referrer
      ? { ...referrer, phone: referrer.phone ? formatPhone(referrer.phone) : "", commissionRate: String(referrer.commissionRate), active: referrer.active ? "on" : "" }
      : { commissionRate: "0", active: "on" },
    constraint: getZodConstraint(referrerSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: referrerSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <UrlDialog title={referrer ? "Editar Encaminhador" : "Novo Encaminhador"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={referrer ? "update" : "create"} />
        {referrer ? <input type="hidden" name="id" value={referrer.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.name} label="Nome" className="sm:col-span-2" autoComplete="off" autoFocus />
          <Field meta={fields.specialty} label="Especialidade" />
          <div className="grid grid-cols-[1fr_6rem] gap-2">
            <Field meta={fields.crm} label="CRM" inputMode="numeric" />
            <SelectField meta={fields.crmUf} label="UF do CRM" options={UF_OPTIONS} placeholder="-" />
          </div>
          <Field meta={fields.phone} label="Telefone" type="tel" placeholder="(00) 00000-0000" />
          <Field meta={fields.email} label="E-mail" type="email" />
          <Field meta={fields.commissionRate} label="Taxa de comissão (0 a 1)" type="number" min={0} max={1} step={0.01} hint="Sobre o valor das cirurgias pagas dos pacientes encaminhados" />
          <TextareaField meta={fields.notes} label="Observações" rows={3} className="sm:col-span-2" />
          <CheckboxField meta={fields.active} label="Ativo" className="sm:col-span-2" />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={referrer ? "Salvar alterações" : "Cadastrar encaminhador"} />
      </Form>
    </UrlDialog>
  );
}

/** `?view=ID`: the patients this referrer sent ('encaminhado por'), linked and unlinked by admins. */
export function ReferralsDialog({ viewing, canEdit, closeTo }: { viewing: NonNullable<LoaderData["viewing"]>; canEdit: boolean; closeTo: string }) {
  const location = useLocation();
  const hrefWith = useHrefWithParams();
  const { rows, total, referredQ, olderBefore, newerAfter } = viewing;
  return (
    <UrlDialog title={`Pacientes encaminhados por ${viewing.name}`} closeTo={closeTo} maxWidth="xl">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">{plural(total, "paciente encaminhado", "pacientes encaminhados")}, os mais recentes primeiro</p>
        {total > 0 ? (
          <SearchForm
            name="referredQ"
            placeholder="Buscar entre eles..."
            label="Buscar entre os pacientes encaminhados"
            landmark="Busca entre os pacientes encaminhados"
            restart={REFERRED_CURSORS}
            className="sm:max-w-56"
          />
        ) : null}
      </div>
      {rows.length ? (
        <CachedElement
          as="ul"
          id="referred-patients"
          cacheKey={cacheKeyOf(["referred-patients", viewing.id, canEdit, location.pathname + location.search], rows)}
          className="divide-y text-sm"
        >
          {() => rows.map((patient) => (
            <li key={patient.id} className="flex items-center justify-between gap-2 py-1.5">
              <span>{patient.name}</span>
              {canEdit ? (
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="unlink-patient" />
                  <input type="hidden" name="id" value={viewing.id} />
                  <input type="hidden" name="patientId" value={patient.id} />
                  <Button type="submit" variant="ghost" size="sm" aria-label={`Desvincular ${patient.name}`}>
                    Desvincular
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </CachedElement>
      ) : (
        <p className="text-sm text-muted-foreground">
          {referredQ && total > 0 ? "Nenhum paciente encaminhado corresponde à busca." : "Nenhum paciente vinculado a este encaminhador."}
        </p>
      )}
      {olderBefore !== null || newerAfter !== null ? (
        <nav aria-label="Páginas dos pacientes encaminhados" className="flex items-center justify-between gap-2">
          <PageLink to={newerAfter !== null ? hrefWith({ referredAfter: newerAfter, referredBefore: null }) : null} rel="prev">
            Mais recentes
          </PageLink>
          <PageLink to={olderBefore !== null ? hrefWith({ referredBefore: olderBefore, referredAfter: null }) : null} rel="next">
            Mais antigos
          </PageLink>
        </nav>
      ) : null}
      {canEdit ? (
        <Form method="post" key={location.search} className="space-y-2 border-t pt-3" preventScrollReset>
          <DefaultSubmitButton label="Vincular" />
          <input type="hidden" name="intent" value="link-patient" />
          <input type="hidden" name="id" value={viewing.id} />
          <input type="hidden" name="view" value={viewing.id} />
          <PatientPicker options={viewing.patientOptions} searchDefault={viewing.patientQ} searchPlaceholder="Nome ou CPF..." />
          <Button type="submit">Vincular paciente</Button>
        </Form>
      ) : null}
    </UrlDialog>
  );
}
