import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Bell, DatabaseBackup, KeyRound, ScrollText, Settings2, Users } from "lucide-react";
import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { DataTable, SearchForm } from "~/components/data-table";
import { Field } from "~/components/form-field";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { TabsNav } from "~/components/ui/tabs-nav";
import { requirePermission, assertCan } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { destroyOtherSessions } from "~/.server/session";
import { formatDate } from "~/lib/dates";
import { ROLES, ROLE_LABELS, can } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { getClinicSettings, updateClinicSettings } from "~/models/settings.server";
import { USERS_PAGE_SIZE, changePassword, listUsers, setUserRole } from "~/models/user.server";
import { changePasswordSchema } from "~/validation/auth";
import { generalSettingsSchema, securitySettingsSchema, setRoleSchema } from "~/validation/settings";
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
  if (tab === "usuarios") {
    assertCan(user, "users", "view");
    const q = url.searchParams.get("q")?.trim() ?? "";
    users = { ...listUsers({ q, page: pageOf(url) }), q, page: pageOf(url), pageSize: USERS_PAGE_SIZE };
  }
  return {
    tab,
    currentUserId: user.id,
    canEditClinic: can(user, "settings", "edit"),
    canManageUsers: can(user, "users", "view"),
    settings: {
      clinicName: settings.clinicName,
      timeZone: settings.timeZone,
      passwordMinLength: settings.passwordMinLength,
    },
    users,
  };
}

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
        success: "Política de senha atualizada",
        back: () => "/settings?tab=seguranca",
      }),
      // Every role may change its own password.
      "change-password": intent({
        permission: ["settings", "view"],
        schema: changePasswordSchema(getClinicSettings().passwordMinLength),
        hideFields: PASSWORD_FIELDS,
        run: async ({ user, input, request }) => {
          await changePassword(user.id, input.currentPassword, input.newPassword);
          await destroyOtherSessions(request, user.id);
        },
        success: {
          type: "success",
          message: "Senha alterada com sucesso",
          description: "As suas outras sessões foram encerradas.",
        },
        back: () => "/settings?tab=seguranca",
      }),
      "set-role": intent({
        permission: ["users", "edit"],
        schema: setRoleSchema,
        run: ({ user, input }) => setUserRole(user.id, input.userId, input.role ?? null),
        success: "Perfil atualizado",
        failure: "Perfil inválido",
        back: ({ request }) => {
          const back = new URL(request.url).searchParams;
          back.set("tab", "usuarios");
          return `/settings?${back}`;
        },
      }),
    },
  });
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
    defaultValue: { clinicName: settings.clinicName },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: generalSettingsSchema }),
    shouldRevalidate: "onInput",
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
  const busyPolicy = useBusy("update-security");
  const schema = changePasswordSchema(settings.passwordMinLength);
  const [form, fields] = useForm({
    id: "change-password",
    lastResult: actionData?.intent === "change-password" ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [policyForm, policyFields] = useForm({
    id: "password-policy",
    lastResult: actionData?.intent === "update-security" ? actionData.result : undefined,
    defaultValue: { passwordMinLength: String(settings.passwordMinLength) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: securitySettingsSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
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
      {canEditClinic ? (
        <Card>
          <CardHeader>
            <CardTitle>Política de senhas</CardTitle>
            <CardDescription>Vale para novas contas e para as próximas trocas de senha.</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(policyForm)} className="max-w-md space-y-4">
              <input type="hidden" name="intent" value="update-security" />
              <Field meta={policyFields.passwordMinLength} label="Tamanho mínimo da senha" type="number" min={8} max={128} step={1} />
              <Button type="submit" variant="outline" disabled={busyPolicy}>
                {busyPolicy ? "Salvando..." : "Salvar política"}
              </Button>
            </Form>
          </CardContent>
        </Card>
      ) : null}
    </div>
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
          ]}
        />
      </CardContent>
    </Card>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
