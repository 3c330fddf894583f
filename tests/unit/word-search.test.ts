/**
 * Searches of appointments and surgeries driven by their words' own matches
 * (app/models/word-search.server.ts): every total and every page, forward and back, equals a
 * brute-force filter of every row, for rare, common, short, multi-word and document searches, with
 * and without filters, with rows written by hand; the maintained keys stay equal to the rows; and
 * the statements of a search never scan a big table.
 */
import { type SQL, and, asc, eq, getTableName } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appointments, patients } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { COUNT_CAP, type KeysetOrder } from "~/.server/pagination";
import { appointmentSearchKey, fillSearchKeys, surgerySearchKeyColumns } from "~/.server/search-keys";
import { searchWords } from "~/.server/search-sql";
import { type ListParams, PAGE_SIZE, parseCursor } from "~/lib/list-params";
import type { AppointmentFilters, SurgeryFilters } from "~/lib/lists";
import { APPOINTMENT_STATUSES } from "~/lib/enums";
import { normalizeSearch } from "~/lib/search";
import { APPOINTMENT_SEARCH, createAppointment, deleteAppointment, listAppointments, updateAppointment } from "~/models/appointment.server";
import { patientSearch } from "~/models/patient.server";
import { SURGERY_SEARCH, listSurgeries } from "~/models/surgery.server";
import { searchSurgeryOptions } from "~/models/task-options.server";
import { type ReceivableScope, listReceivables, receivableItems } from "~/models/receivable.server";
import type { ReceivableStatus } from "~/lib/receivables";
import { type WordSearchPlan, type WordSearchTable, isShort, planWordSearch, wordSearchPage } from "~/models/word-search.server";
import { capturePrepared, insertDoctor, insertPatient, insertPayer, loginAs } from "./helpers";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20261127);
const pick = <T,>(items: readonly T[]) => items[Math.floor(rand() * items.length)];

// 'y' is held by the Rosys alone (an eighth of the patients), 'k' by Kwame Kowalski alone, 'q' by no one.
const FIRST = ["Maria", "José", "Igor", "Ana", "João", "Vitória", "Sílvio", "Rosy"];
const LAST = ["Silva", "Santos", "da Silva", "Oliveira", "Silveira", "Rocha", "Ômega", "Costa"];
const TYPES = ["Consulta", "Retorno", "Avaliação Pré-operatória", "Retorno Pós-operatório", "Infiltração"];
const LOCATIONS = ["Consultório 1", "Consultório 2", "Sala Ômega", "Hospital Santos", "Sala (Anexo)", null];
const HOSPITALS = ["Hospital Sírio", "Santa Rosa", "Hospital Silva Jardim", null];
const PAYERS = ["Unimed", "Bradesco Saúde", "SulAmérica", null];
const STATUSES = APPOINTMENT_STATUSES;
const DAY = 86_400_000;

let userId: number;
const doctorIds: number[] = [];
const patientIds: number[] = [];

beforeAll(async () => {
  userId = (await loginAs("admin")).id;
  for (const name of ["Dra. Silvana Rocha", "Dr. Ivo Santos", "Dr. Pedro Alves", "Dra. Luíza Igor"]) {
    doctorIds.push(insertDoctor(name, { crm: String(100000 + doctorIds.length) }));
  }
  for (let i = 0; i < 160; i += 1) {
    const name = `${pick(FIRST)} ${pick(LAST)} ${i % 3 === 0 ? pick(LAST) : ""}`.trim();
    const cpf = i % 10 === 0 ? `${String(10_000_000_000 + i * 7_919)}` : undefined;
    patientIds.push(insertPatient(name, cpf ? { cpf } : {}));
  }
  // The one patient whose key holds 'kw': a short word held by few patients.
  patientIds.push(insertPatient("Kwame Kowalski"));
  const insertByHand = sqlite.prepare(
    "insert into appointments (patient_id, doctor_id, start_time, end_time, type, location, status) values (?, ?, ?, ?, ?, ?, ?)",
  );
  const insertKeyed = sqlite.prepare(
    "insert into appointments (patient_id, doctor_id, start_time, end_time, type, location, status, search_text) values (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertSurgery = sqlite.prepare(
    `insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, hospital, payer_name, guide_number, status, current_stage, search_text, search_class)
     values (?, ?, ?, ?, ?, ?, ?, 'scheduled', 'aguarda_docs', ?, ?)`,
  );
  sqlite.transaction(() => {
    for (let i = 0; i < 1_400; i += 1) {
      // Several appointments share a start time: the id breaks the tie.
      const start = Date.UTC(2024, 0, 1) + Math.floor(rand() * 600) * DAY + (i % 4) * 3_600_000;
      const type = pick(TYPES);
      const location = pick(LOCATIONS);
      const row = [pick(patientIds), pick(doctorIds), start, start + 1_800_000, type, location, pick(STATUSES)] as const;
      // One in ten written by hand, without a key (found by folding its text on the fly).
      if (i % 10 === 0) insertByHand.run(...row);
      else insertKeyed.run(...row, appointmentSearchKey({ type, location }));
    }
    for (let i = 0; i < 300; i += 1) {
      const surgery = { surgeryType: pick(["Artrodese Lombar", "Microdiscectomia", "Rizotomia", "Craniotomia"]), hospital: pick(HOSPITALS), payerName: pick(PAYERS), guideNumber: i % 4 ? `G-${7000 + i}` : null };
      const when = Date.UTC(2024, 0, 1) + Math.floor(rand() * 400) * DAY;
      const keys = i % 9 === 0 ? null : surgerySearchKeyColumns(surgery);
      insertSurgery.run(pick(patientIds), pick(doctorIds), surgery.surgeryType, when, surgery.hospital, surgery.payerName, surgery.guideNumber, keys?.searchText ?? null, keys?.searchClass ?? null);
    }
  })();
  // Text changed by hand: the key goes, the new text is found.
  sqlite.prepare("update appointments set location = 'Sala Delta' where id % 37 = 0").run();
  sqlite.prepare("update surgeries set hospital = 'Hospital Delta' where id % 23 = 0").run();
});

interface Row {
  id: number;
  date: number;
  patientId: number;
  doctorId: number;
  own: string;
  status: string;
  stage?: string;
}

/** The matches of `q` by brute force: every row, every word tested in JavaScript (patients through their own search). */
function expected(rows: Row[], q: string, keep: (row: Row) => boolean, dir: "asc" | "desc") {
  const doctorKeys = new Map(
    (sqlite.prepare("select id, search_text from doctors").all() as { id: number; search_text: string }[]).map((d) => [d.id, d.search_text]),
  );
  const words = searchWords(q);
  const patientsOf = words.map((word) => new Set(db.select({ id: patients.id }).from(patients).where(patientSearch(word)).all().map((p) => p.id)));
  const matches = rows.filter(
    (row) =>
      keep(row) &&
      words.every((word, i) => patientsOf[i].has(row.patientId) || doctorKeys.get(row.doctorId)!.includes(word) || row.own.includes(word)),
  );
  const sign = dir === "asc" ? 1 : -1;
  return matches.sort((a, b) => sign * (a.date - b.date || a.id - b.id)).map((row) => row.id);
}

const appointmentRows = () =>
  (sqlite.prepare("select id, start_time as date, patient_id as patientId, doctor_id as doctorId, type, location, status from appointments").all() as (Row & { type: string; location: string | null })[]).map(
    (row) => ({ ...row, own: appointmentSearchKey(row) }),
  );
const surgeryRows = () =>
  (
    sqlite
      .prepare(
        "select id, scheduled_date as date, patient_id as patientId, doctor_id as doctorId, surgery_type as surgeryType, hospital, payer_name as payerName, guide_number as guideNumber, status, current_stage as stage from surgeries",
      )
      .all() as (Row & { surgeryType: string; hospital: string | null; payerName: string | null; guideNumber: string | null })[]
  ).map((row) => ({ ...row, own: surgerySearchKeyColumns(row).searchText }));

type Listed = { rows: { id: number }[]; page: number; total: number; totalCapped: boolean; next: string | null; prev: string | null };

/** Every page of a list: numbered, then by its own cursors forward and back. */
function pagesOf(list: (state: ListParams<never>) => Listed, q: string, dir: "asc" | "desc") {
  const state = { q, sort: "date" as never, dir };
  const first = list({ ...state, page: 1 });
  const numbered: number[] = [];
  for (let page = 1; page <= Math.ceil(first.total / PAGE_SIZE) + 1; page += 1) numbered.push(...list({ ...state, page }).rows.map((r) => r.id));
  const forward: number[][] = [first.rows.map((r) => r.id)];
  let current = first;
  while (current.next) {
    current = list({ ...state, page: current.page + 1, after: parseCursor(current.next) });
    forward.push(current.rows.map((r) => r.id));
  }
  const backward: number[][] = [forward.at(-1)!];
  while (current.page > 1) {
    current = current.prev ? list({ ...state, page: current.page - 1, before: parseCursor(current.prev) }) : list({ ...state, page: 1 });
    backward.unshift(current.rows.map((r) => r.id));
  }
  return { total: first.total, capped: first.totalCapped, numbered, forward, backward };
}

/** Every query with every filter set, in both orders: the list's total and pages equal the brute force's. */
function expectBruteForce<Filters>(
  rows: Row[],
  queries: string[],
  filterSets: { filters: Filters; keep: (row: Row) => boolean }[],
  list: (state: ListParams<never>, filters: Filters) => Listed,
) {
  for (const q of queries) {
    for (const { filters, keep } of filterSets) {
      for (const dir of ["desc", "asc"] as const) {
        const want = expected(rows, q, keep, dir);
        const got = pagesOf((state) => list(state, filters), q, dir);
        const label = `${q} ${JSON.stringify(filters)} ${dir}`;
        expect(got.total, label).toBe(want.length);
        expect(got.capped, label).toBe(false);
        expect(got.numbered, label).toEqual(want);
        expect(got.forward.flat(), label).toEqual(want);
        expect(got.backward, label).toEqual(got.forward);
      }
    }
  }
}

const QUERIES = [
  "silva", // patients, a doctor (Silvana) and a hospital
  "igor", // a patient's first name and a doctor's surname
  "retorno", // own text only, most rows
  "maria silva",
  "silva retorno",
  "da silva consulta",
  "omega", // a surname and a room
  "ro", // two characters: its patients found by their trigrams (surgeries: by their keys)
  "m", // a short word most patients hold
  "kw", // two characters one patient holds
  "k", // a short word one patient holds
  "q", // a short word nothing holds
  "(", // a short word no patient holds, in a location
  "zq", // a short word nothing holds
  "1",
  "sa ro",
  "santos 1",
  "delta", // text changed by hand
  "g-70", // guide numbers
  "nadaconsta",
  "nada silva",
  "100000",
  // Several words, each found by patients, doctors or keys in every combination (coverParts):
  "igor santos", // a doctor each (Luíza Igor, Ivo Santos), a location (Hospital Santos), patients
  "silvana rocha", // one doctor holds both
  "hospital santos igor", // one location holds two of three
  "consultorio maria", // keys and patients
  "retorno omega silva",
  "rosa silveira",
];

describe("appointments", () => {
  it("totals and pages equal a brute-force filter, in both orders, numbered and by cursor", () => {
    const rows = appointmentRows();
    const filterSets: { filters: AppointmentFilters; keep: (row: Row) => boolean }[] = [
      { filters: {}, keep: () => true },
      { filters: { status: "completed" }, keep: (row) => row.status === "completed" },
      { filters: { doctorId: doctorIds[0] }, keep: (row) => row.doctorId === doctorIds[0] },
    ];
    expectBruteForce(rows, QUERIES, filterSets, (state, filters) => listAppointments({ ...state, sort: "startTime" }, filters));
  }, 60_000);

  it("the keys' table holds every stored key with its count, through model writes, hand edits and fills", () => {
    const keysNow = () => sqlite.prepare("select key, n from appointment_search_keys order by key").all();
    const keysOfRows = () =>
      sqlite.prepare("select search_text as key, count(*) as n from appointments where search_text is not null group by search_text order by key").all();
    expect(keysNow()).toEqual(keysOfRows());

    const input = { patientId: patientIds[0], doctorId: doctorIds[1], type: "Teleconsulta", location: "Sala Zeta", status: "scheduled" as const, notes: null };
    const start = Date.UTC(2031, 5, 1, 12);
    const id = createAppointment(userId, { ...input, startTime: new Date(start), endTime: new Date(start + 3_600_000) });
    expect(keysNow()).toEqual(keysOfRows());
    expect(listAppointments({ q: "zeta", page: 1, sort: "startTime", dir: "desc" }).rows.map((r) => r.id)).toEqual([id]);

    updateAppointment(userId, id, { ...input, location: "Sala Kappa", startTime: new Date(start), endTime: new Date(start + 3_600_000) });
    expect(keysNow()).toEqual(keysOfRows());
    expect(sqlite.prepare("select n from appointment_search_keys where key like '%zeta%'").all()).toEqual([]);

    sqlite.prepare("update appointments set type = 'Teleconsulta Extra' where id = ?").run(id);
    expect(keysNow()).toEqual(keysOfRows());
    expect(listAppointments({ q: "extra kappa", page: 1, sort: "startTime", dir: "desc" }).rows.map((r) => r.id)).toEqual([id]);

    expect(fillSearchKeys(sqlite)).toBeGreaterThan(0);
    expect(keysNow()).toEqual(keysOfRows());
    expect(sqlite.prepare("select count(*) from appointments where search_text is null").pluck().get()).toBe(0);

    deleteAppointment(userId, id);
    sqlite.prepare("delete from appointments where id in (select id from appointments order by id limit 3)").run();
    expect(keysNow()).toEqual(keysOfRows());
    expect(listAppointments({ q: "kappa", page: 1, sort: "startTime", dir: "desc" }).total).toBe(0);
  });

  it("a search's count is kept until the next write, and follows it", () => {
    const search = () => listAppointments({ q: "lambda", page: 1, sort: "startTime", dir: "desc" });
    expect(search().total).toBe(0);
    // Viewed again without a write: the page is read, the count is not.
    const statements = capturePrepared(() => expect(search().total).toBe(0));
    expect(statements.filter((s) => /count\(/.test(s))).toEqual([]);
    const start = Date.UTC(2032, 0, 5, 12);
    const input = { patientId: patientIds[1], doctorId: doctorIds[1], type: "Consulta", location: "Sala Lambda", status: "scheduled" as const, notes: null };
    const id = createAppointment(userId, { ...input, startTime: new Date(start), endTime: new Date(start + 3_600_000) });
    expect(search()).toMatchObject({ total: 1, rows: [{ id }] });
  });

  it(`a search matching more than ${COUNT_CAP.toLocaleString("pt-BR")} is capped and pages through the date order`, () => {
    const patientId = insertPatient("Muitíssimo Frequente");
    const insert = sqlite.prepare(
      "insert into appointments (patient_id, doctor_id, start_time, end_time, type, search_text) values (?, ?, ?, ?, 'Consulta', 'consulta | ')",
    );
    sqlite.transaction(() => {
      for (let i = 0; i < COUNT_CAP + 40; i += 1) {
        const start = Date.UTC(2010, 0, 1) + i * 3_600_000;
        insert.run(patientId, doctorIds[2], start, start + 1_800_000);
      }
    })();
    const want = sqlite
      .prepare("select id from appointments where patient_id = ? order by start_time desc, id desc limit ?")
      .pluck()
      .all(patientId, 2 * PAGE_SIZE);
    const first = listAppointments({ q: "muitissimo", page: 1, sort: "startTime", dir: "desc" });
    expect(first).toMatchObject({ total: COUNT_CAP, totalCapped: true });
    const second = listAppointments({ q: "muitissimo", page: 2, sort: "startTime", dir: "desc", after: parseCursor(first.next) });
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(want);
    // Viewed again before a write, a walked page's ids are known: only its rows are read, by id.
    const again = capturePrepared(() => {
      const view = listAppointments({ q: "muitissimo", page: 2, sort: "startTime", dir: "desc", after: parseCursor(first.next) });
      expect(view.rows.map((r) => r.id)).toEqual(second.rows.map((r) => r.id));
    });
    expect(again.filter((s) => /like/i.test(s))).toEqual([]);
    // With a second, rare word the count is exact again, from the rare word's rows.
    expect(listAppointments({ q: "muitissimo igor", page: 1, sort: "startTime", dir: "desc" }).totalCapped).toBe(false);
  }, 30_000);
});

/** A plan's total equals the brute force's `want` (capped), and under the cap its rows, ascending, are `want`. */
function expectPlanned(t: WordSearchTable, plan: WordSearchPlan, want: number[], cap: number, label: string) {
  expect({ total: plan.total, capped: plan.totalCapped }, label).toEqual({ total: Math.min(want.length, cap), capped: want.length > cap });
  if (plan.totalCapped) return;
  const order: KeysetOrder = { key: t.order, id: t.id, dir: "asc" };
  const page = wordSearchPage(t, plan, order, { position: undefined, ahead: true, limit: want.length + 1, offset: 0 });
  const got = db.select({ id: t.id }).from(t.table).where(page.where).orderBy(asc(t.order), asc(t.id)).all();
  expect(got.map((row) => row.id), label).toEqual(want);
}

describe("a word over the cap with a filter", () => {
  it("is settled by its first rows when they tell, else counted row by row: totals and rows equal the brute force", () => {
    const rows = appointmentRows();
    const filterSets: { filters: SQL; keep: (row: Row) => boolean }[] = [
      { filters: eq(appointments.status, "completed"), keep: (row) => row.status === "completed" },
      { filters: eq(appointments.doctorId, doctorIds[3]), keep: (row) => row.doctorId === doctorIds[3] },
      {
        filters: and(eq(appointments.doctorId, doctorIds[1]), eq(appointments.status, "cancelled"))!,
        keep: (row) => row.doctorId === doctorIds[1] && row.status === "cancelled",
      },
    ];
    const paths = new Set<string>();
    for (const cap of [5, 20, 60, 200]) {
      for (const q of ["silva", "retorno", "igor", "maria silva", "da silva"]) {
        const wordRows = expected(rows, q, () => true, "asc").length;
        for (const { filters, keep } of filterSets) {
          const want = expected(rows, q, keep, "asc");
          const plan = planWordSearch(APPOINTMENT_SEARCH, q, filters, { cap });
          expectPlanned(APPOINTMENT_SEARCH, plan, want, cap, `${q} cap ${cap} ${want.length} of ${wordRows}`);
          if (wordRows > cap && !q.includes(" ")) paths.add(plan.parts ? "settled by its rows" : "counted row by row");
        }
      }
    }
    expect([...paths].sort()).toEqual(["counted row by row", "settled by its rows"]);
  });
});

describe("a short word among other words", () => {
  it("is tested on the other word's rows when most patients hold it, drives when few rows can, is tested on the patients the long words find: totals and rows equal the brute force", () => {
    const tables: { t: WordSearchTable; rows: Row[] }[] = [
      { t: APPOINTMENT_SEARCH, rows: appointmentRows() },
      { t: SURGERY_SEARCH, rows: surgeryRows() },
    ];
    const rowByRow = (statements: string[], t: WordSearchTable) =>
      statements.some((s) => s.startsWith(`select count(*) from (select 1 from "${getTableName(t.table)}" where`));
    const paths = new Set<string>();
    for (const { t, rows } of tables) {
      for (const cap of [3, 10, 40, 400]) {
        // Short words: of one character, and for surgeries (whose own text cannot answer them) of two.
        for (const q of [
          ...["maria s", "silva m", "m silva", "igor m", "silva kw", "retorno zq", "santos (", "maria silva m", "sa ro", "santos 1"],
          ...["maria silva x", "silva santos j", "retorno silva zq", "maria m silva s", "maria oliveira 7", "costa oliveira 7"],
          ...["silva k", "retorno q", "retorno silva q"],
          // A short word an eighth of the patients hold ('y': the Rosys; 'ig': Igor), or only a location ('('):
          ...["silva ig", "ig omega", "silvana ig", "silvana kw", "silvana infiltracao ig", "retorno ig", "maria silva ig", "omega (", "igor sa"],
          ...["silva y", "y omega", "silvana y", "silvana k", "silvana infiltracao y", "retorno y", "maria silva y"],
        ]) {
          const want = expected(rows, q, () => true, "asc");
          sqlite.prepare("update doctors set name = name").run(); // a write to what a search reads: planned again
          let plan: WordSearchPlan | undefined;
          const statements = capturePrepared(() => {
            plan = planWordSearch(t, q, undefined, { cap });
          });
          if (t === APPOINTMENT_SEARCH && ["silva m", "m silva", "igor m"].includes(q) && want.length > cap) paths.add(`common, over the cap ${rowByRow(statements, t) ? "row by row" : "on the other word's rows"}`);
          // Its rows within the cap, a rare short word settles the count.
          if (t === APPOINTMENT_SEARCH && ["silva k", "retorno q"].includes(q) && cap >= 40) paths.add(`rare ${rowByRow(statements, t) ? "row by row" : "driving"}`);
          // Counted before the long word's patients are tested for it: its one patient found by the keys.
          const byKeys = statements.some((s) => s.includes('"patients" indexed by patients_search_text_idx cross join'));
          if (t === APPOINTMENT_SEARCH && q === "silva k" && cap >= 40) paths.add(`rare, by its patients' keys ${byKeys ? "first" : "otherwise"}`);
          // Short words neither rare nor common: tested on the patients the long words find. The rows
          // whose doctor or key holds every long word: each row's patient tested when they are fewer
          // than the patients holding the short words have (Dra. Silvana's infiltrations, against the
          // patients holding 'y'), else read from those patients (all of Dra. Silvana's rows, against
          // the one patient holding 'k').
          const onPatients = (s: string) => s.includes('where "patients"."id" = patients_search.rowid and');
          const onRowsPatient = (s: string) =>
            /"appointments"\."doctor_id" in \(\?\)/.test(s) && s.includes('and exists (select 1 from "patients" where "patients"."id" = "appointments"."patient_id"');
          const fromWordsPatients = (s: string) =>
            /"appointments"\."doctor_id" in \(\?\)/.test(s) &&
            s.includes('from "patients" indexed by patients_search_text_idx cross join "appointments" indexed by appointments_patient_start_idx');
          if (t === APPOINTMENT_SEARCH && cap === 3 && ["silva y", "silvana y"].includes(q)) {
            paths.add(`among long words ${statements.some(onPatients) ? "on their patients" : `otherwise (${q})`}`);
          }
          if (t === APPOINTMENT_SEARCH && cap === 3 && q === "silvana k") {
            paths.add(`on a doctor's many rows ${statements.some(fromWordsPatients) && !statements.some(onRowsPatient) ? "from the short word's patients" : "otherwise"}`);
          }
          if (t === APPOINTMENT_SEARCH && cap === 3 && q === "silvana infiltracao y") {
            paths.add(`on a doctor's few rows ${statements.some(onRowsPatient) && !statements.some(fromWordsPatients) ? "each row's patient" : "otherwise"}`);
            // Tested one by one, its rows reach the cap within about cap / share of them, fewer than
            // the patients holding 'y' have: the split is not counted to choose.
            const splitCounted = statements.some((s) => s.startsWith('select count(*) as n from (select 1 from "appointments" indexed by'));
            paths.add(`a short word common enough to reach the cap, its split ${splitCounted ? "counted" : "not counted"}`);
          }
          // No patient holds 'x' (a key does: 'Sala (Anexo)'): the patients 'maria silva' finds are not tested for it.
          if (t === APPOINTMENT_SEARCH && q === "maria silva x") paths.add(`a word no patient holds ${statements.some(onPatients) ? "tested" : "left out"}`);
          // Surgeries' own keys cannot be split by a short word a guide holds ('7'): it is tested on
          // the rows several long words share.
          if (t === SURGERY_SEARCH && ["maria oliveira 7", "costa oliveira 7"].includes(q) && statements.at(-1)?.includes("row_number() over ()")) paths.add("surgeries among long words on their shared rows");
          expectPlanned(t, plan!, want, cap, `${getTableName(t.table)} ${q} cap ${cap}: ${want.length}`);
        }
      }
    }
    expect([...paths].sort()).toEqual([
      "a short word common enough to reach the cap, its split not counted",
      "a word no patient holds left out",
      "among long words on their patients",
      "common, over the cap on the other word's rows",
      "on a doctor's few rows each row's patient",
      "on a doctor's many rows from the short word's patients",
      "rare driving",
      "rare, by its patients' keys first",
      "surgeries among long words on their shared rows",
    ]);
  }, 60_000);
});

describe("surgeries: a long word over the cap among other words", () => {
  it("is read from the rows of the word expected to have fewest, the others tested on each, when few enough; row by row otherwise: totals and rows equal the brute force", () => {
    const rows = surgeryRows();
    const readTested = (statements: string[]) => statements.some((s) => s.includes("row_number() over ()"));
    const rowByRow = (statements: string[]) => statements.some((s) => s.startsWith('select count(*) from (select 1 from "surgeries" where'));
    const paths = new Set<string>();
    // The own keys cannot be split by a word a guide holds ('g-70', 'g', '7': every guide is
    // 'G-7…'); 'y' is a short word an eighth of the patients hold; 'hospital' is in most surgeries'
    // own text.
    for (const q of ["omega 7", "rosy 7", "omega g", "omega y g-7", "rosy g", "silva g-70", "maria g-70", "omega silva g-71", "silva g", "hospital g", "hospital g-7", "g-7 omega"]) {
      const words = searchWords(q);
      const long = words.filter((word) => !isShort(SURGERY_SEARCH, word));
      const rowsOf = long.map((word) => expected(rows, word, () => true, "asc").length);
      const fewest = Math.min(...rowsOf);
      const want = expected(rows, q, () => true, "asc");
      // Caps under which the word with fewest rows has more than the cap, up to twice it (read
      // through its parts) or more (row by row); others, all settled some other way.
      for (const cap of new Set([Math.ceil(fewest * 0.6), Math.max(1, Math.floor(fewest / 3)), Math.max(1, want.length - 1), want.length, want.length + 5, 3, 40])) {
        sqlite.prepare("update doctors set name = name").run(); // planned again
        let plan: WordSearchPlan | undefined;
        const statements = capturePrepared(() => {
          plan = planWordSearch(SURGERY_SEARCH, q, undefined, { cap });
        });
        const label = `${q} cap ${cap}: ${want.length}, its words ${rowsOf.join(", ")}`;
        expectPlanned(SURGERY_SEARCH, plan!, want, cap, label);
        const everyWordOver = rowsOf.every((n) => n > cap);
        if (everyWordOver && fewest <= 2 * cap && readTested(statements)) {
          paths.add(`${long.length < words.length ? "one long word with a short one" : "several long words"}, ${want.length > cap ? "over the cap" : "counted"}: on the fewest's rows`);
          // The sample (every row here) expects each word over the cap: none is counted to it first.
          const counted = statements.some((s) => /^select count\(\*\) as n from \(/.test(s));
          if (long.length === words.length) paths.add(`several long words over the cap ${counted ? "counted first" : "not counted first"}`);
        }
        if (everyWordOver && fewest > 2 * cap && rowByRow(statements) && !readTested(statements)) paths.add("their rows many: row by row");
      }
    }
    expect([...paths].sort()).toEqual([
      "one long word with a short one, counted: on the fewest's rows",
      "one long word with a short one, over the cap: on the fewest's rows",
      "several long words over the cap not counted first",
      "several long words, counted: on the fewest's rows",
      "several long words, over the cap: on the fewest's rows",
      "their rows many: row by row",
    ]);
  }, 60_000);
});

describe("surgeries", () => {
  it("totals and pages equal a brute-force filter, with and without filters", () => {
    const rows = surgeryRows();
    const filterSets: { filters: SurgeryFilters; keep: (row: Row) => boolean }[] = [
      { filters: { status: null, stage: null, doctorId: null }, keep: () => true },
      { filters: { status: null, stage: null, doctorId: doctorIds[1] }, keep: (row) => row.doctorId === doctorIds[1] },
      { filters: { status: "scheduled", stage: "aguarda_docs", doctorId: null }, keep: (row) => row.status === "scheduled" && row.stage === "aguarda_docs" },
    ];
    const queries = [...QUERIES, "hospital", "sulamerica silva", "jardim"];
    expectBruteForce(rows, queries, filterSets, (state, filters) => listSurgeries({ ...state, sort: "scheduledDate" }, filters));
  }, 60_000);

  it("a word in both a key and guides finds the rows of each once, with or without other words", () => {
    // A payer's name holding what some guides hold ('701' is in 'G-7013', 'G-7015'…): its rows are read from the
    // keys and from the guides, the guides' without those of the keys.
    const insert = sqlite.prepare(
      "insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, hospital, payer_name, guide_number, status, current_stage, search_text, search_class) values (?, ?, ?, ?, ?, ?, ?, 'scheduled', 'aguarda_docs', ?, ?)",
    );
    const added = [null, "G-7013", "G-8801"].map((guideNumber, i) => {
      const surgery = { surgeryType: "Craniotomia", hospital: "Santa Rosa", payerName: "Plano 7013", guideNumber };
      const keys = surgerySearchKeyColumns(surgery);
      const when = Date.UTC(2024, 3, 1 + i);
      return Number(insert.run(patientIds[i], doctorIds[i], surgery.surgeryType, when, surgery.hospital, surgery.payerName, guideNumber, keys.searchText, keys.searchClass).lastInsertRowid);
    });
    try {
      const rows = surgeryRows();
      const statements = capturePrepared(() =>
        expectBruteForce(rows, ["7013", "701", "70", "plano 701", "701 craniotomia", "silva 70", "g-70 plano"], [{ filters: { status: null, stage: null, doctorId: null }, keep: () => true }], (state, filters) =>
          listSurgeries({ ...state, sort: "scheduledDate" }, filters),
        ),
      );
      // '701' is in the payer's key and in guides: both sources are read.
      expect(statements.some((s) => s.includes("surgery_guides_search match") && s.includes('not ("surgeries"."search_class" in ('))).toBe(true);
      expect(rows.filter((row) => row.own.includes("7013")).length).toBeGreaterThan(added.length);
    } finally {
      sqlite.prepare(`delete from surgeries where id in (${added.join(", ")})`).run();
    }
  }, 60_000);

  it("the receivables list finds a search as the surgeries list does, with its own filters and a doctor's scope", () => {
    const payerId = insertPayer("Pagador Recebíveis");
    // Two surgeries in three are receivables, in two statuses; every other one of a payer.
    sqlite
      .prepare(
        "update surgeries set receivable_status = case id % 3 when 0 then 'realizado' when 1 then 'faturado' end, payer_id = case when id % 2 = 0 then ? end",
      )
      .run(payerId);
    const facts = new Map(
      (sqlite.prepare("select id, receivable_status as status, payer_id as payer from surgeries").all() as { id: number; status: string | null; payer: number | null }[]).map(
        (row) => [row.id, row],
      ),
    );
    const receivable = (row: Row) => facts.get(row.id)!.status !== null;
    const filterSets: { filters: { status: ReceivableStatus | null; payerId: number | null; scope: ReceivableScope }; keep: (row: Row) => boolean }[] = [
      { filters: { status: null, payerId: null, scope: "all" }, keep: receivable },
      { filters: { status: "faturado", payerId: null, scope: "all" }, keep: (row) => facts.get(row.id)!.status === "faturado" },
      { filters: { status: null, payerId, scope: "all" }, keep: (row) => receivable(row) && facts.get(row.id)!.payer === payerId },
      { filters: { status: null, payerId: null, scope: { doctorId: doctorIds[2] } }, keep: (row) => receivable(row) && row.doctorId === doctorIds[2] },
    ];
    expectBruteForce(surgeryRows(), [...QUERIES, "hospital", "jardim"], filterSets, (state, { scope, ...filters }) =>
      listReceivables({ ...state, sort: "scheduledDate" }, filters, scope),
    );
    // The JSON API's items: the same rows, newest first, `limit` from `offset`.
    const rows = surgeryRows();
    for (const q of ["", ...QUERIES, "hospital"]) {
      for (const { filters, keep } of filterSets) {
        const want = expected(rows, q, keep, "desc");
        for (const [limit, offset] of [[500, 0], [7, 0], [7, 7], [3, 40]]) {
          const got = receivableItems({ q, status: filters.status, payerId: filters.payerId }, filters.scope, limit, offset).map((item) => item.id);
          expect(got, `${q} ${JSON.stringify(filters)} ${limit}@${offset}`).toEqual(want.slice(offset, offset + limit));
        }
      }
    }
    sqlite.prepare("update surgeries set receivable_status = null, payer_id = null").run();
  }, 60_000);

  it("the task picker offers a search's latest surgeries, as a brute-force filter finds them", () => {
    const rows = surgeryRows();
    for (const q of [...QUERIES, "", "hospital", "sulamerica silva", "jardim"]) {
      for (const limit of [1, 5, 20]) {
        const want = expected(rows, q, () => true, "desc").slice(0, limit);
        expect(searchSurgeryOptions(q, limit).map((option) => option.id), `${q} (${limit})`).toEqual(want);
      }
    }
  });

  it("the keys' table and the guides' trigram index hold exactly the stored keys, through fills, hand edits and deletes", () => {
    const keysNow = () => sqlite.prepare("select key, n from surgery_search_keys order by key").all();
    const keysOfRows = () =>
      sqlite.prepare("select search_class as key, count(*) as n from surgeries where search_class is not null group by search_class order by key").all();
    // Every guide's trigrams, and the pairs at its ends: the rows the index finds are exactly those
    // whose folded guide holds them, among the rows with keys.
    const probes = () => {
      const guides = (sqlite.prepare("select distinct guide_number from surgeries where guide_number is not null").pluck().all() as string[]).map(normalizeSearch);
      return [...new Set(guides.flatMap((guide) => [guide.slice(0, 2), guide.slice(-2), ...[...guide].slice(2).map((_, i) => guide.slice(i, i + 3))]))];
    };
    const expectExact = (step: string) => {
      expect(keysNow(), step).toEqual(keysOfRows());
      expect(() => sqlite.prepare("insert into surgery_guides_search (surgery_guides_search, rank) values ('integrity-check', 1)").run(), step).not.toThrow();
      for (const word of probes()) {
        const match = word.length === 2
          ? (sqlite.prepare("select term from surgery_guides_search_terms where term >= ? and term < ?").pluck().all(word, `${word}\u{10FFFF}`) as string[]).map((t) => `"${t}"`).join(" OR ")
          : `"${word}"`;
        const found = match ? sqlite.prepare("select rowid from surgery_guides_search where surgery_guides_search match ? order by rowid").pluck().all(match) : [];
        const holding = (sqlite.prepare("select id, guide_number as guide from surgeries where search_class is not null order by id").all() as { id: number; guide: string | null }[])
          .filter((row) => normalizeSearch(row.guide).includes(word))
          .map((row) => row.id);
        expect(found, `${step}: ${word}`).toEqual(holding);
      }
    };
    expectExact("as written");
    fillSearchKeys(sqlite);
    expectExact("filled");
    sqlite.prepare("update surgeries set payer_name = 'Convênio Ípsilon' where id % 5 = 0").run();
    expectExact("a payer changed by hand");
    expect(listSurgeries({ q: "ipsilon", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null }).total).toBe(
      sqlite.prepare("select count(*) from surgeries where id % 5 = 0").pluck().get(),
    );
    fillSearchKeys(sqlite);
    expectExact("filled again");
    sqlite.prepare("update surgeries set guide_number = 'H-' || (9000 + id) where id % 6 = 0").run();
    expectExact("a guide changed by hand");
    fillSearchKeys(sqlite);
    expectExact("filled once more");
    expect(listSurgeries({ q: "h-90", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null }).total).toBe(
      sqlite.prepare("select count(*) from surgeries where id % 6 = 0 and 9000 + id < 9100").pluck().get(),
    );
    sqlite.prepare("delete from surgeries where id % 7 = 0").run();
    expectExact("deleted");
    expect(normalizeSearch("Ípsilon")).toBe("ipsilon");
  }, 60_000);

  it("the trigram index of the patients with surgeries holds exactly them, with their keys, through every write", () => {
    const indexed = () => sqlite.prepare("select rowid as id, search_text as key from surgery_patients_search order by rowid").all();
    const recomputed = () =>
      sqlite.prepare("select id, search_text as key from patients where id in (select patient_id from surgeries) order by id").all();
    const expectExact = (step: string) => {
      expect(indexed(), step).toEqual(recomputed());
      expect(() => sqlite.prepare("insert into surgery_patients_search (surgery_patients_search, rank) values ('integrity-check', 1)").run(), step).not.toThrow();
    };
    const surgeriesOf = (q: string) => listSurgeries({ q, page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null }).total;
    expectExact("as filled");
    const withoutSurgeries = () => sqlite.prepare("select id from patients where id not in (select patient_id from surgeries) order by id").pluck().all() as number[];
    const [first, second] = withoutSurgeries();
    expect(second, "two patients without surgeries").toBeDefined();
    const insert = sqlite.prepare(
      "insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage) values (?, ?, 'Artrodese Lombar', ?, 'scheduled', 'aguarda_docs')",
    );
    const rename = (id: number, name: string) => sqlite.prepare("update patients set name = ?, search_text = ? where id = ?").run(name, normalizeSearch(name), id);
    // A first surgery adds the patient, a second leaves them once.
    const a = Number(insert.run(first, doctorIds[2], Date.UTC(2024, 5, 1)).lastInsertRowid);
    expectExact("a first surgery");
    const b = Number(insert.run(first, doctorIds[2], Date.UTC(2024, 5, 2)).lastInsertRowid);
    expectExact("a second surgery");
    // A new key replaces the old; a patient without surgeries renamed stays out.
    rename(first, "Quíron Zebedeu");
    rename(second, "Quíron Abdias");
    expectExact("renamed");
    expect(surgeriesOf("quiron")).toBe(2);
    expect(surgeriesOf("abdias")).toBe(0);
    // A surgery moved: the new patient joins; the old one leaves with their last.
    sqlite.prepare("update surgeries set patient_id = ? where id = ?").run(second, a);
    expectExact("one of two moved");
    expect(surgeriesOf("abdias")).toBe(1);
    sqlite.prepare("update surgeries set patient_id = ? where id = ?").run(second, b);
    expectExact("the last one moved");
    expect(surgeriesOf("zebedeu")).toBe(0);
    expect(surgeriesOf("quiron")).toBe(2);
    // Many moved at once, then deleted: each patient's last surgery takes them out.
    sqlite.prepare("update surgeries set patient_id = ? where id % 11 = 0").run(first);
    expectExact("many moved");
    sqlite.prepare("delete from surgeries where patient_id in (?, ?)").run(first, second);
    expectExact("deleted");
    expect(surgeriesOf("quiron")).toBe(0);
    // A patient without surgeries deleted: nothing changes.
    sqlite.prepare("delete from patients where id = ?").run(insertPatient("Xenofonte Quíron"));
    expectExact("a patient deleted");
  });
});

describe("query plans", () => {
  it("a short word alone finds its patients by their keys, in the table's order when common, and never passes over a big table", () => {
    // Planned with a cap of a fiftieth of the table: 'm' (a quarter of the patients) is then common
    // among these rows as among a million, and 'k' (one patient) is not.
    const planned = (table: WordSearchTable, q: string) => {
      const rows = sqlite.prepare(`select count(*) from ${getTableName(table.table)}`).pluck().get() as number;
      const cap = Math.max(1, Math.floor(rows / 50));
      sqlite.prepare("update doctors set name = name").run(); // a write to what a search reads: planned again
      return capturePrepared(() => planWordSearch(table, q, undefined, { cap })).filter((s) => /union all/i.test(s));
    };
    const common = planned(APPOINTMENT_SEARCH, "m");
    expect(common.some((s) => s.includes('"patients" not indexed cross join "appointments"'))).toBe(true);
    const rare = planned(APPOINTMENT_SEARCH, "k");
    expect(rare.some((s) => s.includes('"patients" indexed by patients_search_text_idx cross join "appointments"'))).toBe(true);
    // A word of two characters finds its patients through the trigrams that start with it.
    const pair = planned(APPOINTMENT_SEARCH, "kw");
    expect(pair.some((s) => s.includes("patients_search join \"appointments\" indexed by appointments_patient_start_idx"))).toBe(true);
    expect(pair.some((s) => s.includes("patients_search_text_idx"))).toBe(false);
    // No patient holds '(': its rows are the location's, read without looking up any patient.
    const none = planned(APPOINTMENT_SEARCH, "(");
    expect(none.length).toBeGreaterThan(0);
    expect(none.some((s) => /cross join|"patients"/.test(s))).toBe(false);
    // Among the surgeries, a common short word drives; a rare one does not (`rareShortWordDrives`):
    // the pass over the patients' keys costs more than the surgeries it would spare.
    const surgeries = planned(SURGERY_SEARCH, "m");
    expect(surgeries.some((s) => s.includes('"patients" not indexed cross join "surgeries"'))).toBe(true);
    const rareSurgeries = planned(SURGERY_SEARCH, "k");
    expect(rareSurgeries).toEqual([]);
    // Their keys without the guide answer a word of two characters: it drives through the trigrams.
    const pairSurgeries = planned(SURGERY_SEARCH, "kw");
    expect(pairSurgeries.some((s) => s.includes('surgery_patients_search join "surgeries" indexed by surgeries_patient_created_idx'))).toBe(true);
    for (const statement of [...common, ...rare, ...pair, ...none, ...surgeries, ...rareSurgeries, ...pairSurgeries]) {
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, plan).not.toMatch(/^SCAN (appointments|surgeries)( USING (COVERING )?INDEX (?!\w+_(search_text|search_keys)_missing_idx)|$)/m);
    }
  });

  it("a search's count and page seek indexes: no big table scanned, only its matches sorted", () => {
    const statements = capturePrepared(() => {
      listAppointments({ q: "igor", page: 1, sort: "startTime", dir: "desc" });
      listAppointments({ q: "maria silva", page: 2, sort: "startTime", dir: "asc", after: [Date.UTC(2024, 5, 1), 10] }, { status: "completed" });
      listSurgeries({ q: "silva", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null });
    });
    const searches = statements.filter((s) => /union all/i.test(s));
    expect(searches.length).toBeGreaterThanOrEqual(3);
    for (const statement of searches) {
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      // A scan of the partial index of rows without a key reads only those rows.
      const bigScan = /^SCAN (patients|appointments|surgeries)( USING (COVERING )?INDEX (?!\w+_(search_text|search_keys)_missing_idx)|$)/m;
      expect(plan, plan).not.toMatch(bigScan);
    }
    // A surgery's patients are sought among those with surgeries; an appointment's among all. A
    // word's count seeks their rows in the narrow patient index (`indexes.patientRows`), not the
    // covering one a page's or a filter's read needs.
    const surgeryCount = searches.filter((s) => s.includes('"surgeries" indexed by surgeries_patient_created_idx'));
    expect(surgeryCount.length).toBeGreaterThan(0);
    for (const statement of surgeryCount) {
      expect(statement).toMatch(/^select count\(\*\) as n from \(select 1 from surgery_patients_search join/);
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, plan).toMatch(/^SEARCH surgeries USING COVERING INDEX surgeries_patient_created_idx \(patient_id=\?\)/m);
    }
    expect(searches.filter((s) => s.includes("surgeries_patient_date_idx") && /^select count/.test(s))).toEqual([]);
    for (const statement of searches.filter((s) => s.includes('"appointments"'))) expect(statement).not.toContain("surgery_patients_search");
    // The page's rows are then read by id.
    const pages = statements.filter((s) => /"appointments"\."id" in \(/.test(s) && /order by/i.test(s));
    expect(pages.length).toBeGreaterThanOrEqual(1);
  });

  it("a counted search's first page, its rows dense in the date order, walks a bounded stretch of the order's index", () => {
    sqlite.prepare("update doctors set name = name").run(); // a write to what a search reads: planned again
    const statements = capturePrepared(() => {
      listSurgeries({ q: "silva", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null });
    });
    const walks = statements.filter((s) => /\) as hit from "surgeries" order by/.test(s));
    expect(walks).toHaveLength(1);
    // No sort of the search's rows: the page's ids came from the walk.
    expect(statements.filter((s) => /union all/i.test(s) && /order by k/i.test(s))).toHaveLength(0);
    const params = (walks[0].match(/\?/g) ?? []).map(() => 1);
    const plan = (sqlite.prepare(`explain query plan ${walks[0]}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
    expect(plan, plan).toMatch(/SCAN surgeries USING (COVERING )?INDEX surgeries_scheduled_date_idx/);
    expect(plan, plan).not.toMatch(/TEMP B-TREE/);
    expect(walks[0]).toMatch(/limit \?\) where hit limit \?$/);
  });

  it("a word of a hospital's name seeks its keys in the keys' index, and a guide's word is read as the guides' trigram index yields it", () => {
    const countsOf = (q: string) => {
      sqlite.prepare("update doctors set name = name").run(); // a write to what a search reads: planned again
      const statements = capturePrepared(() => {
        listSurgeries({ q, page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null });
      });
      const counts = statements.filter((s) => /^select count\(\*\) as n from \(.*union all/i.test(s));
      expect(counts.length, q).toBeGreaterThanOrEqual(1);
      return counts.map((statement) => {
        const params = (statement.match(/\?/g) ?? []).map(() => 1);
        return { statement, rows: sqlite.prepare(`explain query plan ${statement}`).all(...params) as { id: number; parent: number; detail: string }[] };
      });
    };
    for (const { statement, rows } of countsOf("hospital")) {
      expect(statement).toContain('"surgeries" indexed by surgeries_search_class_idx where ("surgeries"."search_class" in (');
      expect(statement).not.toContain("surgery_guides_search");
      expect(rows.some((r) => /^SEARCH surgeries USING COVERING INDEX surgeries_search_class_idx \(search_class=\?\)/.test(r.detail)), JSON.stringify(rows)).toBe(true);
    }
    for (const { statement, rows } of countsOf("g-70")) {
      expect(statement).toContain('from surgery_guides_search cross join "surgeries" on "surgeries"."id" = surgery_guides_search.rowid');
      // Not gathered into a list first: no subquery reads the index.
      const lists = new Set(rows.filter((r) => r.detail.startsWith("LIST SUBQUERY")).map((r) => r.id));
      const listed = rows.filter((r) => lists.has(r.parent) && /surgery_guides_search/.test(r.detail));
      expect(listed, JSON.stringify(rows)).toHaveLength(0);
      expect(rows.some((r) => /^SCAN surgery_guides_search VIRTUAL TABLE/.test(r.detail))).toBe(true);
      expect(rows.some((r) => /^SEARCH surgeries USING INTEGER PRIMARY KEY/.test(r.detail))).toBe(true);
    }
  });
});

describe("a short word alone that the own text cannot answer (a digit a guide may hold)", () => {
  beforeAll(() => {
    // Patients with a phone holding '7', most of them now: the digit is in nearly every key, as the
    // CPFs and phones of a practice's patients make every digit. They have no surgeries.
    sqlite.transaction(() => {
      for (let i = 0; i < 1_500; i += 1) insertPatient(`Paciente Fone ${i}`, { phone: "(11) 97777-7777" });
    })();
  });

  const countOf = (read: () => unknown) => {
    sqlite.prepare("update doctors set name = name").run(); // a write to what a search reads: planned again
    const counts = capturePrepared(read).filter((s) => /^select count\(\*\) from \(select 1 from "surgeries"/.test(s));
    expect(counts).toHaveLength(1);
    return counts[0];
  };
  const perRow = 'exists (select 1 from "patients" where "patients"."id" = "surgeries"."patient_id"';
  const gathered = '"surgeries"."patient_id" in (select "patients"."id" from "patients"';

  it("is counted looking up each row's patient when most patients hold it and the cap is near, else with its patients gathered: rows equal the brute force", () => {
    const rows = surgeryRows();
    // The picker's 20: most patients hold '7', so the count reaches its cap within a few rows.
    const picker = countOf(() => searchSurgeryOptions("7", 20));
    expect(picker).toContain(perRow);
    expect(picker).not.toContain(gathered);
    expect(searchSurgeryOptions("7", 20).map((option) => option.id)).toEqual(expected(rows, "7", () => true, "desc").slice(0, 20));
    // The list's cap, ten thousand, is past every surgery: each would have its patient looked up.
    const list = countOf(() => listSurgeries({ q: "7", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null }));
    expect(list).toContain(gathered);
    expect(list).not.toContain(perRow);
    // One patient holds 'k': looked up row by row, the count would pass over every surgery.
    const rare = countOf(() => searchSurgeryOptions("k", 20));
    expect(rare).toContain(gathered);
    expect(searchSurgeryOptions("k", 20).map((option) => option.id)).toEqual(expected(rows, "k", () => true, "desc").slice(0, 20));
    const all = listSurgeries({ q: "7", page: 1, sort: "scheduledDate", dir: "desc" }, { status: null, stage: null, doctorId: null });
    expect(all.total).toBe(expected(rows, "7", () => true, "desc").length);
  });
});
