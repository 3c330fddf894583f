/**
 * Backups of the database and of the stored documents (ADR 0011, README 'Backups').
 *
 *   BACKUP_DIR      where backups go (default db/backups/, gitignored)
 *   DOCUMENTS_DIR   the stored documents, copied beside each backup when the directory exists
 *                   (default db/documents/)
 *
 * A backup is `sinapse-<UTC time>.sqlite` (a consistent, compacted copy made by VACUUM INTO,
 * checked with PRAGMA integrity_check before it gets its final name) and, when there are documents,
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
import { runInWorker } from "./export-rows";

export const BACKUP_PREFIX = "sinapse-";
const BACKUP_NAME = /^sinapse-\d{8}-\d{6}-\d{3}Z\.sqlite$/;
/** A backup's copy before its check (`makeBackup`): renamed to BACKUP_NAME once it passes. */
const PARTIAL_NAME = /^sinapse-\d{8}-\d{6}-\d{3}Z\.sqlite\.partial$/;
/**
 * A copy left by a backup that never finished (the process ended during it: a stop waits 10 s for
 * requests, not for a backup) is removed by the next backup once it is this old, since
 * `npm run backup` may be making one beside the server's.
 */
const STALE_PARTIAL_MS = 60 * 60 * 1000;

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

/** The file's check and whether it holds the tables every Sinapse database has, in one statement. */
const CHECK_SQL = `select (select group_concat(integrity_check, '; ') from pragma_integrity_check) as integrity,
  (select count(*) from sqlite_master where type = 'table' and name in ('users', 'audit_log', 'patients')) as tables`;

/**
 * `PRAGMA integrity_check` of a database file: "ok", or the first problems SQLite reports. It reads
 * every page and index entry (about 15 s for the scale database's 1.3 GB), so it runs in a worker
 * thread (`runInWorker`): the server goes on answering while a backup is checked.
 */
export async function integrityOf(file: string): Promise<string> {
  try {
    const [[integrity, tables]] = (await runInWorker(file, CHECK_SQL)) as [[string, number]];
    if (integrity !== "ok") return integrity;
    // A file SQLite can read but that is not one of ours is not a backup to restore either.
    return tables === 3 ? "ok" : "não é um banco do Sinapse";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Copies a directory tree with owner-only permissions (files 0600, directories 0700). Each file is
 * copied by libuv's threads (a clone where the file system can), one at a time: years of stored
 * documents take as long as they take, and no request waits for them.
 */
async function copyPrivate(from: string, to: string) {
  await fs.promises.mkdir(to, { recursive: true, mode: 0o700 });
  for (const dirent of await fs.promises.readdir(from, { withFileTypes: true })) {
    const source = path.join(from, dirent.name);
    const target = path.join(to, dirent.name);
    if (dirent.isDirectory()) await copyPrivate(source, target);
    else if (dirent.isFile()) {
      await fs.promises.copyFile(source, target, fs.constants.COPYFILE_FICLONE);
      await fs.promises.chmod(target, 0o600);
    }
  }
  await fs.promises.chmod(to, 0o700);
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
 * Makes a backup of the database `source` is connected to, checks it, and applies the retention.
 * The copy and its check each read the whole file (on the scale database, about 20 s in all), so
 * both run in a worker thread on a read-only connection of its own (`runInWorker`), and the server
 * answers every other request meanwhile. VACUUM INTO copies one snapshot, as of its start, whatever is
 * written meanwhile (SQLite's backup API, stepped between writes, copied the last of its pages and
 * synced the copy in the server's thread: 0.5 s during which nothing else was answered).
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
    // Owner-only from its first byte: VACUUM INTO writes into an empty file that exists.
    fs.writeFileSync(partial, "", { mode: 0o600 });
    await runInWorker(source.name, "vacuum into ?", [partial]);
    const integrity = await integrityOf(partial);
    if (integrity !== "ok") throw new Error(`A cópia não passou na verificação de integridade: ${integrity}`);
    fs.renameSync(partial, file);
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }

  let documents: string | null = null;
  const docs = options.documents ?? documentsDir();
  if (fs.existsSync(docs) && fs.statSync(docs).isDirectory()) {
    documents = path.join(dir, `${name}.documents`);
    await copyPrivate(docs, documents);
  }

  const removed: string[] = [];
  const keep = Math.max(1, options.retention ?? 14);
  for (const old of listBackups(dir).slice(keep)) {
    await fs.promises.rm(old.file, { force: true });
    if (old.documents) await fs.promises.rm(old.documents, { recursive: true, force: true });
    removed.push(old.name);
  }
  for (const name of await fs.promises.readdir(dir)) {
    if (!PARTIAL_NAME.test(name)) continue;
    const stale = path.join(dir, name);
    const changed = await fs.promises.stat(stale).then((stat) => stat.mtimeMs, () => Date.now());
    if (Date.now() - changed > STALE_PARTIAL_MS) await fs.promises.rm(stale, { force: true });
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
export async function restoreBackup(file: string, target: string, options: { documents?: string; now?: Date } = {}): Promise<RestoreResult> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new Error(`Arquivo não encontrado: ${source}`);
  const integrity = await integrityOf(source);
  if (integrity !== "ok") throw new Error(`O backup não passou na verificação de integridade: ${integrity}`);

  const suffix = `.before-restore-${stamp(options.now ?? new Date())}`;
  const incoming = `${target}.restoring`;
  await fs.promises.copyFile(source, incoming);
  fs.chmodSync(incoming, 0o600);
  if ((await integrityOf(incoming)) !== "ok") {
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
    await copyPrivate(backupDocuments, docs);
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
