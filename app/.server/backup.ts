/**
 * Backups of the database and of the stored documents (ADR 0011, README 'Backups').
 *
 *   BACKUP_DIR      where backups go (default db/backups/, gitignored)
 *   DOCUMENTS_DIR   the stored documents, copied beside each backup when the directory exists
 *                   (default db/documents/)
 *
 * A backup is `sinapse-<UTC time>.sqlite` (an online copy through SQLite's backup API, checked
 * with PRAGMA integrity_check before it gets its final name) and, when there are documents,
 * `sinapse-<UTC time>.documents/`. Files are 0600 and directories 0700. After a good backup only
 * the newest `retention` backups are kept.
 *
 * No import of ./db: the command-line scripts open their own connection, and a restore must hold
 * none on the file it replaces.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { appendEntry } from "./audit-chain";

export const BACKUP_PREFIX = "sinapse-";
const BACKUP_NAME = /^sinapse-\d{8}-\d{6}-\d{3}Z\.sqlite$/;

export function backupDir(): string {
  return path.resolve(process.env.BACKUP_DIR ?? "db/backups");
}

export function documentsDir(): string {
  return path.resolve(process.env.DOCUMENTS_DIR ?? "db/documents");
}

/** '20261123-071000-123Z': sorts as it happened, and is safe in any file system. */
function stamp(now: Date) {
  return now.toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-");
}

/** `PRAGMA integrity_check` of a database file: "ok", or the first problems SQLite reports. */
export function integrityOf(file: string): string {
  let conn: Database.Database | undefined;
  try {
    conn = new Database(file, { readonly: true, fileMustExist: true });
    const rows = conn.pragma("integrity_check") as { integrity_check: string }[];
    const result = rows.map((r) => r.integrity_check).join("; ");
    if (result !== "ok") return result;
    // A file SQLite can read but that is not one of ours is not a backup to restore either.
    const tables = conn.prepare("select count(*) from sqlite_master where type = 'table' and name in ('users', 'audit_log', 'patients')").pluck().get();
    return tables === 3 ? "ok" : "não é um banco do Sinapse";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    conn?.close();
  }
}

/** Copies a directory tree with owner-only permissions (files 0600, directories 0700). */
function copyPrivate(from: string, to: string) {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const dirent of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, dirent.name);
    const target = path.join(to, dirent.name);
    if (dirent.isDirectory()) copyPrivate(source, target);
    else if (dirent.isFile()) {
      fs.copyFileSync(source, target);
      fs.chmodSync(target, 0o600);
    }
  }
  fs.chmodSync(to, 0o700);
}

export interface BackupInfo {
  file: string;
  name: string;
  size: number;
  createdAt: Date;
  documents: string | null;
}

/** The backups in the directory, newest first. */
export function listBackups(dir = backupDir()): BackupInfo[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .reverse()
    .map((name) => {
      const file = path.join(dir, name);
      const stat = fs.statSync(file);
      const documents = file.replace(/\.sqlite$/, ".documents");
      return { file, name, size: stat.size, createdAt: stat.mtime, documents: fs.existsSync(documents) ? documents : null };
    });
}

export interface BackupResult {
  file: string;
  documents: string | null;
  size: number;
  removed: string[];
}

/**
 * Makes a backup of the database `source` is connected to, while it keeps serving (the backup API
 * copies pages between the server's writes), checks it, and applies the retention.
 */
export async function makeBackup(
  source: Database.Database,
  options: { dir?: string; documents?: string; retention?: number; now?: Date } = {},
): Promise<BackupResult> {
  const dir = options.dir ?? backupDir();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const at = (options.now ?? new Date()).getTime();
  let name = `${BACKUP_PREFIX}${stamp(new Date(at))}`;
  for (let n = 1; fs.existsSync(path.join(dir, `${name}.sqlite`)); n += 1) name = `${BACKUP_PREFIX}${stamp(new Date(at + n))}`;
  const file = path.join(dir, `${name}.sqlite`);
  const partial = `${file}.partial`;
  try {
    await source.backup(partial);
    fs.chmodSync(partial, 0o600);
    // A stand-alone file: no WAL beside it, whatever mode the live database is in.
    const copy = new Database(partial);
    copy.pragma("journal_mode = DELETE");
    copy.close();
    const integrity = integrityOf(partial);
    if (integrity !== "ok") throw new Error(`A cópia não passou na verificação de integridade: ${integrity}`);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }

  let documents: string | null = null;
  const docs = options.documents ?? documentsDir();
  if (fs.existsSync(docs) && fs.statSync(docs).isDirectory()) {
    documents = path.join(dir, `${name}.documents`);
    copyPrivate(docs, documents);
  }

  const removed: string[] = [];
  const keep = Math.max(1, options.retention ?? 14);
  for (const old of listBackups(dir).slice(keep)) {
    fs.rmSync(old.file, { force: true });
    if (old.documents) fs.rmSync(old.documents, { recursive: true, force: true });
    removed.push(old.name);
  }
  return { file, documents, size: fs.statSync(file).size, removed };
}

export interface RestoreResult {
  restored: string;
  previous: string | null;
  previousDocuments: string | null;
}

/**
 * Replaces the database at `target` with the backup `file`, after checking the backup. The current
 * database is kept beside it as `<name>.before-restore-<time>` (its WAL folded in first), and so are
 * the current documents when the backup brings its own. Run with the server stopped.
 */
export function restoreBackup(file: string, target: string, options: { documents?: string; now?: Date } = {}): RestoreResult {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new Error(`Arquivo não encontrado: ${source}`);
  const integrity = integrityOf(source);
  if (integrity !== "ok") throw new Error(`O backup não passou na verificação de integridade: ${integrity}`);

  const suffix = `.before-restore-${stamp(options.now ?? new Date())}`;
  const incoming = `${target}.restoring`;
  fs.copyFileSync(source, incoming);
  fs.chmodSync(incoming, 0o600);
  if (integrityOf(incoming) !== "ok") {
    fs.rmSync(incoming, { force: true });
    throw new Error("A cópia do backup não passou na verificação de integridade.");
  }

  let previous: string | null = null;
  if (fs.existsSync(target)) {
    const current = new Database(target);
    current.pragma("wal_checkpoint(TRUNCATE)");
    current.close();
    previous = `${target}${suffix}`;
    fs.renameSync(target, previous);
    for (const extra of ["-wal", "-shm", "-journal"]) fs.rmSync(`${target}${extra}`, { force: true });
  }
  fs.renameSync(incoming, target);

  let previousDocuments: string | null = null;
  const backupDocuments = source.replace(/\.sqlite$/, ".documents");
  const docs = options.documents ?? documentsDir();
  if (backupDocuments !== source && fs.existsSync(backupDocuments)) {
    if (fs.existsSync(docs)) {
      previousDocuments = `${docs}${suffix}`;
      fs.renameSync(docs, previousDocuments);
    }
    copyPrivate(backupDocuments, docs);
  }

  // The restored database remembers that it was restored, and from what.
  // (A backup older than the audit chain is chained when the server next starts and migrates.)
  const restored = new Database(target);
  try {
    restored.pragma("journal_mode = WAL");
    const chained = (restored.prepare("select count(*) from pragma_table_info('audit_log') where name = 'hash'").pluck().get() as number) > 0;
    if (chained) {
      appendEntry(restored, {
        userId: null,
        action: "restore",
        entity: "database",
        entityId: null,
        changes: JSON.stringify({ from: path.basename(source), previous: previous && path.basename(previous) }),
        ip: null,
      });
    }
  } finally {
    restored.close();
  }
  return { restored: target, previous, previousDocuments };
}
