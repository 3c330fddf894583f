/**
 * Backups and restores (ADR 0011): online copies checked with integrity_check, owner-only files,
 * retention, stored documents alongside, and a restore that checks first and keeps the old file.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyChainSync } from "~/.server/audit-chain";
import { integrityOf, listBackups, makeBackup, restoreBackup } from "~/.server/backup";
import { databasePath, sqlite } from "~/.server/db";
import { backupInProgress, dailyBackupDue, getBackupSettings } from "~/models/backup.server";
import { action as backupsAction, loader as backupsLoader } from "~/routes/settings/backups";
import { timersDuring } from "../support/event-loop";
import { type SignedIn, formRequest, getRequest, insertPatient, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";

const ROOT = path.resolve(import.meta.dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-backup-test-"));
let admin: SignedIn;

beforeAll(async () => {
  admin = await loginAs("admin");
  insertPatient("Paciente do Backup");
  process.env.BACKUP_DIR = path.join(tmp, "from-screen");
  process.env.DOCUMENTS_DIR = path.join(tmp, "no-documents");
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

function tsx(script: string, args: string[], env: Record<string, string>) {
  sqlite.pragma("wal_checkpoint(PASSIVE)");
  return spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8" });
}

describe("makeBackup", () => {
  // Four real backups, each copied, fsynced and checked: about 3 s on a quiet machine, more when the cores are shared.
  it("copies the live database and its documents, checked and owner-only, and keeps the newest", { timeout: 60_000 }, async () => {
    const dir = path.join(tmp, "retention");
    const documents = path.join(tmp, "documents");
    fs.mkdirSync(path.join(documents, "patients/1"), { recursive: true });
    fs.writeFileSync(path.join(documents, "patients/1/laudo.pdf"), "%PDF-1.4 laudo");

    const made = [];
    for (let i = 0; i < 4; i += 1) made.push(await makeBackup(sqlite, { dir, documents, retention: 3, now: new Date(Date.UTC(2026, 0, 1, 2, 0, i)) }));
    const kept = listBackups(dir);
    expect(kept.map((b) => b.name)).toEqual(made.slice(1).reverse().map((m) => path.basename(m.file)));
    expect(made[3].removed).toEqual([path.basename(made[0].file)]);
    expect(fs.existsSync(made[0].file) || fs.existsSync(made[0].documents!)).toBe(false);

    const latest = made[3];
    expect(path.basename(latest.file)).toBe("sinapse-20260101-020003-000Z.sqlite");
    expect(mode(latest.file)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(await integrityOf(latest.file)).toBe("ok");
    const copy = new Database(latest.file, { readonly: true });
    expect(copy.prepare("select name from patients where name = 'Paciente do Backup'").pluck().get()).toBe("Paciente do Backup");
    expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
    copy.close();
    const laudo = path.join(latest.documents!, "patients/1/laudo.pdf");
    expect(fs.readFileSync(laudo, "utf8")).toBe("%PDF-1.4 laudo");
    expect(mode(laudo)).toBe(0o600);
  });

  it("removes a copy a backup left unfinished an hour ago or more, not one that may still be in the making", async () => {
    const dir = path.join(tmp, "partials");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const left = path.join(dir, "sinapse-20260101-020000-000Z.sqlite.partial");
    const making = path.join(dir, "sinapse-20260101-030000-000Z.sqlite.partial");
    const other = path.join(dir, "notas.partial");
    for (const file of [left, making, other]) fs.writeFileSync(file, "copy");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const file of [left, other]) fs.utimesSync(file, twoHoursAgo, twoHoursAgo);
    fs.utimesSync(making, new Date(Date.now() - 10 * 60 * 1000), new Date(Date.now() - 10 * 60 * 1000));

    const made = await makeBackup(sqlite, { dir, documents: path.join(tmp, "no-documents") });
    expect(fs.existsSync(left)).toBe(false);
    expect(fs.existsSync(making)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    expect(made.removed).toEqual([]);
    expect(listBackups(dir).map((b) => b.file)).toEqual([made.file]);
  });
});

describe("integrityOf", () => {
  it("checks a file in a worker thread: the server's timers keep running while integrity_check reads it", { timeout: 60_000 }, async () => {
    // A file whose check takes a while: integrity_check reads every row of the table and of both
    // indexes and finds each row's entries in them. In the server's thread, that held every request.
    const file = path.join(tmp, "large.sqlite");
    const large = new Database(file);
    large.exec(`
      create table users (id integer primary key);
      create table audit_log (id integer primary key);
      create table patients (id integer primary key, name text, cpf text);
      create index patients_name on patients (name);
      create index patients_cpf on patients (cpf);
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 300000)
      insert into patients (name, cpf) select printf('Paciente %08d', i * 7919 % 1000003), printf('%011d', i) from n;
    `);
    large.close();

    const { value: integrity, ticks, longestGap, took } = await timersDuring(() => integrityOf(file));
    expect(integrity).toBe("ok");
    expect(ticks).toBeGreaterThan(10);
    expect(longestGap).toBeLessThan(took / 2);
  });

  it("names what is wrong with a file that is not a Sinapse database", async () => {
    const garbage = path.join(tmp, "not-a-database.sqlite");
    fs.writeFileSync(garbage, Buffer.alloc(8192, 7));
    expect(await integrityOf(garbage)).toMatch(/not a database/);
    const other = path.join(tmp, "other.sqlite");
    new Database(other).exec("create table notes (v text)");
    expect(await integrityOf(other)).toBe("não é um banco do Sinapse");
  });
});

describe("npm run backup and npm run restore", () => {
  it("backs up from the command line, and restores after checking, keeping the old database", { timeout: 60_000 }, async () => {
    const dir = path.join(tmp, "cli");
    const backup = tsx("scripts/backup.ts", [], { DATABASE_PATH: databasePath, BACKUP_DIR: dir, BACKUP_RETENTION: "5" });
    expect(backup.stderr).toBe("");
    expect(backup.stdout).toContain("Backup verificado (integrity_check ok)");
    expect(backup.status).toBe(0);
    const [file] = listBackups(dir);
    expect(sqlite.prepare("select action, entity from audit_log order by id desc limit 1").get()).toEqual({ action: "backup", entity: "database" });

    // A clinic's database that a restore replaces.
    const target = path.join(tmp, "clinic.sqlite");
    const current = new Database(target);
    current.pragma("journal_mode = WAL");
    current.exec("create table marker (v text); insert into marker values ('antes')");
    current.close();

    const garbage = path.join(tmp, "sinapse-garbage.sqlite");
    fs.writeFileSync(garbage, "isto não é um banco");
    const refused = tsx("scripts/restore.ts", [garbage], { DATABASE_PATH: target });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("Restauração recusada");
    expect(new Database(target, { readonly: true }).prepare("select v from marker").pluck().get()).toBe("antes");

    const restored = tsx("scripts/restore.ts", [file.file], { DATABASE_PATH: target, DOCUMENTS_DIR: path.join(tmp, "docs-target") });
    expect(restored.stderr).toBe("");
    expect(restored.status).toBe(0);
    const previous = fs.readdirSync(tmp).find((name) => name.startsWith("clinic.sqlite.before-restore-"))!;
    expect(new Database(path.join(tmp, previous), { readonly: true }).prepare("select v from marker").pluck().get()).toBe("antes");
    const now = new Database(target, { readonly: true });
    expect(now.prepare("select count(*) from patients where name = 'Paciente do Backup'").pluck().get()).toBe(1);
    expect(now.prepare("select action from audit_log order by id desc limit 1").pluck().get()).toBe("restore");
    expect(verifyChainSync(now).intact).toBe(true);
    now.close();
    expect(mode(target)).toBe(0o600);
  });

  it("refuses a damaged backup in the library too", async () => {
    const target = path.join(tmp, "untouched.sqlite");
    fs.writeFileSync(target, "");
    const broken = path.join(tmp, "broken.sqlite");
    fs.writeFileSync(broken, Buffer.alloc(8192, 7));
    await expect(restoreBackup(broken, target)).rejects.toThrow(/integridade/);
    expect(fs.existsSync(`${target}.restoring`)).toBe(false);
  });
});

describe("Configurações → Backups", () => {
  it("is for admins only", async () => {
    const staff = await loginAs("staff");
    expect((await thrownResponse(backupsLoader(routeArgs(getRequest("/settings/backups", { cookie: staff.cookie }))))).status).toBe(403);
    const refused = await thrownResponse(backupsAction(routeArgs(formRequest("/settings/backups", { intent: "backup-now" }, { cookie: staff.cookie }))));
    expect(refused.status).toBe(403);
    expect(listBackups(process.env.BACKUP_DIR)).toEqual([]);
  });

  it("starts a backup now and shows it under way, one at a time, then lists it; stores the daily schedule, refusing a bad one", async () => {
    type Page = { files: { name: string }[]; settings: { lastFile: string | null; lastError: string | null }; running: { startedAt: Date } | null };
    const view = async () => (await backupsLoader(routeArgs(getRequest("/settings/backups", { cookie: admin.cookie })))) as Page;
    const before = new Date();
    const response = await backupsAction(routeArgs(formRequest("/settings/backups", { intent: "backup-now" }, { cookie: admin.cookie })));
    // The answer comes at once: the backup goes on in the background, and the page says so.
    expect(statusOf(response)).toBe(302);
    expect(backupInProgress()).not.toBeNull();
    const during = await view();
    expect(during.running?.startedAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(during.files).toHaveLength(0);
    const second = (await backupsAction(routeArgs(formRequest("/settings/backups", { intent: "backup-now" }, { cookie: admin.cookie })))) as { data: { toast: { message: string } } };
    expect(statusOf(second)).toBe(400);
    expect(second.data.toast.message).toBe("Já há um backup em andamento. Aguarde a conclusão.");

    await expect.poll(() => backupInProgress(), { timeout: 30_000 }).toBeNull();
    const page = await view();
    expect(page.running).toBeNull();
    expect(page.files).toHaveLength(1);
    expect(page.settings).toMatchObject({ lastFile: page.files[0].name, lastError: null });
    const entry = sqlite.prepare("select action, entity, user_id, changes from audit_log where action = 'backup' order by id desc limit 1").get() as Record<string, unknown>;
    expect(entry).toMatchObject({ entity: "database", user_id: admin.id });
    expect(JSON.parse(String(entry.changes))).toMatchObject({ file: page.files[0].name, trigger: "manual" });

    const bad = await backupsAction(routeArgs(formRequest("/settings/backups", { intent: "update-schedule", dailyEnabled: "on", dailyHour: "24", retention: "0" }, { cookie: admin.cookie })));
    expect(statusOf(bad)).toBe(400);
    expect(getBackupSettings().dailyEnabled).toBe(false);

    const good = await backupsAction(routeArgs(formRequest("/settings/backups", { intent: "update-schedule", dailyEnabled: "on", dailyHour: "3", retention: "7" }, { cookie: admin.cookie })));
    expect(statusOf(good)).toBe(302);
    expect(getBackupSettings()).toMatchObject({ dailyEnabled: true, dailyHour: 3, retention: 7 });
  });

  it("runs the daily backup once a day, after its hour (clinic time)", () => {
    const settings = { ...getBackupSettings(), dailyEnabled: true, dailyHour: 3, lastRunAt: null };
    // 05:59 UTC is 02:59 in São Paulo; 06:00 UTC is 03:00.
    expect(dailyBackupDue(settings, new Date("2026-03-10T05:59:00Z"))).toBe(false);
    expect(dailyBackupDue(settings, new Date("2026-03-10T06:00:00Z"))).toBe(true);
    expect(dailyBackupDue({ ...settings, lastRunAt: new Date("2026-03-10T06:00:00Z") }, new Date("2026-03-10T20:00:00Z"))).toBe(false);
    expect(dailyBackupDue({ ...settings, lastRunAt: new Date("2026-03-10T06:00:00Z") }, new Date("2026-03-11T06:30:00Z"))).toBe(true);
    expect(dailyBackupDue({ ...settings, dailyEnabled: false }, new Date("2026-03-11T06:30:00Z"))).toBe(false);
  });
});
