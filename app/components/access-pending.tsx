import { Hourglass, LogOut } from "~/components/icons";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { displayName } from "~/lib/page";

/**
 * What an account without a role sees instead of any screen: it can sign in, but nothing else
 * until an administrator grants a role (the server refuses every request with 403 meanwhile).
 */
export function AccessPending({ name, email }: { name: string; email: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted p-4">
      <div className="w-full max-w-md space-y-4 rounded-xl border bg-card p-8 text-center shadow">
        <Hourglass className="mx-auto size-10 text-primary" aria-hidden />
        <h1 className="text-xl font-semibold">Acesso aguardando liberação</h1>
        <p className="text-muted-foreground">
          Olá, {displayName(name)}. Sua conta ({email}) foi criada, mas o seu acesso aguarda um administrador da clínica
          definir o seu perfil (Administrador, Equipe ou Médico).
        </p>
        <p className="text-sm text-muted-foreground">Peça a liberação ao administrador e recarregue esta página em seguida.</p>
        <Form method="post" action="/logout">
          <Button type="submit" variant="outline">
            <LogOut aria-hidden />
            Sair
          </Button>
        </Form>
      </div>
    </main>
  );
}
