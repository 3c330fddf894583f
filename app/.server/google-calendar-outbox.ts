/**
 * The outbox of the Google Calendar push (docs/decisions/0020-google-integration.md): the
 * appointment and surgery models call `enqueueCalendarPush` inside their write's transaction. Kept
 * apart from the worker (google-calendar-push.ts) so the models do not load the Google client.
 */
import { and, eq, isNull } from "drizzle-orm";
import { googleCalendarEvents, googleCalendarOutbox, googleCalendarSettings } from "~db/schema";
import { wakeWorker } from "./background-worker";
import type { DB, Tx } from "./db";

export type CalendarSource = (typeof googleCalendarOutbox.$inferSelect)["source"];

/**
 * Records that `source #sourceId` changed, inside the caller's transaction. Nothing is queued while
 * the push is off, unless the record already has an event (so it is kept right, or removed).
 * A change of a record already waiting folds into its row (the worker reads the record when it runs).
 */
export function enqueueCalendarPush(tx: Tx | DB, source: CalendarSource, sourceId: number, now = new Date()) {
  const settings = tx.select({ syncMode: googleCalendarSettings.syncMode }).from(googleCalendarSettings).where(eq(googleCalendarSettings.id, 1)).get();
  if (!settings || settings.syncMode === "off") {
    const event = tx
      .select({ live: googleCalendarEvents.live })
      .from(googleCalendarEvents)
      .where(and(eq(googleCalendarEvents.source, source), eq(googleCalendarEvents.sourceId, sourceId)))
      .get();
    if (!event?.live) return;
  }
  const pending = tx
    .select({ id: googleCalendarOutbox.id })
    .from(googleCalendarOutbox)
    .where(and(eq(googleCalendarOutbox.source, source), eq(googleCalendarOutbox.sourceId, sourceId), isNull(googleCalendarOutbox.failedAt)))
    .get();
  if (pending) {
    // attempts back to 0: a pass holding the row sees the change and leaves the row for another pass.
    tx.update(googleCalendarOutbox).set({ attempts: 0, nextAttemptAt: now, error: null }).where(eq(googleCalendarOutbox.id, pending.id)).run();
  } else {
    tx.insert(googleCalendarOutbox).values({ source, sourceId, nextAttemptAt: now }).run();
  }
  // A pass soon after the commit (the worker's name: google-calendar-push.ts), instead of at the next tick.
  wakeWorker("Google Calendar", 50);
}

