import { z } from "zod";
import { isoDate, requiredText } from "./common";

/** A clinic holiday (Configurações → Feriados): the day and what it is. */
export const holidaySchema = z.object({
  day: isoDate({ required: "Informe a data do feriado" }),
  name: requiredText("Informe o nome do feriado", 100),
});
export type HolidayInput = z.infer<typeof holidaySchema>;

export const holidayDaySchema = z.object({ day: isoDate({ required: "Informe a data do feriado" }) });
