import { CalendarX } from "~/components/icons";
import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { EmptyState } from "~/components/empty-state";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { PatientLink } from "~/components/patient-link";
import { type BadgeVariant, Badge } from "~/components/ui/badge";
import { formatInClinic, formatTime } from "~/lib/dates";
import { APPOINTMENT_STATUS_LABELS, type AppointmentStatus, labelFor } from "~/lib/enums";
import { type PackedRows, keptFor, unpackRows } from "~/lib/packed-rows";
import type { PackedScheduleDay, ScheduleDayWithEntries, ScheduleEntry } from "~/models/schedule.server";

/* The day, week and month views of /schedule: each entry a link to its appointment (for editors). */

type Day = ScheduleDayWithEntries;
type Entry = ScheduleEntry;

const unpackedDays = new WeakMap<object, Day[]>();

/**
 * The days the loader packed (`scheduleDaysForPage`), each with its entries, unpacked once per
 * packed value: every view of the same schedule gets the same days, whose JSON the views' kept
 * markup key then makes once (`viewKey`). On the server the entries are the very rows packed.
 */
export function unpackScheduleDays(packed: PackedRows<PackedScheduleDay>): Day[] {
  return keptFor(unpackedDays, packed, () => unpackRows(packed).map((day) => ({ ...day, entries: unpackRows(day.entries) })));
}

// ── Entries ─────────────────────────────────────────────────────────────────

const STATUS_VARIANTS: Record<AppointmentStatus, BadgeVariant> = {
  scheduled: "info",
  confirmed: "success",
  completed: "secondary",
  cancelled: "destructive",
};

function statusLabel(status: string) {
  return labelFor(APPOINTMENT_STATUS_LABELS, status);
}

/** 'HH:mm–HH:mm'; an end (or start) on another day carries its date ('23:30–00:30 (23/11)'). */
function timeRange(entry: Entry, day: Day) {
  const start = entry.startTime < day.start ? `${formatInClinic(entry.startTime, "dd/MM")} ${formatTime(entry.startTime)}` : formatTime(entry.startTime);
  const end = entry.endTime > day.end ? `${formatTime(entry.endTime)} (${formatInClinic(entry.endTime, "dd/MM")})` : formatTime(entry.endTime);
  return `${start}–${end}`;
}

/**
 * The link to an entry's edit dialog, for those who may edit: saving or closing the dialog comes
 * back to this view of the schedule. The view's part of it is worked out once per page.
 */
function useEditHref(canEdit: boolean): ((id: number) => string) | null {
  const here = useLocation();
  if (!canEdit) return null;
  const back = new URLSearchParams({ returnTo: here.pathname + here.search }).toString();
  return (id) => `/appointments?edit=${id}&${back}`;
}

/**
 * The key the view's markup is kept under (docs/decisions/0025-cached-shell-markup.md): its days
 * (entries, totals, labels, 'today'), the edit links' form and the day links' form (which carry the
 * doctor filter). A busy day or month is a hundred entries; between changes, every view of it sends
 * the same markup. The days are kept objects on the server until the appointments, patients or
 * doctors are written (the loader's `daysWithEntries`), so their JSON is made once.
 */
function viewKey(view: string, days: Day[], editHref: ((id: number) => string) | null, dayHref: ((date: string) => string) | null) {
  return cacheKeyOf([view, editHref && editHref(0), dayHref && dayHref(days[0].date)], ...days);
}

/** The entry opens the appointment's edit dialog for those who may edit; otherwise it is plain text. */
function EntryLink({ href, className, children }: { href: string | null; className?: string; children: ReactNode }) {
  if (!href) return <span className={className}>{children}</span>;
  return (
    <Link to={href} className={className ? `entry-link ${className}` : "entry-link"}>
      {children}
    </Link>
  );
}

export function DayView({ day, canEdit }: { day: Day; canEdit: boolean }) {
  const editHref = useEditHref(canEdit);
  if (day.entries.length === 0) {
    return <EmptyState icon={CalendarX} title="Nenhuma consulta neste dia" className="bg-card" />;
  }
  return (
    <>
    {day.total > day.entries.length ? (
      <p role="status" className="text-sm text-muted-foreground">
        Mostrando as primeiras {day.entries.length} de {day.total} consultas deste dia. Escolha um médico para ver a agenda dele inteira.
      </p>
    ) : null}
    <CachedElement
      as="ol"
      id="day-entries"
      cacheKey={viewKey("day", [day], editHref, null)}
      aria-label={`Consultas de ${day.label}`}
      className="divide-y rounded-xl border bg-card text-card-foreground shadow-sm"
      data-date={day.date}
    >
      {() => day.entries.map((entry) => (
        <li key={entry.id} className="day-entry">
          <p className="day-entry-time">
            <EntryLink href={editHref && editHref(entry.id)}>
              <time dateTime={new Date(entry.startTime).toISOString()}>{timeRange(entry, day)}</time>
            </EntryLink>
          </p>
          <div className="day-entry-details">
            <p className="font-medium">
              <PatientLink id={entry.patientId} name={entry.patientName} />
            </p>
            <p className="text-sm text-muted-foreground">
              {`${entry.doctorName}${entry.type ? ` · ${entry.type}` : ""}${entry.location ? ` · ${entry.location}` : ""}`}
            </p>
          </div>
          <Badge variant={STATUS_VARIANTS[entry.status] ?? "outline"}>{statusLabel(entry.status)}</Badge>
        </li>
      ))}
    </CachedElement>
    </>
  );
}

/** One line of a week column or month cell: status colour, time, patient (and doctor). A week shows a hundred: its classes are app.css's short ones. */
function CompactEntry({ entry, day, href, showDoctor }: { entry: Entry; day: Day; href: string | null; showDoctor: boolean }) {
  const range = timeRange(entry, day);
  const status = statusLabel(entry.status);
  return (
    <li
      className={`schedule-entry entry-${entry.status}`}
      title={`${range} · ${entry.patientName} · ${entry.doctorName} · ${status}`}
    >
      <EntryLink href={href}>
        <span className="entry-time">{showDoctor || entry.startTime < day.start ? range : formatTime(entry.startTime)}</span>{" "}
        <span className={entry.status === "cancelled" ? "line-through" : undefined}>{entry.patientName}</span>
        {showDoctor ? <span className="entry-doctor">{entry.doctorName}</span> : null}
        <span className="sr-only">{` (${status})`}</span>
      </EntryLink>
    </li>
  );
}

/** '+N mais' under a week column or month cell whose entries were capped: a link to its Day view. */
function MoreLink({ day, href }: { day: Day; href: string }) {
  const more = day.total - day.entries.length;
  if (more <= 0) return null;
  return (
    <Link to={href} className="day-more">
      {`+${more} mais`}
      <span className="sr-only">{` consultas em ${day.label}`}</span>
    </Link>
  );
}

export function WeekView({ days, canEdit, dayHref }: { days: Day[]; canEdit: boolean; dayHref: (date: string) => string }) {
  const editHref = useEditHref(canEdit);
  return (
    <CachedElement as="div" id="week-days" cacheKey={viewKey("week", days, editHref, dayHref)} className="grid gap-3 lg:grid-cols-7">
      {() => days.map((day) => (
        <section key={day.date} aria-labelledby={`week-day-${day.date}`} data-date={day.date} data-today={day.isToday || undefined} className="week-day">
          <h3 id={`week-day-${day.date}`} className="text-sm">
            <Link
              to={dayHref(day.date)}
              aria-label={`${day.label}${day.isToday ? " (hoje)" : ""}`}
              aria-current={day.isToday ? "date" : undefined}
              className="week-day-link"
            >
              <span className="text-muted-foreground capitalize">{day.weekday}</span>
              <span className="week-day-number">{day.dayNumber}</span>
              {day.isToday ? <span className="text-xs font-medium text-primary">Hoje</span> : null}
            </Link>
          </h3>
          {day.entries.length > 0 ? (
            <ul className="space-y-1.5">
              {day.entries.map((entry) => (
                <CompactEntry key={entry.id} entry={entry} day={day} href={editHref && editHref(entry.id)} showDoctor />
              ))}
            </ul>
          ) : (
            <p className="px-1 text-xs text-muted-foreground">Sem consultas</p>
          )}
          <MoreLink day={day} href={dayHref(day.date)} />
        </section>
      ))}
    </CachedElement>
  );
}

export function MonthView({ title, days, canEdit, dayHref }: { title: string; days: Day[]; canEdit: boolean; dayHref: (date: string) => string }) {
  const editHref = useEditHref(canEdit);
  const weeks: Day[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return (
    // `relative` keeps the sr-only texts (absolutely positioned) inside the scrolling box.
    <div className="relative max-w-full overflow-x-auto rounded-xl border bg-card text-card-foreground shadow-sm">
      <table className="w-full min-w-[44rem] table-fixed border-collapse" aria-label={`Calendário de ${title}`}>
        <thead>
          <tr>
            {weeks[0].map((day) => (
              <th key={day.weekdayName} scope="col" abbr={day.weekdayName} className="border-b px-2 py-2 text-left text-xs font-medium text-muted-foreground capitalize">
                {day.weekday}
              </th>
            ))}
          </tr>
        </thead>
        <CachedElement as="tbody" id="month-weeks" cacheKey={viewKey("month", days, editHref, dayHref)}>
          {() => weeks.map((week) => (
            <tr key={week[0].date}>
              {week.map((day) => (
                <td key={day.date} data-date={day.date} data-outside={day.inPeriod ? undefined : "true"} className="month-day">
                  <Link
                    to={dayHref(day.date)}
                    aria-label={`${day.label}${day.isToday ? " (hoje)" : ""}${day.total ? `, ${day.total} ${day.total === 1 ? "consulta" : "consultas"}` : ""}`}
                    aria-current={day.isToday ? "date" : undefined}
                    className="day-number"
                  >
                    {day.dayNumber}
                  </Link>
                  {day.entries.length > 0 ? (
                    <ul className="mt-1 space-y-1">
                      {day.entries.map((entry) => (
                        <CompactEntry key={entry.id} entry={entry} day={day} href={editHref && editHref(entry.id)} showDoctor={false} />
                      ))}
                    </ul>
                  ) : null}
                  <MoreLink day={day} href={dayHref(day.date)} />
                </td>
              ))}
            </tr>
          ))}
        </CachedElement>
      </table>
    </div>
  );
}
