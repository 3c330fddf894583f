import { Bell, CalendarOff, DatabaseBackup, KeyRound, ListChecks, ScrollText, Settings2, Users } from "~/components/icons";
import { data } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { GeneralTab, NotificationsTab } from "~/components/settings/general-tab";
import { SecurityTab } from "~/components/settings/security-tab";
import { UsersTab } from "~/components/settings/users-tab";
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
import { can } from "~/lib/permissions";
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

export const ErrorBoundary = RouteErrorBoundary;
