import "./no-app-database";
import Database from "better-sqlite3";
import path from "node:path";
import { doctorSearchText } from "../../app/models/doctor.server";
import { hospitalSearchText } from "../../app/models/hospital.server";
import { medicalCodeSearchText } from "../../app/lib/master-data-search";
import { patientSearchText } from "../../app/models/patient.server";
import { payerSearchText } from "../../app/models/payer.server";

export type TestDb = ReturnType<typeof openTestDb>;

/**
 * The database file behind one of the test servers (see tests/e2e/serve.mjs), opened beside the
 * running server to insert fixtures or check what a screen wrote. WAL mode lets both work at once.
 * A transaction that writes begins IMMEDIATE (`db.transaction(fn).immediate()`), as the app's do
 * (app/.server/db.ts): a deferred one fails at once with "database is locked", past the busy
 * timeout, when the server writes between its first read and its first write.
 */
export function openTestDb(server: "app" | "isolated" | "onboarding" | "demo" | "comms" = "app") {
  const db = new Database(path.resolve(import.meta.dirname, `../.tmp/${server}${process.env.E2E_DB_SUFFIX ?? ""}.sqlite`));
  db.pragma("busy_timeout = 10000");
  db.pragma("foreign_keys = ON");
  return db;
}

/** A unique suffix so tests running side by side on one database never collide. */
export function uniqueTag() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A CRM number no other test uses (the app refuses a CRM twice in one UF). */
export function uniqueCrm() {
  return String(100_000_000 + Math.floor(Math.random() * 899_999_999));
}

// Rows written straight into a server's database, with the search keys the models store, so the
// screens find them exactly as they find rows made through the app.

const idOf = (row: unknown) => (row as { id: number }).id;

/** A patient; `createdAt` (epoch ms) also sets updated_at. */
export function insertPatient(
  db: TestDb,
  name: string,
  extra: { cpf?: string | null; email?: string | null; phone?: string | null; createdAt?: number } = {},
): number {
  const { cpf = null, email = null, phone = null } = extra;
  const createdAt = extra.createdAt ?? Date.now();
  return idOf(
    db
      .prepare(
        "insert into patients (name, cpf, email, phone, search_text, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?) returning id",
      )
      .get(name, cpf, email, phone, patientSearchText({ name, cpf, email, phone }), createdAt, createdAt),
  );
}

/** A doctor: specialty 'Neurocirurgia' and a fresh CRM unless given. */
export function insertDoctor(
  db: TestDb,
  name: string,
  extra: { specialty?: string; crm?: string; commissionRate?: number; active?: boolean } = {},
): number {
  const { specialty = "Neurocirurgia", crm = uniqueCrm(), commissionRate = 0, active = true } = extra;
  const searchText = doctorSearchText({ name, specialty, crm, crmUf: null, email: null, phone: null });
  return idOf(
    db
      .prepare("insert into doctors (name, specialty, crm, commission_rate, active, search_text) values (?, ?, ?, ?, ?, ?) returning id")
      .get(name, specialty, crm, commissionRate, active ? 1 : 0, searchText),
  );
}

/** A private hospital. */
export function insertHospital(db: TestDb, name: string): number {
  const searchText = hospitalSearchText({ name, city: null, cnpj: null, type: "private" });
  return idOf(db.prepare("insert into hospitals (name, type, search_text) values (?, 'private', ?) returning id").get(name, searchText));
}

/** A health-insurance payer (convênio). */
export function insertPayer(db: TestDb, name: string): number {
  const searchText = payerSearchText({ name, cnpj: null, contactEmail: null, type: "insurance" });
  return idOf(db.prepare("insert into payers (name, type, search_text) values (?, 'insurance', ?) returning id").get(name, searchText));
}

/**
 * CBHPM 3.07.15.18-0 (hérnia de disco tóraco-lombar, porte 10A, one assistant, anaesthetic porte 6),
 * written once with every column the fee engine and the TISS guides read; specs share the row.
 */
export function insertHerniaCode(db: TestDb): number {
  const code = { code: "3.07.15.18-0", type: "cbhpm", description: "Hérnia de disco tóraco-lombar – tratamento cirúrgico", category: null } as const;
  db.prepare(
    "insert or ignore into medical_codes (code, type, description, porte, assistants_count, anesthetic_porte, search_text) values (?, ?, ?, '10A', 1, 6, ?)",
  ).run(code.code, code.type, code.description, medicalCodeSearchText(code));
  return idOf(db.prepare("select id from medical_codes where type = ? and code = ?").get(code.type, code.code));
}

