import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "react-router";
import { Field } from "~/components/form-field";
import { type TabProps, useBusy } from "~/components/settings/shared";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useLazyValidation } from "~/lib/use-lazy-validation";

/** `?tab=geral`, the screen's first tab: the clinic's name and upload limit (its schema loads after hydration). */
export function GeneralTab({ loaderData, actionData }: TabProps) {
  const { settings, canEditClinic } = loaderData;
  const busy = useBusy("update-general");
  const [form, fields] = useForm({
    id: "general-settings",
    lastResult: actionData?.intent === "update-general" ? actionData.result : undefined,
    defaultValue: { clinicName: settings.clinicName, uploadMaxMb: String(settings.uploadMaxMb) },
    ...useLazyValidation(() => import("~/validation/settings"), (m) => m.generalSettingsSchema, { shouldValidate: "onSubmit", shouldRevalidate: "onInput" }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Informações da clínica</CardTitle>
        <CardDescription>O nome aparece no menu lateral e nos documentos gerados.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <input type="hidden" name="intent" value="update-general" />
          <Field meta={fields.clinicName} label="Nome da clínica" disabled={!canEditClinic} />
          <Field
            meta={fields.uploadMaxMb}
            label="Tamanho máximo de documentos (MB)"
            type="number"
            min={1}
            max={200}
            step={1}
            hint="Arquivos maiores são recusados no envio (/files). Entre 1 e 200 MB."
            disabled={!canEditClinic}
          />
          <div className="space-y-2">
            <Label htmlFor="timeZone">Fuso horário</Label>
            <Input id="timeZone" value={settings.timeZone} disabled readOnly />
            <p className="text-xs text-muted-foreground">Todos os horários são exibidos no horário de Brasília.</p>
          </div>
          {canEditClinic ? (
            <Button type="submit" disabled={busy}>
              {busy ? "Salvando..." : "Salvar Alterações"}
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground">Apenas administradores podem alterar estas informações.</p>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}

/** `?tab=notificacoes`. */
export function NotificationsTab() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notificações</CardTitle>
        <CardDescription>Avisos por e-mail e lembretes automáticos.</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="text-sm text-muted-foreground">
          Nenhuma preferência de notificação está disponível nesta versão. Os avisos do sistema aparecem na própria tela, no
          canto superior direito.
        </p>
      </CardContent>
    </Card>
  );
}
