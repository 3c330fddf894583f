import { getHolidays } from "@brazilian-utils/brazilian-utils/get-holidays";
import { and, asc, between, eq, gte, isNotNull } from "drizzle-orm";
import { clinicHolidays, surgeries } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { ansDueOn } from "~/lib/ans-clock";
import { nationalHolidays } from "~/lib/business-days";
import { isoDateInClinic } from "~/lib/dates";
import type { PipelineStage } from "~/lib/pipeline";
import type { HolidayInput } from "~/validation/holiday";
import { clinicHolidaySet } from "./pipeline.server";

/**
 * The clinic's own non-business days (Configurações → Feriados) and the national calendar they add
 * to. A change recomputes the ANS clocks still running that it can move (ADR 0021).
 */
export class HolidayError extends DomainError<keyof HolidayInput & string> {}

/** A clinic holiday per day; a year holds at most 366. */
export function listClinicHolidays(year: number) {
  return db
    .select({ day: clinicHolidays.day, name: clinicHolidays.name })
    .from(clinicHolidays)
    .where(between(clinicHolidays.day, `${year}-01-01`, `${year}-12-31`))
    .orderBy(asc(clinicHolidays.day))
    .limit(366)
    .all();
}

function iso(date: Date) {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

/**
 * The national days off of a year as the ANS clocks count them (app/lib/business-days.ts), with
 * their names: the library's national holidays and pontos facultativos, plus Carnaval Monday.
 */
export function nationalHolidayList(year: number): Array<{ day: string; name: string }> {
  const named = new Map<string, string>();
  for (const holiday of getHolidays({ year })) {
    if (holiday.type === "state") continue;
    named.set(iso(holiday.date), holiday.name);
  }
  return [...nationalHolidays(year)].sort().map((day) => ({ day, name: named.get(day) ?? "Carnaval (segunda-feira)" }));
}

/**
 * Clocks a change of `day` can move: running (a due day on or after it) and started before it.
 * Read through the partial index on `ans_due_on`; each recomputed with the new calendar.
 */
function recomputeClocks(tx: Tx, day: string): number {
  const holidays = clinicHolidaySet(tx);
  const running = tx
    .select({ id: surgeries.id, stage: surgeries.currentStage, requestedAt: surgeries.ansRequestedAt, dueOn: surgeries.ansDueOn })
    .from(surgeries)
    .where(and(isNotNull(surgeries.ansDueOn), gte(surgeries.ansDueOn, day)))
    .all();
  let changed = 0;
  for (const clock of running) {
    const requestedOn = clock.requestedAt ? isoDateInClinic(clock.requestedAt) : null;
    if (!requestedOn || requestedOn >= day) continue;
    const due = ansDueOn(clock.stage as PipelineStage, requestedOn, holidays);
    if (due && due !== clock.dueOn) {
      tx.update(surgeries).set({ ansDueOn: due }).where(eq(surgeries.id, clock.id)).run();
      changed++;
    }
  }
  return changed;
}

export function addClinicHoliday(userId: number, input: HolidayInput): number {
  return db.transaction((tx) => {
    if (tx.select({ day: clinicHolidays.day }).from(clinicHolidays).where(eq(clinicHolidays.day, input.day)).get()) {
      throw new HolidayError("Já existe um feriado da clínica nesta data.", "day");
    }
    tx.insert(clinicHolidays).values(input).run();
    const clocks = recomputeClocks(tx, input.day);
    recordAudit(tx, { userId, action: "create", entity: "clinic_holiday", entityId: input.day, changes: { ...input, recomputedClocks: clocks } });
    return clocks;
  });
}

export function removeClinicHoliday(userId: number, day: string): number {
  return db.transaction((tx) => {
    const before = tx.select().from(clinicHolidays).where(eq(clinicHolidays.day, day)).get();
    if (!before) throw new HolidayError("Feriado não encontrado.");
    tx.delete(clinicHolidays).where(eq(clinicHolidays.day, day)).run();
    const clocks = recomputeClocks(tx, day);
    recordAudit(tx, { userId, action: "delete", entity: "clinic_holiday", entityId: day, changes: { recomputedClocks: clocks } });
    return clocks;
  });
}
