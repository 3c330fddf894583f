import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isValidCnpj, isValidCpf } from "~/lib/documents";
import { PIPELINE_STAGE_IDS } from "~/lib/pipeline";

// The seed runs as `npm run seed:demo` does: a separate process on its own database file.
const file = path.join(os.tmpdir(), `sinapse-seed-${process.pid}-${Date.now()}.sqlite`);
const root = path.resolve(import.meta.dirname, "../..");
const seed = (...args: string[]) =>
  spawnSync(path.join(root, "node_modules/.bin/tsx"), ["db/seed-demo.ts", ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: file },
    encoding: "utf8",
  });

afterAll(() => {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
});

describe("npm run seed:demo", () => {
  it("fills an empty database and prints one login per role", () => {
    const run = seed();
    expect(run.status).toBe(0);
    for (const login of ["admin@sinapse.demo", "equipe@sinapse.demo", "medico@sinapse.demo"]) {
      expect(run.stdout).toContain(login);
    }
  }, 60_000);

  it("produces coherent data: valid documents, every pipeline stage, no double-booked doctor", () => {
    const db = new Database(file, { readonly: true });
    const cpfs = db.prepare("select cpf from patients where cpf is not null").pluck().all() as string[];
    expect(cpfs.length).toBeGreaterThan(50);
    expect(cpfs.every(isValidCpf)).toBe(true);
    const cnpjs = db.prepare("select cnpj from payers where cnpj is not null").pluck().all() as string[];
    expect(cnpjs.every(isValidCnpj)).toBe(true);
    const stages = new Set(db.prepare("select distinct current_stage from surgeries").pluck().all());
    expect([...PIPELINE_STAGE_IDS].filter((s) => !stages.has(s))).toEqual([]);
    const clashes = db
      .prepare(
        `select count(*) from appointments a join appointments b
           on a.doctor_id = b.doctor_id and a.id < b.id and a.start_time < b.end_time and b.start_time < a.end_time
         where a.status != 'cancelled' and b.status != 'cancelled'`,
      )
      .pluck()
      .get();
    expect(clashes).toBe(0);
    const roles = db.prepare("select role from user_roles order by role").pluck().all();
    expect(roles).toEqual(["admin", "doctor", "staff"]);
    // Every insurer carries the TISS settings its guides need; nobody else does.
    const tiss = db
      .prepare("select p.type, count(t.payer_id) as configured, count(*) as total from payers p left join payer_tiss_settings t on t.payer_id = p.id group by p.type order by p.type")
      .all() as { type: string; configured: number; total: number }[];
    for (const row of tiss) expect(row.configured, row.type).toBe(row.type === "insurance" ? row.total : 0);
    expect(tiss.find((r) => r.type === "insurance")!.total).toBeGreaterThan(1);
    db.close();
  });

  it("refuses a database that already holds data unless forced", () => {
    const again = seed();
    expect(again.status).toBe(1);
    expect(`${again.stdout}${again.stderr}`).toMatch(/--force/);
    const forced = seed("--force");
    expect(forced.status).toBe(0);
    const db = new Database(file, { readonly: true });
    expect(db.prepare("select count(*) from users").pluck().get()).toBe(3);
    db.close();
  }, 60_000);
});
