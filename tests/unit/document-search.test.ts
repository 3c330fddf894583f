/**
 * /files' search through `documents_search` (migration 0050: each document's own text and its
 * patient's key, trigram-indexed, kept by triggers) against the search it replaced: every word in
 * the document's own text or, through `patientSearch`, in its patient's key, tested row by row.
 * Random documents and patients, random writes to both (models' keys, raw SQL), then random
 * searches (whole words, pieces of one and two characters, a CPF as typed, words no key holds),
 * alone and with the list's filters: the pages walked forward by their cursors hold exactly the
 * old search's rows in the same order, and the totals agree. A search of GATHERED_MAX matches or
 * fewer reads them by id; one of up to COUNT_CAP ('exame', on 3 500 documents) walks the date order
 * keeping the index's matches; one of more (on 10 500) walks it testing each row's texts.
 */
import { type SQL, and, desc, eq, or, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { documents, patients } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { COUNT_CAP } from "~/.server/pagination";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import { type ListParams, parseCursor } from "~/lib/list-params";
import type { DocumentFilters, DocumentSort } from "~/lib/lists";
import { documentSearchText, listDocuments } from "~/models/document.server";
import { patientSearch, patientSearchText } from "~/models/patient.server";
import { seededRandom } from "../support/random";
import { insertPatient } from "./helpers";

const FIRST = ["Renata", "Renato", "Maria", "José", "Ana Paula", "Quitéria", "Iolanda"];
const LAST = ["Silva", "Souza", "da Silva", "Oliveira", "Yamamoto", "Pereira"];
const FILES = ["rm_coluna_lombar.pdf", "laudo_rm.pdf", "tc_cranio.pdf", "guia_sadt.pdf", "termo_consentimento.pdf", "raio_x.jpg"];
const NOTES = [null, null, "Exame de controle", "Trazido pelo paciente", "Laudo do radiologista", "Guia autorizada 4471"];
const CATEGORIES = ["exame", "laudo", "termo_consentimento", "guia", "outros"] as const;

const { next: random, pick } = seededRandom(0x0d0c);

/** Half the patients have a CPF, each its own, many sharing their first digits ('123.456.7…'). */
let nextCpf = 1;
function newCpf(): string | null {
  return random() < 0.5 ? `1234567${String(nextCpf++).padStart(4, "0")}` : null;
}

function newPatient(): number {
  return insertPatient(`${pick(FIRST)} ${pick(LAST)}`, { cpf: newCpf() });
}

const patientIds: number[] = [];
const documentIds: number[] = [];
const START = Date.UTC(2010, 0, 1);
let nextStorage = 1;
function insertDocument(patientId: number, originalName: string, note: string | null, createdMs: number) {
  const storageName = (nextStorage++).toString(16).padStart(32, "0");
  return db
    .insert(documents)
    .values({
      patientId,
      category: pick(CATEGORIES),
      note,
      originalName,
      mimeType: "application/pdf",
      sizeBytes: 1000,
      sha256: "0".repeat(64),
      storageName,
      searchText: documentSearchText(originalName, note),
      createdAt: new Date(createdMs),
      updatedAt: new Date(createdMs),
    })
    .returning({ id: documents.id })
    .get().id;
}

/** `n` documents of one patient, an hour apart, noted `noteOf(i)`: raw rows, in one transaction. */
function insertMany(patientId: number, n: number, noteOf: (i: number) => string) {
  const insert = sqlite.prepare(
    `insert into documents (patient_id, category, note, original_name, mime_type, size_bytes, sha256, storage_name, search_text, created_at, updated_at)
     values (?, 'exame', ?, 'exame.pdf', 'application/pdf', 1, ?, ?, ?, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (let i = 0; i < n; i++) {
      const note = noteOf(i);
      const at = START + i * 3_600_000;
      insert.run(patientId, note, "0".repeat(64), (nextStorage++).toString(16).padStart(32, "0"), documentSearchText("exame.pdf", note), at, at);
    }
  })();
}

/** The search /files ran before migration 0050: each word in the document's own text or its patient's key, tested row by row. */
function oldSearch(q: string): SQL | undefined {
  return matchAllWords(q, (word) =>
    or(likeWord(documents.searchText, word), sql`${documents.patientId} in (select ${patients.id} from ${patients} where ${patientSearch(word)})`)!,
  );
}

function expectedIds(q: string, filters: DocumentFilters) {
  return db
    .select({ id: documents.id })
    .from(documents)
    .where(and(oldSearch(q), filters.category ? eq(documents.category, filters.category) : undefined, filters.patientId ? eq(documents.patientId, filters.patientId) : undefined))
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .all()
    .map((row) => row.id);
}

/** Every page of the list for `q`, walked forward by its 'Próxima' cursors, and the first page's total. */
function walkedIds(q: string, filters: DocumentFilters) {
  const state: ListParams<DocumentSort> = { q, page: 1, sort: "createdAt", dir: "desc" };
  let current = listDocuments(state, filters);
  const first = current;
  const ids = current.rows.map((row) => row.id);
  while (current.next) {
    current = listDocuments({ ...state, page: current.page + 1, after: parseCursor(current.next) }, filters);
    ids.push(...current.rows.map((row) => row.id));
  }
  return { ids, total: first.total, totalCapped: first.totalCapped };
}


beforeAll(() => {
  for (let i = 0; i < 60; i++) patientIds.push(newPatient());
  for (let i = 0; i < 400; i++) {
    documentIds.push(insertDocument(pick(patientIds), pick(FILES), pick(NOTES), START + Math.floor(random() * 15 * 365) * 86_400_000));
  }
});

/** Writes the index must follow: patients renamed or given a CPF, documents noted anew, moved to another patient, removed, added. */
function randomWrites(n: number) {
  for (let i = 0; i < n; i++) {
    const kind = Math.floor(random() * 5);
    if (kind === 0) {
      const id = pick(patientIds);
      const name = `${pick(FIRST)} ${pick(LAST)}`;
      const cpf = newCpf();
      db.update(patients).set({ name, cpf, searchText: patientSearchText({ name, cpf, email: null, phone: null }) }).where(eq(patients.id, id)).run();
    } else if (kind === 1) {
      const id = pick(documentIds);
      const row = db.select({ originalName: documents.originalName }).from(documents).where(eq(documents.id, id)).get();
      if (!row) continue;
      const note = pick(NOTES);
      sqlite.prepare("update documents set note = ?, search_text = ? where id = ?").run(note, documentSearchText(row.originalName, note), id);
    } else if (kind === 2) {
      sqlite.prepare("update documents set patient_id = ? where id = ?").run(pick(patientIds), pick(documentIds));
    } else if (kind === 3) {
      sqlite.prepare("delete from documents where id = ?").run(pick(documentIds));
    } else {
      documentIds.push(insertDocument(pick(patientIds), pick(FILES), pick(NOTES), START + Math.floor(random() * 15 * 365) * 86_400_000));
    }
  }
}

const QUERIES = [
  "renato", "renat", "silva", "da silva", "maria silva", "ana p", "quit", "yamamoto laudo", "laudo", "rm", "rm lombar", "tc", "x", "a renato",
  "123.456.700-05", "12345670005", "123.456.7", "4567001", "4471", "guia 4471", "controle silva", "iolanda termo", "qx", "zzzqqq", "ren", "re", "o", "pdf",
  "jose da silva", "sadt", "%", "_",
];

describe("the documents' search index", () => {
  it("finds what the row-by-row search found, page by page, after random writes to documents and patients", () => {
    for (let round = 0; round < 2; round++) {
      randomWrites(120);
      for (const q of QUERIES) {
        for (const filters of [{}, { category: pick(CATEGORIES) }, { patientId: pick(patientIds) }] as DocumentFilters[]) {
          const expected = expectedIds(q, filters);
          const walked = walkedIds(q, filters);
          expect(walked.ids, `${q} ${JSON.stringify(filters)}`).toEqual(expected);
          expect(walked.total, `${q} total`).toBe(Math.min(expected.length, COUNT_CAP));
        }
      }
    }
  }, 120_000);

  it("pages a search of many matches by walking the date order, through the index's matches up to COUNT_CAP and the rows' texts past it, with the same rows", () => {
    const same = (queries: string[]) => {
      for (const q of queries) {
        for (const filters of [{}, { category: "exame" }, { category: "guia" }] as DocumentFilters[]) {
          const expected = expectedIds(q, filters);
          const walked = walkedIds(q, filters);
          expect(walked.ids, `${q} ${JSON.stringify(filters)}`).toEqual(expected);
          expect(walked.total, `${q} total`).toBe(Math.min(expected.length, COUNT_CAP));
          expect(walked.totalCapped, `${q} capped`).toBe(expected.length > COUNT_CAP);
        }
      }
    };
    insertMany(newPatient(), 3_500, (i) => (i % 7 === 0 ? "Exame Renovado" : "Exame"));
    same(["exame", "exame renov", "exame silva", "ex", "exame o"]);
    insertMany(newPatient(), 7_000, (i) => (i % 2 === 0 ? "Exame Anual" : "Exame"));
    expect(expectedIds("exame", {}).length).toBeGreaterThan(COUNT_CAP);
    same(["exame", "anual", "exame anual", "exame renov"]);
  }, 120_000);

  it("reads a rare word's few documents by id, and walks the date order for a common word's page", () => {
    const rare = insertPatient("Zuleica Anacleta");
    for (const day of [1, 2]) insertDocument(rare, "laudo.pdf", null, START + day * 86_400_000);
    const plansOf = (q: string, filters: DocumentFilters = {}, from = /\bfrom "documents"/) => {
      const statements: string[] = [];
      const prepare = sqlite.prepare.bind(sqlite);
      sqlite.prepare = ((source: string) => (statements.push(source), prepare(source))) as typeof sqlite.prepare;
      try {
        listDocuments({ q, page: 1, sort: "createdAt", dir: "desc" }, filters);
      } finally {
        sqlite.prepare = prepare;
      }
      return statements
        .filter((statement) => from.test(statement))
        .map((statement) => (sqlite.prepare(`explain query plan ${statement}`).all(...Array(statement.split("?").length - 1).fill(1)) as { detail: string }[]).map((row) => row.detail).join("\n"));
    };
    // The page's ids, then their rows with the joins: each statement seeks the documents by id.
    const rarePlans = plansOf("anacleta");
    expect(rarePlans).toHaveLength(2);
    for (const plan of rarePlans) {
      expect(plan).toMatch(/^SEARCH documents USING INTEGER PRIMARY KEY/m);
      expect(plan).not.toMatch(/^SCAN documents\b/m);
    }
    // With a filter, the index's matches lead (led by the filter's index, every row of the category would be matched by the index alone):
    // a category is tested in its own index by each match's id, without reading the row; a date, on the row, sought by id.
    const [filtered] = plansOf("anacleta", { category: "laudo" }, /\bfrom documents_search\b/);
    expect(filtered).toMatch(/^SCAN documents_search VIRTUAL TABLE[^\n]*\nSEARCH documents USING COVERING INDEX documents_category_idx \(category=\? AND rowid=\?\)$/m);
    const [dated] = plansOf("anacleta", { from: "2010-01-01" }, /\bfrom documents_search\b/);
    expect(dated).toMatch(/^SCAN documents_search VIRTUAL TABLE[^\n]*\nSEARCH documents USING INTEGER PRIMARY KEY/m);
    // In the index's own order (the count goes on from the last id gathered): no sort.
    for (const plan of [filtered, dated]) expect(plan).not.toMatch(/TEMP B-TREE/);
    // 'zelador': 3 100 documents, past GATHERED_MAX: the page's ids walk the date order's index alone, unsorted, each id looked up in the index's matches.
    insertMany(rare, 3_100, () => "Zelador");
    const [kept, rows] = plansOf("zelador");
    expect(kept).toMatch(/^SCAN documents USING COVERING INDEX documents_created_idx/m);
    expect(kept).toMatch(/LIST SUBQUERY/);
    expect(kept).not.toMatch(/TEMP B-TREE/);
    expect(rows).toMatch(/^SEARCH documents USING INTEGER PRIMARY KEY/m);
    // Within a category, the walk is that category's date order (not its ids' index, and sorted).
    const [keptExams] = plansOf("zelador", { category: "exame" });
    expect(keptExams).toMatch(/^SEARCH documents USING COVERING INDEX documents_category_created_idx \(category=\?\)\nLIST SUBQUERY/m);
    expect(keptExams).not.toMatch(/TEMP B-TREE/);
    // Past COUNT_CAP the walk tests each row's texts instead, and reads the index no more.
    insertMany(rare, COUNT_CAP, () => "Zelador");
    const [walk] = plansOf("zelador");
    expect(walk).toMatch(/^SCAN documents USING INDEX documents_created_idx/m);
    expect(walk).not.toMatch(/documents_search|TEMP B-TREE/);
  });
});
