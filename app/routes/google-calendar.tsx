import { CalendarDays } from "~/components/icons";
import { DataTable } from "~/components/data-table";
import { CalendarPushCard } from "~/components/google-calendar-push";
import { GoogleConnectionCard, GoogleDisconnectDialog } from "~/components/google-connection";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { assertCan, requirePermission } from "~/.server/auth";
import { GOOGLE_MESSAGES, GoogleError, NOT_CONFIGURED_TEXT, connectionView, disconnectIntent } from "~/.server/google";
import {
  CALENDAR_MESSAGES,
  DOCTOR_CALENDAR_LIMIT,
  type GoogleCalendar,
  calendarSettings,
  listCalendars,
  listDoctorCalendars,
  setDoctorCalendar,
  updateCalendarSettings,
} from "~/.server/google-calendar";
import { pushBacklog, startCalendarWorker } from "~/.server/google-calendar-push";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { can } from "~/lib/permissions";
import { googleCalendarSettingsSchema, googleDoctorCalendarSchema } from "~/validation/google";
import { useToastEffect } from "~/lib/use-toast-effect";
import type { Route } from "./+types/google-calendar";

export const handle = { title: "Google Calendar", subtitle: "Calendários da conta Google da clínica" };
export const meta: Route.MetaFunction = () => [{ title: "Google Calendar · Sinapse" }];

const PAGE = "/google-calendar";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "googleCalendar", "view");
  // Started when the server loads (google-calendar-push.ts); again here for the dev server, which loads routes lazily.
  startCalendarWorker();
  const url = routeUrl(request);
  const view = { ...connectionView(user), notConfiguredText: NOT_CONFIGURED_TEXT };
  const disconnecting = url.searchParams.has("disconnect") && view.connected;
  if (disconnecting) assertCan(user, "googleCalendar", "edit");
  let calendars: GoogleCalendar[] = [];
  let loadError: string | null = null;
  if (view.connected && view.configured) {
    try {
      calendars = (await listCalendars()) ?? [];
    } catch (error) {
      if (!(error instanceof GoogleError)) throw error;
      loadError = GOOGLE_MESSAGES.calendarsFailed;
    }
  }
  const settings = calendarSettings();
  const push = {
    syncMode: settings.syncMode,
    clinicCalendarId: settings.clinicCalendarId,
    namePrivacy: settings.namePrivacy,
    ...pushBacklog(),
    doctors: settings.syncMode === "doctor" ? listDoctorCalendars() : [],
    doctorLimit: DOCTOR_CALENDAR_LIMIT,
  };
  return { view, calendars, loadError, disconnecting, push, canEditPush: can(user, "googleCalendar", "edit") };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "googleCalendar", "view");
  return dispatchIntent(request, user, {
    back: PAGE,
    intents: {
      disconnect: disconnectIntent(GOOGLE_MESSAGES.disconnectFailedPt, PAGE),
      "calendar-settings": intent({
        permission: ["googleCalendar", "edit"],
        schema: googleCalendarSettingsSchema,
        run: ({ user, input }) => updateCalendarSettings(user.id, input),
        success: CALENDAR_MESSAGES.saved,
      }),
      "doctor-calendar": intent({
        permission: ["googleCalendar", "edit"],
        schema: googleDoctorCalendarSchema,
        run: ({ user, input }) => setDoctorCalendar(user.id, input),
        success: CALENDAR_MESSAGES.doctorSaved,
      }),
    },
  });
}

function HowTo() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Como funciona</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
          <li>Um administrador clica em “Conectar com Google” e autoriza o Sinapse na conta Google da clínica.</li>
          <li>Os calendários da conta aparecem abaixo; “Atualizar” lê a lista de novo.</li>
          <li>Em “Envio da agenda”, o administrador escolhe o calendário: consultas e cirurgias passam a ser enviadas a ele.</li>
          <li>“Desconectar” revoga o acesso no Google e apaga os tokens guardados no Sinapse.</li>
        </ol>
      </CardContent>
    </Card>
  );
}

export default function GoogleCalendarPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, calendars, loadError, disconnecting, push, canEditPush } = loaderData;
  useToastEffect(actionData && "toast" in actionData ? actionData.toast : undefined);
  return (
    <div className="space-y-4">
      <GoogleConnectionCard view={view} page={PAGE} refreshHref={PAGE} disconnectHref={`${PAGE}?disconnect=1`} />
      {view.connected ? (
        <section aria-labelledby="calendars-title" className="space-y-2">
          <h2 id="calendars-title" className="flex items-center gap-2 text-lg font-semibold">
            <CalendarDays aria-hidden className="size-5" />
            Calendários
          </h2>
          {loadError ? (
            <Alert variant="destructive">
              <AlertDescription>{loadError}</AlertDescription>
            </Alert>
          ) : (
            <DataTable
              caption="Calendários"
              rows={calendars}
              total={calendars.length}
              page={1}
              pageSize={Math.max(calendars.length, 1)}
              getRowKey={(row) => row.id}
              emptyText="Nenhum calendário encontrado"
              keepRows={null}
              columns={[
                { key: "summary", header: "Nome", className: "font-medium whitespace-normal", cell: (row) => row.summary },
                { key: "description", header: "Descrição", className: "whitespace-normal", cell: (row) => row.description || "-" },
                { key: "timeZone", header: "Fuso horário", cell: (row) => row.timeZone || "-" },
                { key: "id", header: "ID", className: "whitespace-normal break-all text-xs text-muted-foreground", cell: (row) => row.id },
              ]}
            />
          )}
        </section>
      ) : null}
      {view.connected && view.configured ? (
        <CalendarPushCard
          push={push}
          calendars={calendars}
          canEdit={canEditPush}
          lastResult={actionData && "intent" in actionData && actionData.intent === "calendar-settings" ? actionData.result : undefined}
        />
      ) : null}
      <HowTo />
      {disconnecting ? <GoogleDisconnectDialog closeTo={PAGE} /> : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
