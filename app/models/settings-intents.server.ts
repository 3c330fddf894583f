import { verifyLogin } from "~/.server/credentials";
import { DomainError } from "~/.server/domain-error";
import { type Intent, intent } from "~/.server/intent-action";
import {
  flashRecoveryCodes,
  mfaStatus,
  removeFactor,
  startEnrolment,
  verifyEnrolment,
} from "~/.server/mfa";
import { routeUrl } from "~/.server/route-url";
import { destroyOtherSessions, rotateSession } from "~/.server/session";
import { redirectWithToast } from "~/.server/toast";
import type { Toast } from "~/lib/toast";
import { changePasswordSchema, mfaEnrolSchema, mfaRemoveSchema } from "~/validation/auth";
import { setRoleSchema, userIdSchema } from "~/validation/settings";
import { getClinicSettings } from "./settings.server";
import { changePassword, requirePasswordReset, setUserRole } from "./user.server";

/** A redirect with a toast that also gives this browser a new session token (after a credential or privilege change). */
async function redirectRotated(request: Request, to: string, toast: Toast, extraCookie?: string) {
  const headers = new Headers();
  const rotated = await rotateSession(request);
  if (rotated) headers.append("Set-Cookie", rotated);
  if (extraCookie) headers.append("Set-Cookie", extraCookie);
  return redirectWithToast(to, toast, { headers });
}

export const SECURITY_TAB = "/settings?tab=seguranca";

const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

/** The 'Segurança' tab's intents: the session user's own password and second factor (every role, only their own). */
export function securityTabIntents(): Record<string, Intent> {
  return {
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
  };
}

/** The 'Usuários' tab's intents: an administrator's changes to users' accounts. */
export function usersTabIntents(): Record<string, Intent> {
  return {
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
  };
}

function usersBack(request: Request) {
  const back = routeUrl(request).searchParams;
  back.set("tab", "usuarios");
  return `/settings?${back}`;
}
