/**
 * The audit screen's pages on a trail that holds every id (migration 0045): the whole trail and a
 * date range of it are counted exactly and a typed page is found by arithmetic, not by walking the
 * entries before it; a trail with ids missing (entries removed before the chain existed) is read
 * as before. Every page is compared with the same page read by OFFSET.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { appendEntry, withAuditGuardsLifted } from "~/.server/audit-chain";
import { recordAudit } from "~/.server/audit";
import { db, sqlite } from "~/.server/db";
import { parseListState } from "~/lib/list-params";
import { AUDIT_LIST } from "~/lib/lists";
import { listAudit } from "~/models/audit.server";
import { type SignedIn, capturePrepared, loginAs } from "../support/fixtures";

const MIGRATION = fs.readFileSync(path.resolve(import.meta.dirname, "../../drizzle/0045_audit_log_dense.sql"), "utf8");
const [CREATE_DENSE, FILL_DENSE] = MIGRATION.split("--> statement-breakpoint");

const DAY = 24 * 60 * 60 * 1000;
/** Four days far ahead of any entry the suite writes (times never go backwards along the chain). */
const FIRST_DAY = Date.UTC(2099, 0, 1, 15);

/** The entries of 2099-01-02 and 2099-01-03 (the second and third days), as SQL on the trail. */
const RANGE = `created_at >= ${FIRST_DAY + DAY - 12 * 60 * 60 * 1000} and created_at < ${FIRST_DAY + 3 * DAY - 12 * 60 * 60 * 1000}`;
const RANGE_QUERY = "from=2099-01-02&to=2099-01-03";

const state = (query: string) => parseListState(new URL(`http://x/settings/audit?${query}`), AUDIT_LIST);

/** The page as OFFSET reads it, newest first: what every way of reaching it must show. */
function expectedPage(where: string, page: number) {
  const ids = sqlite.prepare(`select id from audit_log where ${where} order by id desc limit 25 offset ?`).pluck().all((page - 1) * 25) as number[];
  const total = sqlite.prepare(`select count(*) from audit_log where ${where}`).pluck().get() as number;
  return { ids, total };
}

/** The statements `fn` prepares on the trail, through drizzle on `sqlite`. */
const statementsOf = (fn: () => void) => capturePrepared(fn).filter((source) => /from "audit_log"/.test(source));

/** What migration 0045 stores for a trail of these ids. */
function denseFrom(ids: number[]): number {
  const conn = new Database(":memory:");
  conn.exec("create table audit_log (id integer primary key)");
  for (const id of ids) conn.prepare("insert into audit_log (id) values (?)").run(id);
  conn.exec(CREATE_DENSE);
  conn.exec(FILL_DENSE);
  const first = conn.prepare("select first_id from audit_log_dense").pluck().get() as number;
  conn.close();
  return first;
}

let admin: SignedIn;

beforeAll(async () => {
  admin = await loginAs("admin", { name: "Ana Trilha" });
  // 40 entries on each of four days.
  for (let day = 0; day < 4; day += 1) {
    for (let i = 0; i < 40; i += 1) {
      appendEntry(sqlite, { userId: null, action: "view", entity: "patient", entityId: String(i), changes: null, ip: null, now: FIRST_DAY + day * DAY + i * 1000 });
    }
  }
});

describe("migration 0045", () => {
  it("stores the first id after the trail's last gap", () => {
    expect(denseFrom([])).toBe(1);
    expect(denseFrom([1, 2, 3])).toBe(1);
    expect(denseFrom([4, 5, 6])).toBe(4);
    expect(denseFrom([1, 2, 3, 5, 6, 7])).toBe(5);
    expect(denseFrom([1, 3, 4, 9, 10])).toBe(9);
    expect(denseFrom([2, 7])).toBe(7);
  });
});

describe("the audit screen's pages", () => {
  it("counts the whole trail and a date range exactly and finds a typed page from its number", () => {
    const every = "1";
    const lastPage = Math.ceil(expectedPage(every, 1).total / 25);
    for (const [query, where, pages] of [
      ["", every, [1, 2, 3, Math.ceil(lastPage / 2), lastPage - 1, lastPage]],
      [RANGE_QUERY, RANGE, [1, 2, 3, 4]],
    ] as const) {
      for (const page of pages) {
        let listed!: ReturnType<typeof listAudit>;
        const statements = statementsOf(() => {
          listed = listAudit(state(`${query}&page=${page}`));
        });
        const expected = expectedPage(where, page);
        expect(listed.rows.map((row) => row.id), `${query} page ${page}`).toEqual(expected.ids);
        expect({ total: listed.total, capped: listed.totalCapped }, `${query} page ${page}`).toEqual({ total: expected.total, capped: false });
        // No statement passes over the entries before the page; the page is sought in one id range,
        // not a range and a cursor (SQLite bounds a search by one condition each way: it took the
        // range's and passed over every entry up to the cursor).
        expect(statements.filter((source) => / offset |\("audit_log"\."id", "audit_log"\."id"\) [<>]/.test(source)), `${query} page ${page}`).toEqual([]);
      }
    }
    expect(expectedPage(RANGE, 1).total).toBe(80);
  });

  it("reads 'Próxima' and 'Anterior' from a page's cursor within the range", () => {
    const first = listAudit(state(RANGE_QUERY));
    const second = listAudit(state(`${RANGE_QUERY}&page=2&after=${encodeURIComponent(first.next!)}`));
    expect(second.rows.map((row) => row.id)).toEqual(expectedPage(RANGE, 2).ids);
    const third = listAudit(state(`${RANGE_QUERY}&page=3&after=${encodeURIComponent(second.next!)}`));
    expect(third.rows.map((row) => row.id)).toEqual(expectedPage(RANGE, 3).ids);
    const back = listAudit(state(`${RANGE_QUERY}&page=2&before=${encodeURIComponent(third.prev!)}`));
    expect(back.rows.map((row) => row.id)).toEqual(second.rows.map((row) => row.id));
    // The range's last page ends at its oldest entry, not past it.
    const fourth = listAudit(state(`${RANGE_QUERY}&page=4&after=${encodeURIComponent(third.next!)}`));
    expect(fourth.rows.map((row) => row.id)).toEqual(expectedPage(RANGE, 4).ids);
    expect(fourth.rows).toHaveLength(5);
    expect(fourth.next).toBeNull();
  });

  it("reads a trail with ids missing, from before the chain, by walking it as before", () => {
    const removed = Number(sqlite.prepare("select id from audit_log order by id limit 1 offset 20").pluck().get());
    withAuditGuardsLifted(sqlite, () => sqlite.prepare("delete from audit_log where id = ?").run(removed));
    sqlite.exec("delete from audit_log_dense");
    sqlite.exec(FILL_DENSE);
    expect(sqlite.prepare("select first_id from audit_log_dense").pluck().get()).toBe(removed + 1);

    const lastPage = Math.ceil(expectedPage("1", 1).total / 25);
    for (const page of [1, 2, lastPage - 1, lastPage]) {
      const listed = listAudit(state(`page=${page}`));
      expect(listed.rows.map((row) => row.id), `page ${page}`).toEqual(expectedPage("1", page).ids);
      expect(listed.total).toBe(expectedPage("1", 1).total);
    }
    // A date range past the gap is still worked out from its ids.
    const statements = statementsOf(() => listAudit(state(`${RANGE_QUERY}&page=3`)));
    expect(statements.filter((source) => / offset /.test(source))).toEqual([]);
  });

  it("keeps a page until the next entry, or until an account's name changes", () => {
    const first = listAudit(state(""));
    expect(listAudit(state(""))).toBe(first);
    // As the app writes a view's entry: without a new version of the data (app/.server/data-cache.ts).
    recordAudit(db, { userId: null, action: "view", entity: "patient", entityId: 1 });
    const next = listAudit(state(""));
    expect(next).not.toBe(first);
    expect(next.rows[0].id).toBe(first.rows[0].id + 1);
    expect(next.total).toBe(first.total + 1);
    recordAudit(db, { userId: admin.id, action: "login", entity: "session", entityId: admin.id });
    const before = listAudit(state(""));
    expect(before.rows[0].userName).toBe("Ana Trilha");
    sqlite.prepare("update profiles set name = 'Nome Novo da Trilha' where id = ?").run(admin.id);
    expect(listAudit(state("")).rows[0].userName).toBe("Nome Novo da Trilha");
  });
});
