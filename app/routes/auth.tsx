import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, useSearchParams } from "react-router";
import { MfaStep, PENDING_ACCESS_TEXT, RequiredPasswordStep, SignInTabs } from "~/components/auth/sign-in-steps";
import { Activity } from "~/components/icons";
import { LOGIN_COOLING_DOWN, LoginError, assertSameOrigin, auditSignIn, authenticator, safeRedirect } from "~/.server/auth";
import { hasVerifiedFactor, verifySecondFactor } from "~/.server/mfa";
import { clearFailures, coolDownLeft, deviceCookie, noteFailure } from "~/.server/throttle";
import { readFormBody, requestWithForm } from "~/.server/form-body";
import { capEchoedValues } from "~/.server/responses";
import { type SignInStage, createUserSession, destroyUserSession, getPendingSignIn, getSessionUser } from "~/.server/session";
import { redirectWithToast, toastHeader } from "~/.server/toast";
import type { Toast } from "~/lib/toast";
import { useToastEffect } from "~/lib/use-toast-effect";
import { AccountError, createAccount, mustChangePassword, setRequiredPassword } from "~/models/user.server";
import { getClinicSettings } from "~/models/settings.server";
import { loginSchema, mfaCodeSchema, requiredPasswordSchema, signupSchema } from "~/validation/auth";
import type { Route } from "./+types/auth";

export const meta: Route.MetaFunction = () => [{ title: "Entrar · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  if (await getSessionUser(request)) throw redirect("/dashboard");
  // A sign-in that passed the password and awaits its second factor or a new password.
  const pending = await getPendingSignIn(request);
  return { passwordMinLength: getClinicSettings().passwordMinLength, step: pending?.stage ?? null };
}

/** The sign-in step still owed after the password: the second factor, then a required new password. */
function stageAfterPassword(userId: number): SignInStage | null {
  if (hasVerifiedFactor(userId)) return "mfa";
  return mustChangePassword(userId) ? "password" : null;
}

function withRedirect(path: string, redirectTo: FormDataEntryValue | null) {
  const target = safeRedirect(redirectTo, "");
  return target ? `${path}?${new URLSearchParams({ redirectTo: target })}` : path;
}

/**
 * Moves the sign-in on: a fresh session token every step (never the id of the step before), the
 * next step's page while one is owed, else the signed-in session, the known-device cookie, the
 * audit entry and the destination.
 */
async function continueSignIn(request: Request, userId: number, stage: SignInStage | null, redirectTo: FormDataEntryValue | null, device: string | null) {
  const headers = new Headers();
  headers.append("Set-Cookie", await createUserSession(request, userId, { stage }));
  if (stage) return redirect(withRedirect("/auth", redirectTo), { headers });
  headers.append("Set-Cookie", await deviceCookie(request, userId, device));
  headers.append("Set-Cookie", await toastHeader({ type: "success", message: "Logged in successfully!" }));
  auditSignIn(userId, request, "success");
  return redirect(safeRedirect(redirectTo), { headers });
}

function stepFailure(intent: "mfa" | "new-password", result: ReturnType<typeof capEchoedValues>, message?: string) {
  return data(
    { intent, result: capEchoedValues(result), toast: message ? ({ type: "error", message } satisfies Toast as Toast | null) : null },
    { status: 400 },
  );
}

const SIGN_IN_EXPIRED = "O tempo para concluir o acesso terminou. Entre novamente.";
const MFA_KEY_LIMIT = 5;

export async function action({ request }: Route.ActionArgs) {
  // Signing in from another site's form (login CSRF) is refused like any other forged write.
  assertSameOrigin(request);
  // Read once, safely (size- and field-capped, form encodings only); the login strategy gets a copy.
  const formData = await readFormBody(request);
  const intent = formData.get("intent");

  if (intent === "mfa" || intent === "new-password" || intent === "cancel") {
    const pending = await getPendingSignIn(request);
    if (intent === "cancel" || !pending || pending.stage !== (intent === "mfa" ? "mfa" : "password")) {
      const headers = new Headers({ "Set-Cookie": await destroyUserSession(request) });
      if (intent === "cancel") return redirect("/auth", { headers });
      headers.append("Set-Cookie", await toastHeader({ type: "error", message: SIGN_IN_EXPIRED }));
      return redirect("/auth", { headers });
    }
    if (intent === "mfa") {
      const submission = parseWithZod(formData, { schema: mfaCodeSchema });
      if (submission.status !== "success") return stepFailure("mfa", submission.reply({ hideFields: ["code"] }));
      const keys = { keys: [{ key: `mfa:${pending.userId}`, limit: MFA_KEY_LIMIT }] };
      if (coolDownLeft(keys) > 0) {
        auditSignIn(pending.userId, request, "cooling_down");
        return stepFailure("mfa", submission.reply({ formErrors: [LOGIN_COOLING_DOWN], hideFields: ["code"] }), LOGIN_COOLING_DOWN);
      }
      const method = await verifySecondFactor(pending.userId, submission.value.code);
      if (!method) {
        noteFailure(keys);
        auditSignIn(pending.userId, request, "mfa_failure");
        const message = "Código inválido ou expirado.";
        return stepFailure("mfa", submission.reply({ fieldErrors: { code: [message] }, hideFields: ["code"] }), message);
      }
      clearFailures(keys);
      const next = mustChangePassword(pending.userId) ? "password" : null;
      return continueSignIn(request, pending.userId, next, formData.get("redirectTo"), null);
    }
    const submission = parseWithZod(formData, { schema: requiredPasswordSchema(getClinicSettings().passwordMinLength) });
    if (submission.status !== "success") {
      return stepFailure("new-password", submission.reply({ hideFields: ["newPassword", "confirmPassword"] }));
    }
    await setRequiredPassword(pending.userId, submission.value.newPassword);
    return continueSignIn(request, pending.userId, null, formData.get("redirectTo"), null);
  }

  if (intent === "signup") {
    const submission = parseWithZod(formData, { schema: signupSchema(getClinicSettings().passwordMinLength) });
    if (submission.status !== "success") {
      return data({ intent, result: capEchoedValues(submission.reply()), toast: null as Toast | null }, { status: 400 });
    }
    try {
      const account = await createAccount(submission.value);
      if (account.role === "admin") {
        // The installation's first account administers it: signed straight in, no second form.
        const headers = new Headers();
        headers.append("Set-Cookie", await createUserSession(request, account.id));
        headers.append(
          "Set-Cookie",
          await toastHeader({
            type: "success",
            message: "Account created! Check your email for verification.",
            description: "Esta é a primeira conta: você administra o Sinapse e já está conectado.",
          }),
        );
        auditSignIn(account.id, request, "success");
        return redirect("/dashboard", { headers });
      }
      return pendingAccountRedirect();
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      // An e-mail that already has an account gets the very answer a new account gets (and the
      // password was hashed either way, so the time matches too): sign-up does not reveal accounts.
      if (error.field === "email") return pendingAccountRedirect();
      return data(
        {
          intent,
          result: capEchoedValues(submission.reply({ fieldErrors: { [error.field ?? "name"]: [error.message] } })),
          toast: { type: "error", message: error.message } satisfies Toast as Toast | null,
        },
        { status: 400 },
      );
    }
  }

  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ intent: "login", result: capEchoedValues(submission.reply({ hideFields: ["password"] })), toast: null }, { status: 400 });
  }
  try {
    const { userId, device } = await authenticator.authenticate("form", requestWithForm(request, formData));
    return await continueSignIn(request, userId, stageAfterPassword(userId), formData.get("redirectTo"), device);
  } catch (error) {
    const message = error instanceof LoginError ? error.message : "Failed to login";
    if (!(error instanceof LoginError)) console.error("login failed", error);
    return data(
      {
        intent: "login",
        result: capEchoedValues(submission.reply({ formErrors: [message], hideFields: ["password"] })),
        toast: { type: "error", message } satisfies Toast as Toast | null,
      },
      { status: 400 },
    );
  }
}

/** Later accounts can do nothing until an administrator grants a role: the login tab says so. */
function pendingAccountRedirect() {
  return redirectWithToast("/auth?tab=login&conta=aguardando", {
    type: "success",
    message: "Account created! Check your email for verification.",
    description: PENDING_ACCESS_TEXT,
  });
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const tab = searchParams.get("tab") === "signup" ? "signup" : "login";
  useToastEffect(actionData?.toast);

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-primary/10 via-background to-accent/30 p-4">
      <div className="w-full max-w-md rounded-xl border bg-card p-6 text-card-foreground shadow-lg">
        <div className="mb-6 flex flex-col items-center gap-2 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary text-primary-foreground">
            <Activity className="size-6" aria-hidden />
          </span>
          <h1 className="text-2xl font-bold">Sinapse</h1>
          <p className="text-sm text-muted-foreground">Sign in to manage your medical operations</p>
        </div>
        {loaderData.step === "mfa" ? (
          <MfaStep lastResult={actionData?.intent === "mfa" ? actionData.result : undefined} />
        ) : loaderData.step === "password" ? (
          <RequiredPasswordStep
            passwordMinLength={loaderData.passwordMinLength}
            lastResult={actionData?.intent === "new-password" ? actionData.result : undefined}
          />
        ) : (
          <SignInTabs
            tab={tab}
            passwordMinLength={loaderData.passwordMinLength}
            loginResult={actionData?.intent === "login" ? actionData.result : undefined}
            signupResult={actionData?.intent === "signup" ? actionData.result : undefined}
          />
        )}
      </div>
    </main>
  );
}
