import { CalendarDays, CalendarRange, ChevronLeft, ChevronRight, LayoutGrid, Plus } from "~/components/icons";
import { Form, useLocation, useSubmit } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { DayView, MonthView, WeekView, unpackScheduleDays } from "~/components/schedule/schedule-views";
import { Button, ButtonLink } from "~/components/ui/button";
import { Select } from "~/components/ui/select";
import { TabsNav } from "~/components/ui/tabs-nav";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { todayIsoInClinic } from "~/lib/dates";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { can } from "~/lib/permissions";
import {
  type ScheduleView,
  daysWithEntries,
  listScheduleDoctors,
  listScheduleEntries,
  parseScheduleParams,
  scheduleDaysForPage,
  scheduleEntryOptions,
  schedulePeriod,
} from "~/models/schedule.server";
import type { Route } from "./+types/schedule";
import { registryLabel } from "~/lib/form-options";
import { optionsOf } from "~/models/filter-options.server";

export const handle = { title: "Agenda", subtitle: "Consultas por dia, semana e mês" };
export const meta: Route.MetaFunction = () => [{ title: "Agenda · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "appointments", "view");
  const today = todayIsoInClinic();
  const params = parseScheduleParams(routeUrl(request), today);
  const doctors = listScheduleDoctors(params.doctorId);
  // An unknown doctor id (deleted, hand-typed) shows everyone rather than an empty agenda.
  const doctorId = params.doctorId !== null && doctors.some((d) => d.id === params.doctorId) ? params.doctorId : null;
  const period = schedulePeriod(params.view, params.date, today);
  const entries = listScheduleEntries(period.days, scheduleEntryOptions(period.view, doctorId));

  return {
    view: period.view,
    date: period.date,
    title: period.title,
    previousDate: period.previousDate,
    nextDate: period.nextDate,
    days: scheduleDaysForPage(daysWithEntries(period, entries), period.view),
    doctorId,
    doctors: optionsOf(doctors, scheduleDoctor),
    permissions: {
      edit: can(user, "appointments", "edit"),
      create: can(user, "appointments", "create"),
    },
  };
}

type LoaderData = Route.ComponentProps["loaderData"];

/** The canonical URL of a schedule state (the doctor filter is kept; 'Hoje' leaves the date out). */
function scheduleHref(view: ScheduleView, date: string | null, doctorId: number | null) {
  const params = new URLSearchParams({ view });
  if (date) params.set("date", date);
  if (doctorId) params.set("doctor", String(doctorId));
  return `/schedule?${params}`;
}

// Kept here, not in the .server model: the component needs them in the browser bundle.
const VIEW_LABELS: Record<ScheduleView, string> = { day: "Dia", week: "Semana", month: "Mês" };
const VIEW_ICONS = { day: CalendarDays, week: CalendarRange, month: LayoutGrid } as const;

/** A doctor of the schedule's doctor select, inactive ones marked. */
function scheduleDoctor(doctor: { id: number; name: string; active: boolean }) {
  return { id: doctor.id, name: registryLabel(doctor) };
}

export default function SchedulePage({ loaderData }: Route.ComponentProps) {
  const { view, date, title, previousDate, nextDate, doctorId, permissions } = loaderData;
  const days = unpackScheduleDays(loaderData.days);
  const here = useLocation();
  const href = (v: ScheduleView, d: string | null) => scheduleHref(v, d, doctorId);
  const dayHref = (d: string) => href("day", d);
  const unit = view === "day" ? "Dia" : view === "week" ? "Semana" : "Mês";

  return (
    <div className="space-y-4">
      {/* The views, the doctor filter and the period's links, kept per URL and what they show (ADR 0025). */}
      <CachedElement
        as="div"
        id="schedule-controls"
        cacheKey={cacheKeyOf(["schedule-controls", here.pathname + here.search, view, date, doctorId, permissions.create], loaderData.doctors)}
        className="flex flex-wrap items-end justify-between gap-3"
      >
        <TabsNav
          label="Visualização da agenda"
          items={(["day", "week", "month"] as const).map((v) => ({
            to: href(v, date),
            label: VIEW_LABELS[v],
            icon: VIEW_ICONS[v],
            active: v === view,
          }))}
        />
        <div className="flex flex-wrap items-end gap-2">
          <DoctorFilter loaderData={loaderData} />
          {permissions.create ? (
            <ButtonLink to={`/appointments?${new URLSearchParams({ dialog: "new", returnTo: here.pathname + here.search })}`}>
              <Plus aria-hidden />
              Nova consulta
            </ButtonLink>
          ) : null}
        </div>
      </CachedElement>

      <CachedElement
        as="div"
        id="schedule-period-nav"
        cacheKey={cacheKeyOf(["schedule-period-nav", view, title, previousDate, nextDate, doctorId])}
        className="flex flex-wrap items-center justify-between gap-3"
      >
        <h2 className="text-xl font-semibold first-letter:uppercase" aria-live="polite" data-testid="schedule-period">
          {title}
        </h2>
        <nav aria-label="Navegar entre períodos" className="flex gap-2">
          <ButtonLink to={href(view, previousDate)} variant="outline" size="sm" title={`${unit} anterior`} preventScrollReset>
            <ChevronLeft aria-hidden />
            Anterior
          </ButtonLink>
          <ButtonLink to={href(view, null)} variant="outline" size="sm" preventScrollReset>
            Hoje
          </ButtonLink>
          <ButtonLink to={href(view, nextDate)} variant="outline" size="sm" title={`${unit} seguinte`} preventScrollReset>
            Próximo
            <ChevronRight aria-hidden />
          </ButtonLink>
        </nav>
      </CachedElement>

      {view === "day" ? <DayView day={days[0]} canEdit={permissions.edit} /> : null}
      {view === "week" ? <WeekView days={days} canEdit={permissions.edit} dayHref={dayHref} /> : null}
      {view === "month" ? <MonthView title={title} days={days} canEdit={permissions.edit} dayHref={dayHref} /> : null}
    </div>
  );
}

/** A GET form: the filter is part of the URL and works without JavaScript; with it, choosing submits. */
function DoctorFilter({ loaderData }: { loaderData: LoaderData }) {
  const { view, date, doctorId, doctors } = loaderData;
  const submit = useSubmit();
  return (
    <Form method="get" action="/schedule" className="flex items-end gap-2" preventScrollReset>
      <input type="hidden" name="view" value={view} />
      <input type="hidden" name="date" value={date} />
      <div className="grid gap-1">
        <label htmlFor="schedule-doctor" className="text-xs font-medium text-muted-foreground">
          Médico
        </label>
        <Select
          key={doctorId ?? "all"}
          id="schedule-doctor"
          name="doctor"
          defaultValue={doctorId ?? ""}
          wrapperClassName="w-56"
          onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
        >
          <option value="">Todos os médicos</option>
          {doctors.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" variant="outline">
        Filtrar
      </Button>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
