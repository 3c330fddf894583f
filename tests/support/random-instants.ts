import { startOfIsoDateInClinic } from "~/lib/dates";
import type { Random } from "~db/seed/random";

const DAY_MS = 86_400_000;

/**
 * A random instant of the São Paulo day `day`: often at, just before or within a minute of its
 * midnight (where a day's or month's edge is decided), else anywhere in the day.
 */
export function randomInstantOf(rng: Random, day: string): number {
  const start = startOfIsoDateInClinic(day)!.getTime();
  const r = rng.next();
  if (r < 0.2) return start + rng.int(-60_000, 60_000);
  if (r < 0.25) return start;
  if (r < 0.3) return start - 1;
  return start + rng.int(0, DAY_MS - 1);
}
