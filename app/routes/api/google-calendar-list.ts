import { data } from "react-router";
import { requirePermission } from "~/.server/auth";
import { GOOGLE_MESSAGES, GoogleError } from "~/.server/google";
import { listCalendars } from "~/.server/google-calendar";
import type { Route } from "./+types/google-calendar-list";

/**
 * GET /api/google/calendar/list (SPEC §7) → `{ calendars: [{ id, summary, description, timeZone }] }`;
 * 409 when the clinic's account is not connected, 502 `{ error: 'Falha ao carregar calendários' }`.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "googleCalendar", "view");
  try {
    const calendars = await listCalendars();
    if (!calendars) return data({ error: GOOGLE_MESSAGES.notConnected }, { status: 409 });
    return Response.json({ calendars: calendars.map(({ id, summary, description, timeZone }) => ({ id, summary, description, timeZone })) });
  } catch (error) {
    if (error instanceof GoogleError) return data({ error: GOOGLE_MESSAGES.calendarsFailed }, { status: 502 });
    throw error;
  }
}
