import { ArrowLeft } from "~/components/icons";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { RemoveLink } from "~/components/row-actions";
import { RouteErrorBoundary } from "~/components/route-error";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatIsoDate, todayIsoInClinic } from "~/lib/dates";
import { can } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { addClinicHoliday, listClinicHolidays, nationalHolidayList, removeClinicHoliday } from "~/models/holiday.server";
import { holidayDaySchema, holidaySchema } from "~/validation/holiday";
import type { Route } from "./+types/holidays";

export const handle = { title: "Feriados", subtitle: "Dias sem expediente que os prazos ANS não contam" };
export const meta: Route.MetaFunction = () => [{ title: "Feriados · Sinapse" }];

const WEEKDAYS = ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"];
const weekday = (day: string) => WEEKDAYS[new Date(`${day}T12:00:00Z`).getUTCDay()];

/** `?ano=2026` picks the year (2000–2099; anything else is this year); `?remover=YYYY-MM-DD` asks before removing. */
function yearOf(url: URL): number {
  const year = Number(url.searchParams.get("ano"));
  return Number.isInteger(year) && year >= 2000 && year <= 2099 ? year : Number(todayIsoInClinic().slice(0, 4));
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "settings", "view");
  const url = routeUrl(request);
  const year = yearOf(url);
  const clinic = listClinicHolidays(year);
  const canEdit = can(user, "settings", "edit");
  const removingDay = url.searchParams.get("remover");
  return {
    year,
    clinic,
    national: nationalHolidayList(year),
    canEdit,
    removing: canEdit ? (clinic.find((h) => h.day === removingDay) ?? null) : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "settings", "view");
  const back = `/settings/holidays${routeUrl(request).search.replace(/([?&])remover=[^&]*&?/, "$1").replace(/[?&]$/, "")}`;
  return dispatchIntent(request, user, {
    back,
    intents: {
      create: intent({
        permission: ["settings", "edit"],
        schema: holidaySchema,
        run: ({ input }) => addClinicHoliday(user.id, input),
        success: "Feriado adicionado",
        failure: "Erro ao salvar feriado",
      }),
      delete: intent({
        permission: ["settings", "edit"],
        schema: holidayDaySchema,
        run: ({ input }) => removeClinicHoliday(user.id, input.day),
        success: "Feriado removido",
        failure: "Erro ao remover feriado",
      }),
    },
  });
}

export default function HolidaysPage({ loaderData, actionData }: Route.ComponentProps) {
  const { year, clinic, national, canEdit, removing } = loaderData;
  useToastEffect(actionData?.toast);
  const errors = actionData?.intent === "create" ? (actionData.result?.error ?? null) : null;
  const self = `/settings/holidays?ano=${year}`;
  return (
    <div className="max-w-4xl space-y-6">
      <Link to="/settings" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Configurações
      </Link>
      <nav aria-label="Ano" className="flex items-center gap-2">
        <ButtonLink to={`/settings/holidays?ano=${year - 1}`} variant="outline" size="sm">
          {year - 1}
        </ButtonLink>
        <span className="px-2 text-lg font-semibold tabular-nums" aria-current="page">
          {year}
        </span>
        <ButtonLink to={`/settings/holidays?ano=${year + 1}`} variant="outline" size="sm">
          {year + 1}
        </ButtonLink>
      </nav>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Feriados da clínica</CardTitle>
          <CardDescription>
            Feriados municipais, recessos e outros dias sem expediente. Ao adicionar ou remover um dia, os prazos ANS em andamento são recalculados.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {clinic.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nenhum feriado da clínica em {year}.</p>
          ) : (
            <Table>
              <caption className="sr-only">Feriados da clínica em {year}</caption>
              <TableHeader>
                <TableRow>
                  <TableHead>Data</TableHead>
                  <TableHead>Dia da semana</TableHead>
                  <TableHead>Nome</TableHead>
                  {canEdit ? <TableHead className="w-24">Ações</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {clinic.map((holiday) => (
                  <TableRow key={holiday.day}>
                    <TableCell className="tabular-nums">{formatIsoDate(holiday.day)}</TableCell>
                    <TableCell>{weekday(holiday.day)}</TableCell>
                    <TableCell className="font-medium">{holiday.name}</TableCell>
                    {canEdit ? (
                      <TableCell>
                        <RemoveLink to={`${self}&remover=${holiday.day}`} subject={holiday.name} />
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {canEdit ? (
            <Form method="post" className="grid gap-3 rounded-md border p-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end" aria-label="Adicionar feriado">
              <input type="hidden" name="intent" value="create" />
              <div className="grid gap-1.5">
                <Label htmlFor="holiday-day">Data</Label>
                <Input id="holiday-day" name="day" type="date" required aria-describedby="holiday-day-error" />
                {errors?.day ? (
                  <p id="holiday-day-error" className="text-sm text-destructive">
                    {errors.day.join(" ")}
                  </p>
                ) : null}
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="holiday-name">Nome</Label>
                <Input id="holiday-name" name="name" required maxLength={100} placeholder="Aniversário da cidade" aria-describedby="holiday-name-error" />
                {errors?.name ? (
                  <p id="holiday-name-error" className="text-sm text-destructive">
                    {errors.name.join(" ")}
                  </p>
                ) : null}
              </div>
              <Button type="submit">Adicionar feriado</Button>
            </Form>
          ) : null}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Feriados nacionais de {year}</CardTitle>
          <CardDescription>Referência: já descontados dos prazos ANS (inclui pontos facultativos como Carnaval e Corpus Christi).</CardDescription>
        </CardHeader>
        <CardContent>
          <Table>
            <caption className="sr-only">Feriados nacionais de {year}</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Data</TableHead>
                <TableHead>Dia da semana</TableHead>
                <TableHead>Nome</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {national.map((holiday) => (
                <TableRow key={holiday.day}>
                  <TableCell className="tabular-nums">{formatIsoDate(holiday.day)}</TableCell>
                  <TableCell>{weekday(holiday.day)}</TableCell>
                  <TableCell>{holiday.name}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>

      {removing ? (
        <ConfirmDialog
          title="Remover feriado"
          message={`Remover ${removing.name} (${formatIsoDate(removing.day)})? Os prazos ANS em andamento serão recalculados.`}
          fields={{ intent: "delete", day: removing.day }}
          confirmLabel="Remover"
          closeTo={self}
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
