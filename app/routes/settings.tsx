import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Bell, CalendarOff, DatabaseBackup, KeyRound, ListChecks, ScrollText, Settings2, ShieldCheck, Users } from "~/components/icons";
import { useEffect, useState } from "react";
import { Form, Link, data, useNavigation } from "react-router";
import { DataTable, SearchForm } from "~/components/data-table";
import { CheckboxField, Field } from "~/components/form-field";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { TabsNav } from "~/components/ui/tabs-nav";
import { requirePermission, assertCan } from "~/.server/auth";
import { verifyLogin } from "~/.server/credentials";
import { DomainError } from "~/.server/domain-error";
import { dispatchIntent, intent } from "~/.server/intent-action";
import {
  enrolmentDetails,
  flashRecoveryCodes,
  mfaStatus,
  readRecoveryCodes,
  removeFactor,
  startEnrolment,
  verifyEnrolment,
} from "~/.server/mfa";
import { destroyOtherSessions, rotateSession } from "~/.server/session";
import { redirectWithToast } from "~/.server/toast";
import type { Toast } from "~/lib/toast";
import { formatDate } from "~/lib/dates";
import { ROLES, ROLE_LABELS, can } from "~/lib/permissions";
import { useLazyValidation } from "~/lib/use-lazy-validation";
import { useToastEffect } from "~/lib/use-toast-effect";
import { getClinicSettings, updateClinicSettings } from "~/models/settings.server";
import { USERS_PAGE_SIZE, changePassword, listUsers, requirePasswordReset, setUserRole } from "~/models/user.server";
import { changePasswordSchema, mfaEnrolSchema, mfaRemoveSchema } from "~/validation/auth";
import { generalSettingsSchema, securitySettingsSchema, setRoleSchema, userIdSchema } from "~/validation/settings";
import type { Route } from "./+types/settings";

export const handle = { title: "Configurações", subtitle: "Preferências da clínica e da sua conta" };
export const meta: Route.MetaFunction = () => [{ title: "Configurações · Sinapse" }];

const TABS = ["geral", "notificacoes", "seguranca", "usuarios"] as const;
type Tab = (typeof TABS)[number];

function tabOf(url: URL): Tab {
  const tab = url.searchParams.get("tab");
  return (TABS as readonly string[]).includes(tab ?? "") ? (tab as Tab) : "geral";
}

function pageOf(url: URL) {
  const page = Number(url.searchParams.get("page"));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "settings", "view");
  const url = new URL(request.url);
  const tab = tabOf(url);
  const settings = getClinicSettings();
  let users = null;
  let resetTarget = null;
  if (tab === "usuarios") {
    assertCan(user, "users", "view");
    const q = url.searchParams.get("q")?.trim() ?? "";
    users = { ...listUsers({ q, page: pageOf(url) }), q, page: pageOf(url), pageSize: USERS_PAGE_SIZE };
    const resetId = Number(url.searchParams.get("reset"));
    resetTarget = users.rows.find((row) => row.id === resetId && row.id !== user.id) ?? null;
  }
  // Recovery codes arrive once, right after the factor is activated; reading them clears them.
  const recovery = tab === "seguranca" ? await readRecoveryCodes(request) : { codes: null, clear: null };
  const security =
    tab === "seguranca"
      ? {
          mfa: mfaStatus(user.id),
          enrolment: await enrolmentDetails(user.id, user.email),
          recoveryCodes: recovery.codes,
          mfaRequired: settings.mfaRequiredForAdmins && user.role === "admin",
        }
      : null;
  return data(
    {
      tab,
      currentUserId: user.id,
      canEditClinic: can(user, "settings", "edit"),
      canManageUsers: can(user, "users", "view"),
      settings: {
        clinicName: settings.clinicName,
        uploadMaxMb: settings.uploadMaxMb,
        timeZone: settings.timeZone,
        passwordMinLength: settings.passwordMinLength,
        sessionIdleMinutes: settings.sessionIdleMinutes,
        sessionMaxHours: settings.sessionMaxHours,
        loginMaxFailures: settings.loginMaxFailures,
        mfaRequiredForAdmins: settings.mfaRequiredForAdmins,
      },
      security,
      users,
      resetTarget: resetTarget ? { id: resetTarget.id, email: resetTarget.email } : null,
    },
    { headers: recovery.clear ? { "Set-Cookie": recovery.clear } : undefined },
  );
}

/** A redirect with a toast that also gives this browser a new session token (after a credential or privilege change). */
async function redirectRotated(request: Request, to: string, toast: Toast, extraCookie?: string) {
  const headers = new Headers();
  const rotated = await rotateSession(request);
  if (rotated) headers.append("Set-Cookie", rotated);
  if (extraCookie) headers.append("Set-Cookie", extraCookie);
  return redirectWithToast(to, toast, { headers });
}

const SECURITY_TAB = "/settings?tab=seguranca";

const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "settings", "view");
  return dispatchIntent(request, user, {
    back: "/settings?tab=geral",
    intents: {
      "update-general": intent({
        permission: ["settings", "edit"],
        schema: generalSettingsSchema,
        run: ({ user, input }) => updateClinicSettings(user.id, input),
        success: "Configurações salvas com sucesso",
      }),
      "update-security": intent({
        permission: ["settings", "edit"],
        schema: securitySettingsSchema,
        run: ({ user, input }) => updateClinicSettings(user.id, input),
        success: "Configurações de segurança salvas",
        back: () => SECURITY_TAB,
      }),
      // Every role may change its own password (and only its own: the session's user).
      "change-password": intent({
        permission: ["settings", "view"],
        schema: changePasswordSchema(getClinicSettings().passwordMinLength),
        hideFields: PASSWORD_FIELDS,
        run: async ({ user, input, request }) => {
          await changePassword(user.id, input.currentPassword, input.newPassword);
          await destroyOtherSessions(request, user.id);
          return redirectRotated(request, SECURITY_TAB, {
            type: "success",
            message: "Senha alterada com sucesso",
            description: "As suas outras sessões foram encerradas.",
          });
        },
        success: "Senha alterada com sucesso",
        back: () => SECURITY_TAB,
      }),
      // The second factor: always the session user's own.
      "mfa-start": intent({
        permission: ["settings", "view"],
        run: ({ user }) => startEnrolment(user.id),
        success: { type: "info", message: "Escaneie o QR code e digite o código do aplicativo" },
        back: () => `${SECURITY_TAB}#mfa`,
      }),
      "mfa-verify": intent({
        permission: ["settings", "view"],
        schema: mfaEnrolSchema,
        hideFields: ["code"],
        run: async ({ user, input, request }) => {
          const codes = await verifyEnrolment(user.id, input.code);
          if (!codes) throw new DomainError("Código inválido. Confira se o horário do celular está correto e tente de novo.", "code");
          return redirectRotated(
            request,
            `${SECURITY_TAB}#mfa`,
            { type: "success", message: "Autenticação em dois fatores ativada" },
            await flashRecoveryCodes(codes),
          );
        },
        success: "Autenticação em dois fatores ativada",
        back: () => SECURITY_TAB,
      }),
      "mfa-cancel": intent({
        permission: ["settings", "view"],
        run: ({ user }) => {
          if (mfaStatus(user.id).pending) removeFactor(user.id);
        },
        success: { type: "info", message: "Configuração cancelada" },
        back: () => SECURITY_TAB,
      }),
      "mfa-remove": intent({
        permission: ["settings", "view"],
        schema: mfaRemoveSchema,
        hideFields: ["currentPassword"],
        run: async ({ user, input, request }) => {
          if ((await verifyLogin(user.email, input.currentPassword)) !== user.id) {
            throw new DomainError("Senha atual incorreta.", "currentPassword");
          }
          removeFactor(user.id);
          return redirectRotated(request, SECURITY_TAB, { type: "success", message: "Autenticação em dois fatores removida" });
        },
        success: "Autenticação em dois fatores removida",
        back: () => SECURITY_TAB,
      }),
      // An administrator requires another user to choose a new password; their sessions end.
      "force-password-reset": intent({
        permission: ["users", "edit"],
        schema: userIdSchema,
        run: ({ user, input }) => requirePasswordReset(user.id, input.userId),
        success: {
          type: "success",
          message: "Nova senha exigida",
          description: "As sessões desse usuário foram encerradas; ele definirá uma nova senha no próximo acesso.",
        },
        back: () => "/settings?tab=usuarios",
      }),
      "set-role": intent({
        permission: ["users", "edit"],
        schema: setRoleSchema,
        run: async ({ user, input, request }) => {
          setUserRole(user.id, input.userId, input.role ?? null);
          // Another user's sessions ended in setUserRole; one's own gets a new token here.
          if (input.userId === user.id) return redirectRotated(request, usersBack(request), { type: "success", message: "Perfil atualizado" });
        },
        success: "Perfil atualizado",
        failure: "Perfil inválido",
        back: ({ request }) => usersBack(request),
      }),
    },
  });
}

function usersBack(request: Request) {
  const back = new URL(request.url).searchParams;
  back.set("tab", "usuarios");
  return `/settings?${back}`;
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, canManageUsers } = loaderData;
  useToastEffect(actionData?.toast);
  const items = [
    { to: "?tab=geral", label: "Geral", icon: Settings2, active: tab === "geral" },
    { to: "?tab=notificacoes", label: "Notificações", icon: Bell, active: tab === "notificacoes" },
    { to: "?tab=seguranca", label: "Segurança", icon: KeyRound, active: tab === "seguranca" },
    ...(canManageUsers ? [{ to: "?tab=usuarios", label: "Usuários", icon: Users, active: tab === "usuarios" }] : []),
    // Admin screens of their own (routes/settings/*), reached from here.
    ...(canManageUsers
      ? [
          { to: "/settings/audit", label: "Auditoria", icon: ScrollText, active: false },
          { to: "/settings/backups", label: "Backups", icon: DatabaseBackup, active: false },
          { to: "/settings/holidays", label: "Feriados", icon: CalendarOff, active: false },
          { to: "/settings/checklists", label: "Checklists", icon: ListChecks, active: false },
        ]
      : []),
  ];
  return (
    <div className="max-w-4xl space-y-6">
      <TabsNav items={items} label="Seções das configurações" />
      {tab === "geral" ? <GeneralTab loaderData={loaderData} actionData={actionData} /> : null}
      {tab === "notificacoes" ? <NotificationsTab /> : null}
      {tab === "seguranca" ? <SecurityTab loaderData={loaderData} actionData={actionData} /> : null}
      {tab === "usuarios" && loaderData.users ? <UsersTab loaderData={loaderData} actionData={actionData} /> : null}
    </div>
  );
}

type TabProps = Pick<Route.ComponentProps, "loaderData" | "actionData">;

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function GeneralTab({ loaderData, actionData }: TabProps) {
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

function NotificationsTab() {
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

function SecurityTab({ loaderData, actionData }: TabProps) {
  const { settings, canEditClinic } = loaderData;
  const busy = useBusy("change-password");
  const [form, fields] = useForm({
    id: "change-password",
    lastResult: actionData?.intent === "change-password" ? actionData.result : undefined,
    ...useLazyValidation(() => import("~/validation/auth"), (m) => m.changePasswordSchema(settings.passwordMinLength), { shouldValidate: "onBlur", shouldRevalidate: "onInput" }),
  });
  return (
    <div className="space-y-6">
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

function UsersTab({ loaderData, actionData }: TabProps) {
  const users = loaderData.users!;
  const roleError = actionData?.intent === "set-role" ? actionData.result?.error?.[""]?.[0] : undefined;
  // A refused change leaves the stored role unchanged: re-mount the selects so they show it again.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (actionData?.intent === "set-role") setAttempt((n) => n + 1);
  }, [actionData]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Usuários</CardTitle>
        <CardDescription>
          Novas contas entram sem perfil e só acessam o sistema depois que um administrador define o perfil.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <SearchForm placeholder="Buscar por nome ou e-mail..." label="Buscar usuários" className="max-w-sm" />
        {loaderData.resetTarget ? (
          <Alert variant="destructive">
            <AlertDescription>
              <p>
                Exigir nova senha de <strong>{loaderData.resetTarget.email}</strong>? As sessões dessa pessoa serão encerradas e ela
                precisará definir uma nova senha no próximo acesso.
              </p>
              <Form method="post" className="mt-3 flex gap-2">
                <input type="hidden" name="intent" value="force-password-reset" />
                <input type="hidden" name="userId" value={loaderData.resetTarget.id} />
                <Button type="submit" variant="destructive" size="sm">
                  Exigir nova senha
                </Button>
                <Link to="?tab=usuarios" className={buttonVariants({ variant: "outline", size: "sm" })}>
                  Cancelar
                </Link>
              </Form>
            </AlertDescription>
          </Alert>
        ) : null}
        {roleError ? (
          <Alert variant="destructive">
            <AlertDescription>{roleError}</AlertDescription>
          </Alert>
        ) : null}
        <DataTable
          caption="Usuários"
          rows={users.rows}
          total={users.total}
          page={users.page}
          pageSize={users.pageSize}
          getRowKey={(row) => row.id}
          emptyText="Nenhum usuário encontrado"
          columns={[
            {
              key: "name",
              header: "Nome",
              className: "font-medium",
              cell: (row) => (
                <>
                  {row.name || "Usuário"}
                  {row.id === loaderData.currentUserId ? <span className="text-muted-foreground"> (você)</span> : null}
                </>
              ),
            },
            { key: "email", header: "E-mail", cell: (row) => row.email },
            { key: "created", header: "Criado em", cell: (row) => formatDate(row.createdAt) },
            {
              key: "role",
              header: "Perfil",
              cell: (row) => (
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="intent" value="set-role" />
                  <input type="hidden" name="userId" value={row.id} />
                  <Select key={`${row.role}:${attempt}`} name="role" defaultValue={row.role ?? ""} aria-label={`Perfil de ${row.email}`} wrapperClassName="w-40">
                    <option value="">Sem acesso</option>
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </Select>
                  <Button type="submit" size="sm" variant="outline">
                    Salvar
                  </Button>
                  {row.role ? null : <Badge variant="warning">Aguardando</Badge>}
                </Form>
              ),
            },
            {
              key: "password",
              header: "Senha",
              cell: (row) =>
                row.mustChangePassword ? (
                  <Badge variant="warning">Troca pendente</Badge>
                ) : row.id === loaderData.currentUserId ? null : (
                  <Link
                    to={`?tab=usuarios&reset=${row.id}`}
                    className="text-sm text-primary underline-offset-4 hover:underline"
                    aria-label={`Exigir nova senha de ${row.email}`}
                  >
                    Exigir nova senha
                  </Link>
                ),
            },
          ]}
        />
      </CardContent>
    </Card>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
