import { Bell, CalendarOff, DatabaseBackup, KeyRound, ListChecks, ScrollText, Settings2, Users } from "~/components/icons";
import { data } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { GeneralTab, NotificationsTab } from "~/components/settings/general-tab";
import { SecurityTab } from "~/components/settings/security-tab";
import { UsersTab } from "~/components/settings/users-tab";
import { TabsNav } from "~/components/ui/tabs-nav";
import { requirePermission, assertCan } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { enrolmentDetails, mfaStatus, readRecoveryCodes } from "~/.server/mfa";
import { routeUrl } from "~/.server/route-url";
import { can } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { SECURITY_TAB, securityTabIntents, usersTabIntents } from "~/models/settings-intents.server";
import { getClinicSettings, updateClinicSettings } from "~/models/settings.server";
import { USERS_PAGE_SIZE, listUsers } from "~/models/user.server";
import { generalSettingsSchema, securitySettingsSchema } from "~/validation/settings";
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
  const url = routeUrl(request);
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
      ...securityTabIntents(),
      ...usersTabIntents(),
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
