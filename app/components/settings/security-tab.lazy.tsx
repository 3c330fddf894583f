import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "react-router";
import { CheckboxField, Field } from "~/components/form-field";
import { ShieldCheck } from "~/components/icons";
import { type TabProps, useBusy } from "~/components/settings/shared";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDate } from "~/lib/dates";
import { useLazyValidation } from "~/lib/use-lazy-validation";

/** `?tab=seguranca`: the password, the account's second factor and (administrators) the clinic's security policy. */
export function SecurityTab({ loaderData, actionData }: TabProps) {
  const { settings, canEditClinic } = loaderData;
  const busy = useBusy("change-password");
  const [form, fields] = useForm({
    id: "change-password",
    lastResult: actionData?.intent === "change-password" ? actionData.result : undefined,
    ...useLazyValidation(() => import("~/validation/auth"), (m) => m.changePasswordSchema(settings.passwordMinLength), { shouldValidate: "onBlur", shouldRevalidate: "onInput" }),
  });
  return (
    <div className="space-y-6" data-settings-tab="seguranca">
      {loaderData.security?.mfaRequired && !loaderData.security.mfa.enabled ? (
        <Alert variant="destructive">
          <AlertDescription>
            A clínica exige autenticação em dois fatores para administradores. Ative-a abaixo para continuar usando o Sinapse.
          </AlertDescription>
        </Alert>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Alterar senha</CardTitle>
          <CardDescription>Ao alterar a senha, as suas sessões em outros dispositivos são encerradas.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="max-w-md space-y-4">
            <input type="hidden" name="intent" value="change-password" />
            <Field meta={fields.currentPassword} label="Senha atual" type="password" autoComplete="current-password" />
            <Field meta={fields.newPassword} label="Nova senha" type="password" hint={`Mínimo de ${settings.passwordMinLength} caracteres.`} autoComplete="new-password" />
            <Field meta={fields.confirmPassword} label="Confirmar nova senha" type="password" autoComplete="new-password" />
            <Button type="submit" disabled={busy}>
              {busy ? "Salvando..." : "Alterar senha"}
            </Button>
          </Form>
        </CardContent>
      </Card>
      <MfaCard loaderData={loaderData} actionData={actionData} />
      {canEditClinic ? <SecurityPolicyCard loaderData={loaderData} actionData={actionData} /> : null}
    </div>
  );
}

/** The account's TOTP factor: set up with a QR code (server-rendered SVG, works without JavaScript), or remove. */
function MfaCard({ loaderData, actionData }: TabProps) {
  const security = loaderData.security!;
  const busyStart = useBusy("mfa-start");
  const busyVerify = useBusy("mfa-verify");
  const busyRemove = useBusy("mfa-remove");
  const [verifyForm, verifyFields] = useForm({
    id: "mfa-verify",
    lastResult: actionData?.intent === "mfa-verify" ? actionData.result : undefined,
    ...useLazyValidation(() => import("~/validation/auth"), (m) => m.mfaEnrolSchema, { shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" }),
  });
  const [removeForm, removeFields] = useForm({
    id: "mfa-remove",
    lastResult: actionData?.intent === "mfa-remove" ? actionData.result : undefined,
    ...useLazyValidation(() => import("~/validation/auth"), (m) => m.mfaRemoveSchema, { shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" }),
  });
  return (
    <Card id="mfa">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5" aria-hidden />
          Autenticação em dois fatores
        </CardTitle>
        <CardDescription>
          Além da senha, o acesso pede um código de 6 dígitos de um aplicativo autenticador (Google Authenticator, Microsoft
          Authenticator, 1Password…).
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {security.recoveryCodes ? (
          <Alert>
            <AlertDescription>
              <p className="font-medium">Guarde estes códigos de recuperação em lugar seguro. Eles não serão mostrados de novo.</p>
              <p className="text-sm">Cada código vale uma única vez, para entrar se você perder o celular.</p>
              <ul aria-label="Códigos de recuperação" className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm">
                {security.recoveryCodes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </ul>
            </AlertDescription>
          </Alert>
        ) : null}
        {security.mfa.enabled ? (
          <>
            <p className="text-sm">
              <Badge variant="success">Ativa</Badge> desde {security.mfa.verifiedAt ? formatDate(security.mfa.verifiedAt) : "—"} ·{" "}
              {security.mfa.recoveryCodesLeft} códigos de recuperação restantes
            </p>
            <Form method="post" {...getFormProps(removeForm)} className="max-w-md space-y-4">
              <input type="hidden" name="intent" value="mfa-remove" />
              <Field meta={removeFields.currentPassword} label="Senha atual (para remover)" type="password" autoComplete="current-password" />
              <Button type="submit" variant="destructive" disabled={busyRemove}>
                {busyRemove ? "Removendo..." : "Remover autenticação em dois fatores"}
              </Button>
            </Form>
          </>
        ) : security.enrolment ? (
          <div className="space-y-4">
            <ol className="list-decimal space-y-1 pl-5 text-sm">
              <li>Abra o aplicativo autenticador e escaneie o QR code (ou digite a chave).</li>
              <li>Digite o código de 6 dígitos que o aplicativo mostrar.</li>
            </ol>
            <div className="flex flex-wrap items-start gap-6">
              <div
                role="img"
                aria-label="QR code para o aplicativo autenticador"
                className="size-48 rounded-md border bg-white p-2"
                // SVG made on the server by the qrcode library from our own otpauth:// URI.
                dangerouslySetInnerHTML={{ __html: security.enrolment.svg }}
              />
              <div className="space-y-1 text-sm">
                <p className="text-muted-foreground">Chave para digitar:</p>
                <code className="block font-mono break-all" data-testid="mfa-secret">
                  {security.enrolment.secret}
                </code>
              </div>
            </div>
            <Form method="post" {...getFormProps(verifyForm)} className="max-w-xs space-y-4">
              <input type="hidden" name="intent" value="mfa-verify" />
              <Field meta={verifyFields.code} label="Código do aplicativo" autoComplete="one-time-code" inputMode="numeric" />
              <div className="flex gap-2">
                <Button type="submit" disabled={busyVerify}>
                  {busyVerify ? "Verificando..." : "Ativar"}
                </Button>
              </div>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="mfa-cancel" />
              <Button type="submit" variant="outline" size="sm">
                Cancelar configuração
              </Button>
            </Form>
          </div>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="mfa-start" />
            <Button type="submit" disabled={busyStart}>
              {busyStart ? "Preparando..." : "Configurar autenticação em dois fatores"}
            </Button>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

/** Administrators: password policy, session timeouts, sign-in lockout and the MFA requirement. */
function SecurityPolicyCard({ loaderData, actionData }: TabProps) {
  const { settings } = loaderData;
  const busy = useBusy("update-security");
  const [form, fields] = useForm({
    id: "security-policy",
    lastResult: actionData?.intent === "update-security" ? actionData.result : undefined,
    defaultValue: {
      passwordMinLength: String(settings.passwordMinLength),
      sessionIdleMinutes: String(settings.sessionIdleMinutes),
      sessionMaxHours: String(settings.sessionMaxHours),
      loginMaxFailures: String(settings.loginMaxFailures),
      mfaRequiredForAdmins: settings.mfaRequiredForAdmins ? "on" : undefined,
    },
    ...useLazyValidation(() => import("~/validation/settings"), (m) => m.securitySettingsSchema, { shouldValidate: "onSubmit", shouldRevalidate: "onInput" }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Política de segurança</CardTitle>
        <CardDescription>Vale para todos os usuários da clínica. A senha mínima vale para novas contas e para as próximas trocas.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...getFormProps(form)} className="grid max-w-2xl gap-4 sm:grid-cols-2">
          <input type="hidden" name="intent" value="update-security" />
          <Field meta={fields.passwordMinLength} label="Tamanho mínimo da senha" type="number" min={8} max={128} step={1} />
          <Field
            meta={fields.loginMaxFailures}
            label="Tentativas de acesso antes do bloqueio"
            type="number"
            min={3}
            max={10}
            step={1}
            hint="O bloqueio dura 1 minuto e dobra a cada nova falha (até 30 minutos)."
          />
          <Field
            meta={fields.sessionIdleMinutes}
            label="Encerrar sessão após inatividade (minutos)"
            type="number"
            min={5}
            max={480}
            step={1}
          />
          <Field
            meta={fields.sessionMaxHours}
            label="Duração máxima da sessão (horas)"
            type="number"
            min={1}
            max={24}
            step={1}
            hint="Depois disso é preciso entrar de novo, mesmo em uso."
          />
          <CheckboxField
            meta={fields.mfaRequiredForAdmins}
            label="Exigir autenticação em dois fatores dos administradores"
            className="sm:col-span-2"
          />
          <div className="sm:col-span-2">
            <Button type="submit" variant="outline" disabled={busy}>
              {busy ? "Salvando..." : "Salvar política"}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
