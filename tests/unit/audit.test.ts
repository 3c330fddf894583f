/**
 * The audit trail (ADR 0011): a hash chain the database refuses to change, verified by
 * `npm run audit:verify` and the admin screen; what entries keep; the screen's queries.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { recordAudit, recordAuthEvent, recordView } from "~/.server/audit";
import { type ChainReport, GENESIS, type StoredEntry, appendEntry, entryHash, sealLegacyEntries, verifyChainInWorker, verifyChainSync } from "~/.server/audit-chain";
import { databasePath, db, sqlite } from "~/.server/db";
import { parseListState } from "~/lib/list-params";
import { AUDIT_LIST } from "~/lib/lists";
import { checkChain, lastChainCheck, listAudit } from "~/models/audit.server";
import { createPatient, deletePatient, updatePatient } from "~/models/patient.server";
import { action as auditAction, loader as auditLoader } from "~/routes/settings/audit";
import { loader as auditCsv } from "~/routes/export/audit";
import { loader as apiPatient } from "~/routes/api/patient";
import { loader as patientsLoader } from "~/routes/patients";
import { timersDuring } from "../support/event-loop";
import { type SignedIn, formRequest, getRequest, loginAs, routeArgs, statusOf, thrownResponse } from "../support/fixtures";

const ROOT = path.resolve(import.meta.dirname, "../..");
let admin: SignedIn;
let staff: SignedIn;
/** The entry the tamper test changes, and its original user, to put back. */
let tampered = { id: 0, userId: null as number | null };

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
});

function entries() {
  return sqlite.prepare("select * from audit_log order by id").all() as Record<string, unknown>[];
}

/** Runs `fn` with the append-only triggers dropped, as an attacker with the file would. */
function withoutTriggers(fn: () => void) {
  const triggers = sqlite.prepare("select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'audit_log'").all() as { name: string; sql: string }[];
  for (const t of triggers) sqlite.exec(`drop trigger ${t.name}`);
  try {
    fn();
  } finally {
    for (const t of triggers) sqlite.exec(t.sql);
  }
}

/** The query plans of every statement on audit_log that `fn` runs (through drizzle on `sqlite`). */
function capturePlans(fn: () => void) {
  const plans: { source: string; plan: string }[] = [];
  const original = sqlite.prepare;
  const explain = (source: string, params: unknown[]) => {
    const statement = original.call(sqlite, `explain query plan ${source}`) as unknown as { all: (...values: unknown[]) => { detail: string }[] };
    const rows = statement.all(...params);
    plans.push({ source, plan: rows.map((r) => r.detail).join(" | ") });
  };
  sqlite.prepare = ((source: string) => {
    const statement = original.call(sqlite, source);
    if (!/from "audit_log"/.test(source)) return statement;
    const proxy: typeof statement = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        if (property === "raw" || property === "pluck") return (...args: unknown[]) => (value.apply(target, args), proxy);
        if (property === "all" || property === "get") return (...args: unknown[]) => (explain(source, args), value.apply(target, args));
        return value.bind(target);
      },
    });
    return proxy;
  }) as typeof sqlite.prepare;
  try {
    fn();
  } finally {
    sqlite.prepare = original;
  }
  return plans;
}

function auditVerifyCli() {
  sqlite.pragma("wal_checkpoint(PASSIVE)");
  return spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/audit-verify.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: databasePath },
    encoding: "utf8",
  });
}

describe("the hash chain", () => {
  it("links every entry to the one before and hashes its canonical form", () => {
    recordAudit(db, { userId: admin.id, action: "update", entity: "clinic_settings", entityId: 1, changes: { clinicName: ["A", "B"] } });
    const rows = entries();
    expect(rows.length).toBeGreaterThan(2);
    expect(rows[0].prev_hash).toBe(GENESIS);
    for (let i = 1; i < rows.length; i += 1) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    const last = rows.at(-1)!;
    expect(last.hash).toBe(entryHash(last as never));
    expect(verifyChainSync(sqlite)).toMatchObject({ intact: true, entries: rows.length, broken: null });
  });

  it("refuses UPDATE and DELETE on the table, and an insert that does not extend the chain", () => {
    const id = entries().at(-1)!.id;
    expect(() => sqlite.prepare("update audit_log set entity = 'x' where id = ?").run(id)).toThrow(/append-only/);
    expect(() => sqlite.prepare("update audit_log set hash = ? where id = ?").run("f".repeat(64), id)).toThrow(/append-only/);
    expect(() => sqlite.prepare("delete from audit_log where id = ?").run(id)).toThrow(/append-only/);
    expect(() => sqlite.exec("delete from audit_log")).toThrow(/append-only/);
    const insert = (forged: { id: number; prev_hash: string }) => {
      const entry = { ...forged, created_at: Date.now(), user_id: 1, action: "login", entity: "session", entity_id: null, changes: null, ip: null };
      sqlite
        .prepare("insert into audit_log (id, prev_hash, created_at, user_id, action, entity, entity_id, changes, ip, hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .run(entry.id, entry.prev_hash, entry.created_at, entry.user_id, entry.action, entry.entity, null, null, null, entryHash(entry));
    };
    expect(() => insert({ id: Number(id) + 1, prev_hash: GENESIS })).toThrow(/extend the chain/);
    // The last entry's hash, but not the next id: a second entry on the same link would fork the chain.
    const lastHash = String(entries().at(-1)!.hash);
    expect(() => insert({ id: Number(id) + 2, prev_hash: lastHash })).toThrow(/extend the chain/);
    expect(() => insert({ id: Number(id) + 1, prev_hash: lastHash })).not.toThrow();
    expect(verifyChainSync(sqlite).intact).toBe(true);
  });

  it("does not fork when two connections write at once", async () => {
    const other = new Database(databasePath);
    other.pragma("busy_timeout = 5000");
    const before = entries().length;
    for (let i = 0; i < 50; i += 1) {
      appendEntry(i % 2 ? other : sqlite, { userId: null, action: "view", entity: "patient", entityId: String(i), changes: null, ip: "127.0.0.1" });
    }
    other.close();
    expect(entries().length).toBe(before + 50);
    expect(verifyChainSync(sqlite).intact).toBe(true);
  });

  it("seals entries written before the chain existed, in id order", () => {
    withoutTriggers(() => {
      const last = entries().at(-1)!;
      sqlite
        .prepare("insert into audit_log (id, created_at, user_id, action, entity) values (?, ?, ?, 'create', 'doctor'), (?, ?, ?, 'update', 'doctor')")
        .run(Number(last.id) + 1, Date.now(), admin.id, Number(last.id) + 2, Date.now(), admin.id);
    });
    expect(verifyChainSync(sqlite).broken?.reason).toBe("unsealed");
    expect(sealLegacyEntries(sqlite)).toBe(2);
    expect(verifyChainSync(sqlite).intact).toBe(true);
  });
});

describe("npm run audit:verify", () => {
  it("exits 0 on an intact chain", { timeout: 30_000 }, () => {
    const run = auditVerifyCli();
    expect(run.stdout).toContain("Trilha de auditoria íntegra");
    expect(run.status).toBe(0);
  });

  it("fails at the tampered entry after a row is changed behind the triggers' back, and the screen shows where", { timeout: 30_000 }, async () => {
    const target = Number(entries().at(-3)!.id);
    tampered = { id: target, userId: entries().at(-3)!.user_id as number | null };
    withoutTriggers(() => sqlite.prepare("update audit_log set user_id = 999 where id = ?").run(target));
    expect(verifyChainSync(sqlite).broken).toEqual({ id: target, reason: "hash" });

    const run = auditVerifyCli();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`ROMPIDA no registro #${target}`);

    const response = await auditAction(routeArgs(formRequest("/settings/audit", { intent: "verify" }, { cookie: admin.cookie })));
    expect(statusOf(response)).toBe(302);
    const page = (await auditLoader(routeArgs(getRequest("/settings/audit", { cookie: admin.cookie })))) as { chain: ReturnType<typeof lastChainCheck> };
    expect(page.chain).toMatchObject({ intact: false, brokenId: target });
    expect(page.chain?.reason).toContain("alterado");
  });

  it("names the entry after a removed one, and notices entries cut off the end", () => {
    // Put the tampered entry back as it was, so the next break is the one looked for.
    withoutTriggers(() => sqlite.prepare("update audit_log set user_id = ? where id = ?").run(tampered.userId, tampered.id));
    expect(verifyChainSync(sqlite).intact).toBe(true);
    const rows = entries();
    const middle = Number(rows[Math.floor(rows.length / 2)].id);
    withoutTriggers(() => sqlite.prepare("delete from audit_log where id = ?").run(middle));
    expect(verifyChainSync(sqlite).broken).toEqual({ id: middle + 1, reason: "link" });

    const fresh = new Database(":memory:");
    fresh.exec("create table audit_log (id integer primary key autoincrement, prev_hash text, created_at integer, user_id integer, action text, entity text, entity_id text, changes text, ip text, hash text)");
    for (let i = 0; i < 3; i += 1) appendEntry(fresh, { userId: 1, action: "view", entity: "patient", entityId: String(i), changes: null, ip: null });
    fresh.exec("delete from audit_log where id = 3");
    expect(verifyChainSync(fresh).broken).toEqual({ id: 3, reason: "truncated" });
  });
});

describe("verifying the chain in a worker", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-audit-chain-"));
  /** A file with `n` chained entries, without the triggers, so a test can tamper with it. */
  function chainFile(name: string, n: number) {
    const file = path.join(dir, `${name}.sqlite`);
    const conn = new Database(file);
    conn.exec("create table audit_log (id integer primary key autoincrement, prev_hash text, created_at integer, user_id integer, action text, entity text, entity_id text, changes text, ip text, hash text)");
    conn.transaction(() => {
      for (let i = 0; i < n; i += 1) appendEntry(conn, { userId: i % 3 ? 1 : null, action: "view", entity: "patient", entityId: String(i), changes: i % 2 ? JSON.stringify({ ids: [i], q: "são josé \"x\"" }) : null, ip: "127.0.0.1" });
    })();
    return { file, conn };
  }

  it("checks a long chain while the server's timers run, and carries the link across", { timeout: 60_000 }, async () => {
    const { file, conn } = chainFile("long", 20_000);
    const { value: report, ticks, longestGap, took } = await timersDuring(() => verifyChainInWorker(file));
    expect(report).toEqual(verifyChainSync(conn));
    expect(report).toMatchObject({ intact: true, entries: 20_000, lastId: 20_000, broken: null });
    // In the server's thread, the check would be one long gap, or a few.
    expect(ticks).toBeGreaterThan(20);
    expect(longestGap).toBeLessThan(took / 4);

    conn.exec("delete from audit_log where id = 1001");
    expect((await verifyChainInWorker(file)).broken).toEqual({ id: 1002, reason: "link" });
    conn.close();
  });

  it("reports what the check in the caller's thread reports: an altered entry, a removed one, an unsealed one, a cut end", { timeout: 60_000 }, async () => {
    const cases: [string, (conn: Database.Database) => void, ChainReport["broken"]][] = [
      ["intact", () => {}, null],
      ["altered", (conn) => conn.prepare("update audit_log set entity_id = 'x' where id = 7").run(), { id: 7, reason: "hash" }],
      ["removed", (conn) => conn.prepare("delete from audit_log where id = 5").run(), { id: 6, reason: "link" }],
      ["unsealed", (conn) => conn.prepare("update audit_log set hash = null where id = 9").run(), { id: 9, reason: "unsealed" }],
      ["cut", (conn) => conn.prepare("delete from audit_log where id > 10").run(), { id: 11, reason: "truncated" }],
      ["first", (conn) => conn.prepare("update audit_log set prev_hash = ? where id = 1").run("f".repeat(64)), { id: 1, reason: "link" }],
    ];
    for (const [name, tamper, broken] of cases) {
      const { file, conn } = chainFile(name, 12);
      tamper(conn);
      const report = await verifyChainInWorker(file);
      expect(report, name).toEqual(verifyChainSync(conn));
      expect(report.broken, name).toEqual(broken);
      conn.close();
    }
    const empty = chainFile("empty", 0);
    expect(await verifyChainInWorker(empty.file)).toEqual({ intact: true, entries: 0, lastId: null, lastHash: null, broken: null });
    expect(verifyChainSync(empty.conn)).toEqual({ intact: true, entries: 0, lastId: null, lastHash: null, broken: null });
  });
});

describe("what an entry keeps", () => {
  it("keeps no secret and no patient value, and nothing of a deleted patient", () => {
    recordAudit(db, { userId: admin.id, action: "update", entity: "user", entityId: admin.id, changes: { password: ["a", "b"], totpSecret: "JBSWY3DP", nested: { token: "t" } } });
    const secrets = entries().at(-1)!.changes as string;
    expect(secrets).not.toMatch(/JBSWY3DP|"a"|"t"/);
    expect(JSON.parse(secrets)).toEqual({ password: "[removido]", totpSecret: "[removido]", nested: { token: "[removido]" } });

    const id = createPatient(staff.id, { name: "Helena Sigilo", cpf: null, dateOfBirth: null, phone: "11912345678", email: "helena@example.com", address: "Rua Oculta, 1", insurance: null, insuranceCardNumber: null, medicalHistory: "Cefaleia", whatsappOptIn: false });
    updatePatient(staff.id, id, { name: "Helena S.", cpf: null, dateOfBirth: null, phone: null, email: null, address: null, insurance: null, insuranceCardNumber: null, medicalHistory: null, whatsappOptIn: false });
    deletePatient(admin.id, id);
    const trail = sqlite.prepare("select action, user_id, changes from audit_log where entity = 'patient' and entity_id = ? and action <> 'view' order by id").all(String(id)) as { action: string; user_id: number; changes: string | null }[];
    expect(trail.map((e) => [e.action, e.user_id])).toEqual([
      ["create", staff.id],
      ["update", staff.id],
      ["delete", admin.id],
    ]);
    const text = JSON.stringify(trail);
    for (const value of ["Helena", "11912345678", "helena@", "Oculta", "Cefaleia"]) expect(text).not.toContain(value);
    expect(JSON.parse(trail[1].changes!)).toEqual({ fields: expect.arrayContaining(["name", "phone", "email"]) });
    expect(trail[2].changes).toBeNull();
  });

  it("records views of patient data with the client's address, and sign-in events", async () => {
    const id = createPatient(staff.id, { name: "Paciente Vista", cpf: null, dateOfBirth: null, phone: "11900000000", email: null, address: null, insurance: null, insuranceCardNumber: null, medicalHistory: null, whatsappOptIn: false });
    const headers = { "x-sinapse-client-address": "203.0.113.7" };
    await patientsLoader(routeArgs(getRequest("/patients?q=vista", { cookie: staff.cookie, headers })));
    await apiPatient(routeArgs(getRequest(`/api/patients/${id}`, { cookie: staff.cookie, headers }), { id: String(id) }));
    const views = sqlite.prepare("select * from audit_log where action = 'view' and user_id = ? order by id desc limit 2").all(staff.id) as Record<string, unknown>[];
    expect(views.map((v) => [v.entity, v.entity_id, v.ip])).toEqual([
      ["patient", String(id), "203.0.113.7"],
      ["patient", null, "203.0.113.7"],
    ]);
    expect(JSON.parse(views[1].changes as string)).toEqual({ ids: [id], q: "vista" });

    recordAuthEvent(getRequest("/auth", { headers }), { action: "login_failed", email: "x@y.z", reason: "senha incorreta" });
    const failed = entries().at(-1)!;
    expect([failed.action, failed.entity, failed.ip, failed.user_id]).toEqual(["login_failed", "session", "203.0.113.7", null]);
    recordView(getRequest("/x"), { id: admin.id }, "patient", 1);
    expect(entries().at(-1)!.ip).toBeNull();
  });

  it("chains a view like any entry, and leaves the connection fully synced for every other write", () => {
    const synchronous = () => sqlite.pragma("synchronous", { simple: true });
    expect(synchronous()).toBe(2); // FULL (docs/decisions/0002-sqlite-durability.md)
    const before = entries().length;
    recordView(getRequest("/x"), { id: admin.id }, "patient", 2);
    expect(synchronous()).toBe(2);
    // Inside a caller's transaction the view is part of it, and rolls back with it.
    expect(() =>
      sqlite.transaction(() => {
        recordView(getRequest("/x"), { id: admin.id }, "patient", 3);
        throw new Error("rolled back");
      })(),
    ).toThrow("rolled back");
    expect(synchronous()).toBe(2);
    const after = entries();
    expect(after.length).toBe(before + 1);
    expect([after.at(-1)!.action, after.at(-1)!.entity_id]).toEqual(["view", "2"]);
    const [previous, view] = after.slice(-2) as unknown as StoredEntry[];
    expect(view.prev_hash).toBe(previous.hash);
    expect(view.hash).toBe(entryHash(view));
  });

  it("records the address of a write made through a screen's action", async () => {
    await (await import("~/routes/patients")).action(
      routeArgs(formRequest("/patients", { intent: "create", name: "Paciente IP" }, { cookie: staff.cookie, headers: { "x-sinapse-client-address": "198.51.100.9" } })),
    );
    const created = entries().at(-1)!;
    expect([created.action, created.entity, created.ip]).toEqual(["create", "patient", "198.51.100.9"]);
  });
});

describe("the audit screen", () => {
  it("is for admins only, on the server", async () => {
    for (const cookie of [staff.cookie, (await loginAs("doctor")).cookie]) {
      expect((await thrownResponse(auditLoader(routeArgs(getRequest("/settings/audit", { cookie }))))).status).toBe(403);
      expect((await thrownResponse(auditCsv(routeArgs(getRequest("/settings/audit/export.csv", { cookie }))))).status).toBe(403);
      expect((await thrownResponse(auditAction(routeArgs(formRequest("/settings/audit", { intent: "verify" }, { cookie }))))).status).toBe(403);
    }
  });

  it("filters by user, entity, action and dates, newest first, a page at a time", async () => {
    const state = (query: string) => parseListState(new URL(`http://x/settings/audit?${query}`), AUDIT_LIST);
    const byStaff = listAudit(state(`user=${encodeURIComponent(staff.email)}&action=create&entity=patient`));
    expect(byStaff.rows.length).toBeGreaterThan(0);
    expect(byStaff.rows.every((r) => r.userId === staff.id && r.action === "create" && r.entity === "patient")).toBe(true);
    const ids = byStaff.rows.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const all = listAudit(state(""));
    expect(all.rows.length).toBe(25);
    const next = listAudit(state(`page=2&after=${encodeURIComponent(all.next!)}`));
    expect(next.rows[0].id).toBeLessThan(all.rows[24].id);
    expect(next.rows.map((r) => r.id)).not.toContain(all.rows[24].id);
    // A typed page number shows the rows the 'Próxima' link does.
    expect(listAudit(state("page=2")).rows.map((r) => r.id)).toEqual(next.rows.map((r) => r.id));

    const today = new Date().toISOString().slice(0, 10);
    expect(listAudit(state(`from=2000-01-01&to=2000-01-02`)).rows).toEqual([]);
    expect(listAudit(state(`from=${today}`)).rows.length + listAudit(state(`to=${today}`)).rows.length).toBeGreaterThan(0);
    expect(listAudit(state("user=ninguem@example.com")).rows).toEqual([]);
  });

  it("exports the filtered trail as CSV and audits the export", async () => {
    const response = await auditCsv(routeArgs(getRequest("/settings/audit/export.csv?action=create", { cookie: admin.cookie })));
    const text = await (response as Response).text();
    expect(text.split("\r\n")[0]).toContain("Hash anterior");
    expect(text).toContain("Criação");
    expect(text).not.toContain("Visualização");
    expect(entries().at(-1)).toMatchObject({ action: "export", entity: "audit_log", user_id: admin.id });
  });

  it("walks an index for every filter: no scan of the table, no sort", () => {
    const queries = [
      "",
      `user=${encodeURIComponent(staff.email)}`,
      "entity=patient",
      "action=view",
      "from=2026-01-01&to=2026-12-31",
      "action=view&page=2&after=%5B100%2C100%5D",
      "entity=patient&page=2&before=%5B10%2C10%5D",
    ];
    for (const query of queries) {
      const plans = capturePlans(() => listAudit(parseListState(new URL(`http://x/settings/audit?${query}`), AUDIT_LIST)));
      expect(plans.length, query).toBeGreaterThan(0);
      for (const { source, plan } of plans) {
        // Unfiltered, the page walks the primary key backwards and stops after a page ('SCAN' in
        // rowid order with a LIMIT); filtered, every statement searches an index.
        if (query) expect(plan, `${query}: ${source}`).toMatch(/SEARCH audit_log USING (COVERING )?(INDEX|INTEGER PRIMARY KEY)/);
        expect(plan, `${query}: ${source}`).not.toContain("TEMP B-TREE");
      }
    }
  });

  it("records each verification in the trail", async () => {
    const report = await checkChain(admin.id);
    expect(lastChainCheck()).toMatchObject({ intact: report.intact, entries: report.entries });
  });
});
