import { type AnsState, type AnsTone, ANS_PROCEDURE_BUSINESS_DAYS, ANS_RESPONSE_BUSINESS_DAYS, ANS_WARNING_BUSINESS_DAYS, ansClockFor } from "./ans";
import { addBusinessDays, businessDaysBetween } from "./business-days";
import type { PipelineStage } from "./pipeline";

/** The ANS clocks' arithmetic (server and seeds: the holiday calendar stays out of the browser). */

/** The last day of the clock that applies in `stage` for a request sent on `requestedOn`, or null. */
export function ansDueOn(stage: PipelineStage, requestedOn: string | null, extraHolidays?: ReadonlySet<string>): string | null {
  const clock = ansClockFor(stage);
  if (!clock || !requestedOn) return null;
  const days = clock === "resposta" ? ANS_RESPONSE_BUSINESS_DAYS : ANS_PROCEDURE_BUSINESS_DAYS;
  return addBusinessDays(requestedOn, days, extraHolidays);
}

export function ansState(stage: PipelineStage, dueOn: string | null, today: string, extraHolidays?: ReadonlySet<string>): AnsState | null {
  const clock = ansClockFor(stage);
  if (!clock || !dueOn) return null;
  const daysLeft = dueOn < today ? -businessDaysBetween(dueOn, today, extraHolidays) : businessDaysBetween(today, dueOn, extraHolidays);
  // Overdue from the day after the last day, even when that day is not a business day.
  const tone: AnsTone = dueOn < today ? "overdue" : daysLeft <= ANS_WARNING_BUSINESS_DAYS ? "warning" : "ok";
  return { clock, dueOn, daysLeft, tone };
}

