/**
 * Lists at scale: keyset pages equal the numbered pages they replace, totals come from maintained
 * counters or a capped count, and the main queries' plans never scan a big table or sort it in a
 * temporary B-tree.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, sqlite } from "~/.server/db";
import { COUNT_CAP, tableCount } from "~/.server/pagination";
import { type ListParams, PAGE_SIZE, parseCursor } from "~/lib/list-params";
import type { PatientSort } from "~/lib/lists";
import { listAppointments } from "~/models/appointment.server";
import { listPatients, patientSearchText } from "~/models/patient.server";
import { listSurgeries } from "~/models/surgery.server";
import type { PackedScheduleDay } from "~/models/schedule.server";
import type { PackedRows } from "~/lib/packed-rows";
import { unpackScheduleDays } from "~/components/schedule/schedule-views";
import { listPaid, listReceivables } from "~/models/receivable.server";
import { loadColumn } from "~/models/pipeline.server";
import { listDocuments } from "~/models/document.server";
import { capturePrepared, insertDoctor } from "../support/fixtures";

const PATIENTS = 130; // a little over five pages
let doctorId: number;

beforeAll(() => {
  doctorId = insertDoctor("Dra. Paginação");
  const insertPatient = sqlite.prepare("insert into patients (name, search_text, created_at, updated_at) values (?, ?, ?, ?)");
  const insertAppointment = sqlite.prepare(
    "insert into appointments (patient_id, doctor_id, start_time, end_time, type, status) values (?, ?, ?, ?, 'Consulta', 'completed')",
  );
  sqlite.transaction(() => {
    for (let i = 0; i < PATIENTS; i += 1) {
      // Duplicate names (every tenth twice) prove the id breaks ties.
      const name = `Paginado ${String(Math.floor(i / 2) * 2).padStart(4, "0")}`;
      const at = Date.UTC(2020, 0, 1) + (i % 7) * 86_400_000;
      const id = Number(insertPatient.run(name, patientSearchText({ name, cpf: null, email: null, phone: null }), at, at).lastInsertRowid);
      const start = Date.UTC(2021, 0, 1) + (i % 40) * 3_600_000; // ties on start_time too
      insertAppointment.run(id, doctorId, start, start + 1_800_000);
    }
  })();
});

/** Walks a list by its own 'Próxima' cursors, then back by 'Anterior', and compares with numbered pages. */
function walk<Row extends { id: number }>(list: (state: ListParams<never> & { page: number }) => { rows: Row[]; page: number; next: string | null; prev: string | null }, state: Omit<ListParams<never>, "page">) {
  const byOffset: number[][] = [];
  for (let page = 1; ; page += 1) {
    const rows = list({ ...state, page }).rows.map((r) => r.id);
    if (rows.length === 0) break;
    byOffset.push(rows);
  }
  const forward: number[][] = [];
  const cursors: (string | null)[] = [];
  let current = list({ ...state, page: 1 });
  forward.push(current.rows.map((r) => r.id));
  while (current.next) {
    cursors.push(current.next);
    current = list({ ...state, page: current.page + 1, after: parseCursor(current.next) });
    forward.push(current.rows.map((r) => r.id));
  }
  const backward: number[][] = [forward.at(-1)!];
  while (current.page > 1) {
    current = current.prev
      ? list({ ...state, page: current.page - 1, before: parseCursor(current.prev) })
      : list({ ...state, page: 1 });
    backward.unshift(current.rows.map((r) => r.id));
  }
  return { byOffset, forward, backward };
}

describe("keyset pages", () => {
  for (const [sort, dir] of [["name", "asc"], ["name", "desc"], ["createdAt", "asc"], ["createdAt", "desc"]] as [PatientSort, "asc" | "desc"][]) {
    it(`patients by ${sort} ${dir}: the cursor pages are the numbered pages, forward and back`, () => {
      const { byOffset, forward, backward } = walk((s) => listPatients({ ...s, sort }), { q: "paginado", sort: sort as never, dir });
      expect(byOffset).toHaveLength(Math.ceil(PATIENTS / PAGE_SIZE));
      expect(forward).toEqual(byOffset);
      expect(backward).toEqual(byOffset);
    });
  }

  it("appointments and surgeries page the same way (ties on the date broken by id)", () => {
    for (const dir of ["asc", "desc"] as const) {
      const { byOffset, forward, backward } = walk((s) => listAppointments({ ...s, sort: "startTime" }, { doctorId }), {
        q: "",
        sort: "startTime" as never,
        dir,
      });
      expect(byOffset.flat()).toHaveLength(PATIENTS);
      expect(forward).toEqual(byOffset);
      expect(backward).toEqual(byOffset);
    }
    const surgeries = listSurgeries({ q: "", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null });
    expect(surgeries).toMatchObject({ rows: [], next: null, prev: null, page: 1 });
  });
});

describe("numbered pages", () => {
  it("a typed page deep in a list passes over the rows before it in the order's index, without the screen's joins", () => {
    // Surgeries to page through, ties on the date broken by id.
    const patientIds = sqlite.prepare("select id from patients order by id limit 80").pluck().all() as number[];
    const insertSurgery = sqlite.prepare("insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, current_stage) values (?, ?, 'Numerada', ?, 'aprovado')");
    sqlite.transaction(() => patientIds.forEach((id, i) => insertSurgery.run(id, doctorId, Date.UTC(2022, 0, 1) + (i % 30) * 86_400_000)))();
    // All of them performed, to be billed, sixty of those paid on ten days.
    sqlite.prepare("update surgeries set receivable_status = 'realizado', billed_amount_cents = 1000 where surgery_type = 'Numerada'").run();
    sqlite
      .prepare("update surgeries set receivable_status = 'pago', paid_at = ? + (id % 10) * 86400000 where id in (select id from surgeries where surgery_type = 'Numerada' order by id limit 60)")
      .run(Date.UTC(2023, 0, 1));
    const lists: [string, number, (state: ListParams<never> & { page: number }) => { rows: { id: number }[]; page: number; next: string | null; prev: string | null }][] = [
      ["surgeries", 80, (s) => listSurgeries({ ...s, sort: "scheduledDate" }, { status: null, stage: "aprovado", doctorId })],
      ["receivables", 80, (s) => listReceivables({ ...s, sort: "scheduledDate" }, { status: null, payerId: null }, "all")],
      ["paid", 60, (s) => listPaid({ ...s, sort: "paidAt" }, { payerId: null, from: null, to: null }, "all")],
      ["pipeline column", 80, (s) => loadColumn("aprovado", { ...s, sort: "scheduledDate" }, { doctorId, payerId: null, hospitalId: null, ans: null })],
    ];
    // Documents, on four days: a list joined to patients and surgeries.
    const insertDocument = sqlite.prepare(
      "insert into documents (patient_id, category, original_name, mime_type, size_bytes, sha256, storage_name, created_at, updated_at) values (?, 'exame', ?, 'application/pdf', 1, ?, ?, ?, ?)",
    );
    sqlite.transaction(() =>
      patientIds.slice(0, 70).forEach((id, i) => {
        const at = Date.UTC(2024, 0, 1) + (i % 4) * 86_400_000;
        insertDocument.run(id, `Numerado ${i}.pdf`, "a".repeat(64), `numerado-${i}`, at, at);
      }),
    )();
    lists.push(["documents", 70, (s) => listDocuments({ ...s, sort: "createdAt" }, { patientId: null, category: "exame", from: null, to: null })]);
    for (const [label, size, list] of lists) {
      for (const dir of ["asc", "desc"] as const) {
        const pages = walk(list, { q: "", sort: "scheduledDate" as never, dir });
        expect(pages.byOffset.flat(), label).toHaveLength(size);
        expect(pages.forward, label).toEqual(pages.byOffset);
        if (label === "pipeline column") break; // always by date, oldest first
      }
    }
    sqlite.prepare("update doctors set name = name").run(); // a write to what the lists read: located again
    const typedPages = () => {
      listAppointments({ q: "", page: 3, sort: "startTime", dir: "desc" }, { doctorId });
      listSurgeries({ q: "", page: 2, sort: "scheduledDate", dir: "asc" }, { status: null, stage: "aprovado", doctorId });
      listReceivables({ q: "", page: 2, sort: "scheduledDate", dir: "desc" }, { status: null, payerId: null }, "all");
      listPaid({ q: "", page: 2, sort: "paidAt", dir: "desc" }, { payerId: null, from: null, to: null }, "all");
      loadColumn("aprovado", { q: "", page: 3, sort: "scheduledDate", dir: "asc" }, { doctorId, payerId: null, hospitalId: null, ans: null });
    };
    const statements = capture(typedPages);
    // Each page's row before it is found in one table, and the joined page read from it by keyset.
    const located = statements.filter((s) => /^select "(start_time|scheduled_date|paid_at)", "id" from "(appointments|surgeries)" where .* limit \? offset \?$/.test(s));
    expect(located).toHaveLength(5);
    const joined = statements.filter((s) => /inner join/.test(s));
    expect(joined.length).toBeGreaterThanOrEqual(5);
    // Joined from the position, or (a filter's page, a column's) from the page's ids found without the joins.
    for (const statement of joined) expect(statement).toMatch(/\) [<>] \(\?, \?\)|"(appointments|surgeries)"\."id" in \(/);
    // Viewed again before any write, the rows are not looked for again.
    expect(capture(typedPages).filter((s) => / offset \?$/.test(s) && !/count\(/.test(s))).toEqual([]);
  });
});

describe("totals", () => {
  it("an unfiltered total is the maintained counter, exact after inserts and deletes", () => {
    const count = () => (sqlite.prepare("select count(*) from patients").pluck().get() as number);
    expect(tableCount("patients")).toBe(count());
    const id = Number(sqlite.prepare("insert into patients (name, search_text) values ('Contado', ' contado ')").run().lastInsertRowid);
    expect(tableCount("patients")).toBe(count());
    sqlite.prepare("delete from patients where id = ?").run(id);
    expect(tableCount("patients")).toBe(count());
    expect(listPatients({ q: "", page: 1, sort: "name", dir: "asc" })).toMatchObject({ total: count(), totalCapped: false });
  });

  it(`a search's total is exact up to ${COUNT_CAP.toLocaleString("pt-BR")} and capped beyond`, () => {
    expect(listPatients({ q: "paginado", page: 1, sort: "name", dir: "asc" })).toMatchObject({ total: PATIENTS, totalCapped: false });
    const insert = sqlite.prepare("insert into patients (name, search_text) values (?, ?)");
    sqlite.transaction(() => {
      for (let i = 0; i < COUNT_CAP + 5; i += 1) insert.run(`Muitos ${i}`, ` muitos ${i} `);
    })();
    const common = listPatients({ q: "muitos", page: 1, sort: "name", dir: "asc" });
    expect(common).toMatchObject({ total: COUNT_CAP, totalCapped: true });
    // So many matches are read in the order's index: the same pages, in the same order.
    const names = (rows: { name: string }[]) => rows.map((r) => r.name);
    const all = sqlite.prepare("select name from patients where search_text like '% muitos %' order by search_text, id").pluck().all() as string[];
    expect(names(common.rows)).toEqual(all.slice(0, PAGE_SIZE));
    const second = listPatients({ q: "muitos", page: 2, sort: "name", dir: "asc", after: parseCursor(common.next) });
    expect(names(second.rows)).toEqual(all.slice(PAGE_SIZE, 2 * PAGE_SIZE));
    const byDate = listPatients({ q: "muitos", page: 1, sort: "createdAt", dir: "desc" });
    expect(byDate.rows).toHaveLength(PAGE_SIZE);
    // Inserting more than the cap's worth of patients takes seconds on a busy machine.
  }, 30_000);

  it("a search that matches nothing reads no page after its count", () => {
    for (const list of [
      () => listAppointments({ q: "nadaconsta", page: 1, sort: "startTime", dir: "desc" }),
      () => listSurgeries({ q: "nadaconsta", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null }),
    ]) {
      let result: ReturnType<typeof list> | undefined;
      const statements = capturePrepared(() => void (result = list()));
      expect(result).toMatchObject({ rows: [], total: 0, totalCapped: false, next: null, prev: null });
      // The search's one read of its matches only: no page's rows read.
      expect(statements.filter((s) => /inner join/i.test(s))).toEqual([]);
    }
  });
});

describe("a common search whose matches gather under one letter (a first name)", () => {
  it("pages the same as a sort of its matches, in both orders, forward and back", { timeout: 30_000 }, async () => {
    const { searchPatientOptions } = await import("~/models/patient.server");
    const insert = sqlite.prepare("insert into patients (name, search_text) values (?, ?)");
    sqlite.transaction(() => {
      // More names before them than a page's walk of the name index reads (4 000), then 2 100
      // matches: common enough to be looked for in name order, all of them under Z.
      for (let i = 0; i < 4_500; i += 1) insert.run(`Abelardo Antes ${i}`, ` abelardo antes ${i} `);
      for (let i = 0; i < 2_100; i += 1) insert.run(`Zuleica Junto ${String(i).padStart(4, "0")}`, ` zuleica junto ${String(i).padStart(4, "0")} `);
    })();
    const sorted = sqlite.prepare("select id from patients where search_text like '% zuleica %' order by search_text, id").pluck().all() as number[];
    expect(sorted).toHaveLength(2_100);
    for (const dir of ["asc", "desc"] as const) {
      const first = listPatients({ q: "zuleica", page: 1, sort: "name", dir });
      expect(first).toMatchObject({ total: 2_100, totalCapped: false });
      const expected = dir === "asc" ? sorted : [...sorted].reverse();
      expect(first.rows.map((r) => r.id)).toEqual(expected.slice(0, PAGE_SIZE));
      const { byOffset, forward, backward } = walk((s) => listPatients({ ...s, sort: "name" }), { q: "zuleica", sort: "name" as never, dir });
      expect(byOffset.flat()).toEqual(expected);
      expect(forward).toEqual(byOffset);
      expect(backward).toEqual(byOffset);
    }
    // The picker finds them too, first ones first.
    const options = searchPatientOptions("zuleica", 20);
    expect(options.map((o) => o.id)).toEqual(sorted.slice(0, 20));
  });
});

/** The query plan's lines for `query` (EXPLAIN QUERY PLAN). */
function planOf(query: { toSQL(): { sql: string; params: unknown[] } }): string {
  const { sql: text, params } = query.toSQL();
  const rows = sqlite.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[];
  return rows.map((r) => r.detail).join("\n");
}

/** Captures the list queries a model runs, to read their plans. */
const capture = capturePrepared;

describe("query plans", () => {
  const bigTables = ["patients", "appointments", "surgeries"];
  const assertIndexed = (plan: string) => {
    for (const table of bigTables) expect(plan, plan).not.toMatch(new RegExp(`^SCAN ${table}$`, "m"));
    expect(plan, plan).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
  };

  it("a deep page by cursor seeks through the order's index (patients, appointments, surgeries)", () => {
    const cursor = ["paginado 0050", 51] as const;
    const patients = db
      .select({ id: sql`id` })
      .from(sql`patients`)
      .where(sql`(search_text, id) > (${cursor[0]}, ${cursor[1]})`)
      .orderBy(sql`search_text`, sql`id`)
      .limit(26);
    const patientsPlan = planOf(patients);
    expect(patientsPlan).toMatch(/SEARCH patients USING (COVERING )?INDEX patients_search_text_idx \(search_text>\?\)/);
    assertIndexed(patientsPlan);

    // A surgery to page through (a list with nothing to show reads no page).
    const patient = sqlite.prepare("select id from patients limit 1").pluck().get();
    sqlite
      .prepare("insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, current_stage) values (?, ?, 'Paginada', ?, 'aprovado')")
      .run(patient, doctorId, Date.UTC(2020, 0, 1));
    const statements = capture(() => {
      listAppointments({ q: "", page: 2, sort: "startTime", dir: "desc", after: [Date.UTC(2021, 0, 1), 5] });
      listAppointments({ q: "", page: 2, sort: "startTime", dir: "asc", after: [Date.UTC(2021, 0, 1), 5] }, { doctorId, status: "completed" });
      listSurgeries({ q: "", page: 2, sort: "scheduledDate", dir: "desc", after: [Date.UTC(2021, 0, 1), 5] }, { status: null, stage: "aprovado", doctorId: null });
      listPatients({ q: "", page: 2, sort: "createdAt", dir: "desc", after: [Date.UTC(2020, 0, 1), 5] });
    });
    const lists = statements.filter((s) => /limit \?/.test(s) && !/count\(/.test(s));
    expect(lists.length).toBeGreaterThanOrEqual(4);
    for (const statement of lists) {
      const params = (statement.match(/\?/g) ?? []).map(() => 0);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      // A filter's page joined from its ids, found by the walk just checked, sorts that page at most.
      if (/"(appointments|surgeries)"\."id" in \(/.test(statement)) expect(plan, plan).toMatch(/USING INTEGER PRIMARY KEY/);
      else assertIndexed(plan);
    }
  });

  it("a common search's page walks the name index alone, and stops at the page", () => {
    const statements = capture(() => {
      listPatients({ q: "paginado", page: 1, sort: "name", dir: "asc" });
      listPatients({ q: "muitos", page: 1, sort: "name", dir: "asc" });
    });
    const window = statements.find((s) => s.includes("name_window"));
    expect(window, statements.join("\n")).toBeDefined();
    const params = (window!.match(/\?/g) ?? []).map((_, i) => (i === 1 ? "%muitos%" : 26));
    const plan = (sqlite.prepare(`explain query plan ${window}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
    expect(plan, plan).toMatch(/SCAN patients USING COVERING INDEX patients_search_text_idx/);
    assertIndexed(plan);
  });

  it("filtered counts walk an index, never the table, and are kept until what they read is written", () => {
    const lists = () => {
      listAppointments({ q: "", page: 1, sort: "startTime", dir: "desc" }, { doctorId, status: null });
      listAppointments({ q: "", page: 1, sort: "startTime", dir: "desc" }, { doctorId: null, status: "completed" });
      listSurgeries({ q: "", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: "aprovado", doctorId: null });
    };
    sqlite.prepare("update doctors set name = name where id = ?").run(doctorId); // a write to the doctors, which both lists read: counted again
    const statements = capture(lists);
    const counts = statements.filter((s) => /count\(/.test(s));
    expect(counts.length).toBe(3);
    expect(capture(lists).filter((s) => /count\(/.test(s))).toEqual([]);
    for (const statement of counts) {
      const params = (statement.match(/\?/g) ?? []).map((_, i) => (i === 0 ? "completed" : 1));
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      for (const table of bigTables) expect(plan, plan).not.toMatch(new RegExp(`SCAN ${table}( |$)`, "m"));
    }
  });
});

describe("the schedule is bounded", () => {
  it("a busy week shows at most WEEK_DAY_LIMIT per day with the day's total; the day view caps too", async () => {
    const { loginAs, routeArgs, getRequest } = await import("../support/fixtures");
    const { loader } = await import("~/routes/schedule");
    const { WEEK_DAY_LIMIT } = await import("~/models/schedule.server");
    const admin = await loginAs("admin");
    const patient = Number(sqlite.prepare("insert into patients (name, search_text) values ('Agenda Cheia', ' agenda cheia ')").run().lastInsertRowid);
    const insert = sqlite.prepare(
      "insert into appointments (patient_id, doctor_id, start_time, end_time, type, status) values (?, ?, ?, ?, 'Consulta', 'scheduled')",
    );
    const busy = WEEK_DAY_LIMIT + 15;
    sqlite.transaction(() => {
      for (let i = 0; i < busy; i += 1) {
        const doctor = insertDoctor(`Dr. Agenda ${i}`);
        const start = Date.parse("2031-03-12T13:00:00Z");
        insert.run(patient, doctor, start, start + 1_800_000);
      }
    })();
    const week = (await loader(routeArgs(getRequest("/schedule?view=week&date=2031-03-12", { cookie: admin.cookie })))) as {
      days: PackedRows<PackedScheduleDay>;
    };
    const day = unpackScheduleDays(week.days).find((d) => d.date === "2031-03-12")!;
    expect(day.total).toBe(busy);
    expect(day.entries).toHaveLength(WEEK_DAY_LIMIT);
  });
});

describe("dashboard figures", () => {
  it("are served from the cache between writes, equal a full recomputation, and follow every write", async () => {
    const { getCachedDashboardStats, getDashboardStats } = await import("~/models/dashboard.server");
    const now = new Date("2031-03-12T15:00:30Z");
    const minute = new Date("2031-03-12T15:00:00Z");
    const first = getCachedDashboardStats({ includeRevenue: true, now });
    expect(first).toEqual(getDashboardStats({ includeRevenue: true, now: minute }));
    // Same data, same minute: the very same object, no recomputation.
    expect(getCachedDashboardStats({ includeRevenue: true, now: new Date("2031-03-12T15:00:59Z") })).toBe(first);

    sqlite.prepare("insert into patients (name, search_text) values ('Depois do Cache', ' depois do cache ')").run();
    const after = getCachedDashboardStats({ includeRevenue: true, now });
    expect(after).not.toBe(first);
    expect(after.patients.total).toBe(first.patients.total + 1);
    expect(after).toEqual(getDashboardStats({ includeRevenue: true, now: minute }));
  });
});
