import path from "node:path";
import { eq } from "drizzle-orm";
import { backupSettings } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { type BackupResult, backupDir, listBackups, makeBackup } from "~/.server/backup";
import { db, sqlite } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { formatInClinic, isoDateInClinic } from "~/lib/dates";
import type { BackupScheduleInput } from "~/validation/backup";

export type BackupSettings = typeof backupSettings.$inferSelect;

/** The single row (migration 0004 creates it; a database seeded before still gets one). */
export function getBackupSettings(): BackupSettings {
  const row = db.select().from(backupSettings).where(eq(backupSettings.id, 1)).get();
  if (row) return row;
  db.insert(backupSettings).values({ id: 1 }).onConflictDoNothing().run();
  return db.select().from(backupSettings).where(eq(backupSettings.id, 1)).get()!;
}

export function updateBackupSchedule(userId: number, input: BackupScheduleInput) {
  const before = getBackupSettings();
  db.transaction((tx) => {
    tx.update(backupSettings).set(input).where(eq(backupSettings.id, 1)).run();
    recordAudit(tx, { userId, action: "update", entity: "backup_settings", entityId: 1, changes: diffChanges(before, input) });
  });
}

export class BackupError extends DomainError<never> {}

/** The backup being made, if any: when it began. */
let running: { readonly startedAt: Date } | null = null;

/** When the backup being made began, or null when none is being made. */
export function backupInProgress(): { readonly startedAt: Date } | null {
  return running;
}

/** One backup at a time: refuses a second while one is being made. */
function assertNoBackupRunning() {
  if (running) throw new BackupError("Já há um backup em andamento. Aguarde a conclusão.");
}

/**
 * Backs the database up now, records it in the audit trail and in the settings row (its file, or
 * why it failed). One backup at a time. The copy and its check run in a worker thread
 * (app/.server/backup.ts), so the server keeps answering meanwhile.
 */
export async function runBackup(userId: number | null, trigger: "manual" | "daily"): Promise<BackupResult> {
  assertNoBackupRunning();
  const settings = getBackupSettings();
  running = { startedAt: new Date() };
  try {
    const result = await makeBackup(sqlite, { retention: settings.retention });
    db.transaction((tx) => {
      tx.update(backupSettings).set({ lastRunAt: new Date(), lastFile: path.basename(result.file), lastError: null }).where(eq(backupSettings.id, 1)).run();
      recordAudit(tx, {
        userId,
        action: "backup",
        entity: "database",
        changes: { file: path.basename(result.file), documents: result.documents !== null, trigger, removed: result.removed.length },
      });
    });
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    db.update(backupSettings).set({ lastRunAt: new Date(), lastError: message.slice(0, 500) }).where(eq(backupSettings.id, 1)).run();
    throw new BackupError(`Falha no backup: ${message}`);
  } finally {
    running = null;
  }
}

/**
 * 'Fazer backup agora': starts a backup and returns at once, with when it began. A large database
 * takes a while (20 s for 1.5 GB), and the screen shows it under way until it ends; how it ended is
 * the settings row's (`lastFile`, or `lastError`), as for the daily backup.
 */
export function startBackup(userId: number): { readonly startedAt: Date } {
  // Here, not only in runBackup: an async function's throw would reach the screen as a rejection.
  assertNoBackupRunning();
  // Its failure is kept in the settings row and shown on the screen.
  runBackup(userId, "manual").catch((error) => console.error("Backup failed", error));
  return backupInProgress()!;
}

/** The backups on disk, newest first (at most `limit`: the retention keeps the folder small). */
export function backupFiles(limit = 50) {
  return listBackups().slice(0, limit).map((b) => ({ name: b.name, size: b.size, createdAt: b.createdAt, documents: b.documents !== null }));
}

export { backupDir };

/** Whether the daily backup is due at `now`: enabled, past its hour today, and not yet run today. */
export function dailyBackupDue(settings: BackupSettings, now = new Date()): boolean {
  if (!settings.dailyEnabled) return false;
  const hour = Number(formatInClinic(now, "H"));
  if (hour < settings.dailyHour) return false;
  return !settings.lastRunAt || isoDateInClinic(settings.lastRunAt) !== isoDateInClinic(now);
}

declare global {
  // One timer per process, across dev-server module reloads.
  var __sinapseDailyBackup: NodeJS.Timeout | undefined;
}

const CHECK_EVERY_MS = 10 * 60 * 1000;

/** Starts the server's check for the daily backup (every ten minutes; off unless enabled in Configurações). */
export function startDailyBackups() {
  if (globalThis.__sinapseDailyBackup || process.env.VITEST) return;
  globalThis.__sinapseDailyBackup = setInterval(() => {
    try {
      if (dailyBackupDue(getBackupSettings())) runBackup(null, "daily").catch((error) => console.error("Daily backup failed", error));
    } catch (error) {
      console.error("Daily backup check failed", error);
    }
  }, CHECK_EVERY_MS);
  globalThis.__sinapseDailyBackup.unref();
}

// The server bundle evaluates this module when it starts (the backups route imports it), so the
// check runs in every server process; tests (VITEST) do not start it.
startDailyBackups();
