import { isBusinessDay } from "../business-days";
import { formatInClinic } from "../dates";

/**
 * CBHPM item 2.1 (DOMAIN.md §1): an act is urgent when it happens between 19h and 7h, or at any
 * hour on a Saturday, Sunday or holiday (national, Carnaval, the clinic's own days). An act that
 * starts in normal hours is urgent when more than half of it falls in the urgency period.
 */

const STEP_MINUTES = 5;
const MINUTE_MS = 60_000;

export type UrgencyReason = "noturno" | "fim_de_semana" | "feriado" | "maior_parte";

export const URGENCY_REASON_LABELS: Record<UrgencyReason, string> = {
  noturno: "entre 19h e 7h",
  fim_de_semana: "fim de semana",
  feriado: "feriado",
  maior_parte: "mais da metade do ato no período de urgência",
};

/** Why this instant (São Paulo wall time) is in the urgency period, or null when it is not. */
export function urgencyAt(instant: Date, extraHolidays: ReadonlySet<string> = new Set()): Exclude<UrgencyReason, "maior_parte"> | null {
  const day = formatInClinic(instant, "yyyy-MM-dd");
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return "fim_de_semana";
  if (!isBusinessDay(day, extraHolidays)) return "feriado";
  const hour = Number(formatInClinic(instant, "HH"));
  return hour >= 19 || hour < 7 ? "noturno" : null;
}

/** Whether a surgery starting at `start` and lasting `durationMin` (unknown: the start alone decides) is urgent, and why. */
export function deriveUrgency(
  start: Date,
  durationMin: number | null,
  extraHolidays: ReadonlySet<string> = new Set(),
): { urgent: boolean; reason: UrgencyReason | null } {
  const atStart = urgencyAt(start, extraHolidays);
  if (atStart) return { urgent: true, reason: atStart };
  if (!durationMin || durationMin <= 0) return { urgent: false, reason: null };
  const steps = Math.ceil(Math.min(durationMin, 24 * 60) / STEP_MINUTES);
  let inside = 0;
  for (let i = 0; i < steps; i++) {
    if (urgencyAt(new Date(start.getTime() + (i * STEP_MINUTES + STEP_MINUTES / 2) * MINUTE_MS), extraHolidays)) inside++;
  }
  return inside * 2 > steps ? { urgent: true, reason: "maior_parte" } : { urgent: false, reason: null };
}
