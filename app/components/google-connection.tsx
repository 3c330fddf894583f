import { LogIn, RefreshCw, Unplug } from "~/components/icons";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { ButtonLink, buttonVariants } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

export interface GoogleConnectionView {
  configured: boolean;
  connected: boolean;
  email: string | null;
  canConnect: boolean;
  notConfiguredText: string;
}

/**
 * The connection card of the three integration pages: the badge, the account, Conectar (a plain
 * link to /api/google/auth/start: the browser goes on to Google), Atualizar and Desconectar.
 */
export function GoogleConnectionCard({
  view,
  page,
  refreshHref,
  disconnectHref,
  children,
}: {
  view: GoogleConnectionView;
  page: "/google-calendar" | "/google-drive" | "/google-forms";
  refreshHref: string;
  disconnectHref: string;
  children?: React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Conta Google da clínica</CardTitle>
        <CardDescription>
          {view.connected ? (
            <>Conectada{view.email ? <> como <strong className="font-medium text-foreground">{view.email}</strong></> : null}.</>
          ) : (
            "Nenhuma conta conectada."
          )}
        </CardDescription>
        <CardAction>
          <Badge variant={view.connected ? "success" : "outline"}>{view.connected ? "Conectado" : "Não conectado"}</Badge>
        </CardAction>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!view.configured ? (
          <Alert variant="warning">
            <AlertTitle>Integração não configurada</AlertTitle>
            <AlertDescription>{view.notConfiguredText}</AlertDescription>
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {view.configured && !view.connected && view.canConnect ? (
            <a href={`/api/google/auth/start?returnTo=${encodeURIComponent(page)}`} className={buttonVariants({})}>
              <LogIn aria-hidden />
              Conectar com Google
            </a>
          ) : null}
          {view.connected ? (
            <ButtonLink to={refreshHref} variant="outline">
              <RefreshCw aria-hidden />
              Atualizar
            </ButtonLink>
          ) : null}
          {view.connected && view.canConnect ? (
            <ButtonLink to={disconnectHref} variant="outline" preventScrollReset>
              <Unplug aria-hidden />
              Desconectar
            </ButtonLink>
          ) : null}
        </div>
        {view.configured && !view.connected && !view.canConnect ? (
          <p className="text-sm text-muted-foreground">Peça a um administrador para conectar a conta Google da clínica.</p>
        ) : null}
        {children}
      </CardContent>
    </Card>
  );
}

export function GoogleDisconnectDialog({ closeTo }: { closeTo: string }) {
  return (
    <ConfirmDialog
      title="Desconectar conta Google"
      message="O acesso será revogado no Google e os tokens apagados do Sinapse. Calendário, Drive e Forms deixam de funcionar até uma nova conexão."
      fields={{ intent: "disconnect" }}
      closeTo={closeTo}
      confirmLabel="Desconectar"
      pendingLabel="Desconectando..."
    />
  );
}
