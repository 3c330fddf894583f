import { type SubmissionResult, getFormProps, useForm } from "@conform-to/react";
import { Form, useSearchParams } from "react-router";
import { Link } from "~/components/ui/link";
import { Field, FormErrors } from "~/components/form-field";
import { Hourglass, ShieldCheck } from "~/components/icons";
import { Button } from "~/components/ui/button";
import { useBusy } from "~/lib/use-busy";
import { useLazyValidation } from "~/lib/use-lazy-validation";
import { cn } from "~/lib/utils";

/** The steps of /auth: login or sign-up, then a second factor or a required new password (ADR 0010). */

type LastResult = SubmissionResult<string[]>;

export const PENDING_ACCESS_TEXT =
  "Sua conta foi criada, mas um administrador da clínica precisa liberar o seu acesso antes que você possa usar o Sinapse.";

/** Leaves a half-done sign-in (second factor or new password) for the login form. */
function CancelSignIn() {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="cancel" />
      <Button type="submit" variant="link" className="w-full">
        Cancelar e voltar ao login
      </Button>
    </Form>
  );
}

/** The Login and Sign Up tabs; after a sign-up that awaits an administrator, the login tab says so. */
export function SignInTabs({
  tab,
  passwordMinLength,
  loginResult,
  signupResult,
}: {
  tab: "login" | "signup";
  passwordMinLength: number;
  loginResult?: LastResult;
  signupResult?: LastResult;
}) {
  const [searchParams] = useSearchParams();
  return (
    <>
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
          <LoginForm lastResult={loginResult} />
        ) : (
          <SignupForm passwordMinLength={passwordMinLength} lastResult={signupResult} />
        )}
    </>
  );
}

/** The second step of a sign-in protected by a factor: a form that works without JavaScript. */
export function MfaStep({ lastResult }: { lastResult?: LastResult }) {
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({
    id: "mfa",
    lastResult,
    ...useLazyValidation(() => import("~/validation/auth"), (m) => m.mfaCodeSchema, { shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" }),
  });
  const busy = useBusy("mfa");
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3">
        <ShieldCheck className="mt-1 size-5 shrink-0 text-primary" aria-hidden />
        <div>
          <h2 className="font-semibold">Verificação em duas etapas</h2>
          <p className="text-sm text-muted-foreground">
            Digite o código de 6 dígitos do seu aplicativo autenticador, ou um dos seus códigos de recuperação.
          </p>
        </div>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="mfa" />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field meta={fields.code} label="Código" autoComplete="one-time-code" inputMode="text" autoFocus />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Verificando..." : "Verificar"}
        </Button>
      </Form>
      <CancelSignIn />
    </div>
  );
}

/** An administrator required a new password: chosen here, before the first page. */
export function RequiredPasswordStep({ passwordMinLength, lastResult }: { passwordMinLength: number; lastResult?: LastResult }) {
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({
    id: "new-password",
    lastResult,
    ...useLazyValidation(() => import("~/validation/auth"), (m) => m.requiredPasswordSchema(passwordMinLength), { shouldValidate: "onBlur", shouldRevalidate: "onInput" }),
  });
  const busy = useBusy("new-password");
  return (
    <div className="space-y-4">
      <div>
        <h2 className="font-semibold">Defina uma nova senha</h2>
        <p className="text-sm text-muted-foreground">Um administrador pediu que você escolha uma nova senha antes de continuar.</p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="new-password" />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field meta={fields.newPassword} label="Nova senha" type="password" hint={`Mínimo de ${passwordMinLength} caracteres.`} autoComplete="new-password" />
        <Field meta={fields.confirmPassword} label="Confirmar nova senha" type="password" autoComplete="new-password" />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Salvando..." : "Salvar nova senha"}
        </Button>
      </Form>
      <CancelSignIn />
    </div>
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

function LoginForm({ lastResult }: { lastResult?: LastResult }) {
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    ...useLazyValidation(() => import("~/validation/auth"), (m) => m.loginSchema, { shouldValidate: "onSubmit", shouldRevalidate: "onInput" }),
  });
  const busy = useBusy("login");
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
  const [form, fields] = useForm({
    id: "signup",
    lastResult,
    ...useLazyValidation(() => import("~/validation/auth"), (m) => m.signupSchema(passwordMinLength), { shouldValidate: "onBlur", shouldRevalidate: "onInput" }),
  });
  const busy = useBusy("signup");
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
