import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Activity, Hourglass } from "lucide-react";
import { Form, Link, data, redirect, useNavigation, useSearchParams } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, FormErrors } from "~/components/form-field";
import { recordAudit } from "~/.server/audit";
import { LoginError, assertSameOrigin, authenticator, safeRedirect } from "~/.server/auth";
import { db } from "~/.server/db";
import { readFormBody, requestWithForm } from "~/.server/form-body";
import { capEchoedValues } from "~/.server/responses";
import { createUserSession, getSessionUser } from "~/.server/session";
import { redirectWithToast, toastHeader } from "~/.server/toast";
import type { Toast } from "~/lib/toast";
import { useToastEffect } from "~/lib/use-toast-effect";
import { cn } from "~/lib/utils";
import { AccountError, createAccount } from "~/models/user.server";
import { getClinicSettings } from "~/models/settings.server";
import { loginSchema, signupSchema } from "~/validation/auth";
import type { Route } from "./+types/auth";

export const meta: Route.MetaFunction = () => [{ title: "Entrar · Sinapse" }];

const PENDING_ACCESS_TEXT =
  "Sua conta foi criada, mas um administrador da clínica precisa liberar o seu acesso antes que você possa usar o Sinapse.";

export async function loader({ request }: Route.LoaderArgs) {
  if (await getSessionUser(request)) throw redirect("/dashboard");
  return { passwordMinLength: getClinicSettings().passwordMinLength };
}

export async function action({ request }: Route.ActionArgs) {
  // Signing in from another site's form (login CSRF) is refused like any other forged write.
  assertSameOrigin(request);
  // Read once, safely (size- and field-capped, form encodings only); the login strategy gets a copy.
  const formData = await readFormBody(request);
  const intent = formData.get("intent");

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
        recordAudit(db, { userId: account.id, action: "login", entity: "session" });
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
    const userId = await authenticator.authenticate("form", requestWithForm(request, formData));
    const headers = new Headers();
    headers.append("Set-Cookie", await createUserSession(request, userId));
    headers.append("Set-Cookie", await toastHeader({ type: "success", message: "Logged in successfully!" }));
    recordAudit(db, { userId, action: "login", entity: "session" });
    return redirect(safeRedirect(formData.get("redirectTo")), { headers });
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
        <nav className="mb-6 grid grid-cols-2 rounded-md bg-muted p-1 text-sm font-medium" aria-label="Acesso">
          <AuthTab to="?tab=login" active={tab === "login"}>
            Login
          </AuthTab>
          <AuthTab to="?tab=signup" active={tab === "signup"}>
            Sign Up
          </AuthTab>
        </nav>
        {tab === "login" && searchParams.get("conta") === "aguardando" ? (
          <div role="status" className="mb-4 flex gap-3 rounded-md border border-info/40 bg-info/10 p-3 text-sm">
            <Hourglass className="mt-0.5 size-4 shrink-0 text-info" aria-hidden />
            <p>
              {PENDING_ACCESS_TEXT} Peça a liberação ao administrador; depois, entre com seu e-mail e senha.
            </p>
          </div>
        ) : null}
        {tab === "login" ? (
          <LoginForm lastResult={actionData?.intent === "login" ? actionData.result : undefined} />
        ) : (
          <SignupForm
            passwordMinLength={loaderData.passwordMinLength}
            lastResult={actionData?.intent === "signup" ? actionData.result : undefined}
          />
        )}
      </div>
    </main>
  );
}

function AuthTab({ to, active, children }: { to: string; active: boolean; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      replace
      aria-current={active ? "page" : undefined}
      className={cn(
        "rounded-sm px-3 py-1.5 text-center transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
        active ? "bg-background text-foreground shadow-sm" : "text-muted-foreground hover:text-foreground",
      )}
    >
      {children}
    </Link>
  );
}

type LastResult = Route.ComponentProps["actionData"] extends infer A ? (A extends { result: infer R } ? R : never) : never;

function LoginForm({ lastResult }: { lastResult?: LastResult }) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "login";
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <Field meta={fields.email} label="Email" type="email" autoComplete="email" placeholder="voce@clinica.com.br" />
      <Field meta={fields.password} label="Senha" type="password" autoComplete="current-password" />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Entrando..." : "Entrar"}
      </Button>
    </Form>
  );
}

function SignupForm({ passwordMinLength, lastResult }: { passwordMinLength: number; lastResult?: LastResult }) {
  const navigation = useNavigation();
  const schema = signupSchema(passwordMinLength);
  const [form, fields] = useForm({
    id: "signup",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "signup";
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="signup" />
      <Field meta={fields.name} label="Nome completo" type="text" autoComplete="name" />
      <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
      <Field meta={fields.password} label="Senha" type="password" hint={`Mínimo de ${passwordMinLength} caracteres.`} autoComplete="new-password" minLength={passwordMinLength} />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Criando conta..." : "Criar conta"}
      </Button>
    </Form>
  );
}
