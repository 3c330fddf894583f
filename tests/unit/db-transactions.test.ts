/**
 * Transactions take the write lock when they begin (app/.server/db.ts): a transaction that reads and
 * then writes can never find that another connection wrote in between and fail with "database is
 * locked".
 */
import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clinicHolidays } from "~db/schema";
import { databasePath, db } from "~/.server/db";

describe("db.transaction", () => {
  it("holds the write lock from its start: another connection cannot write in between, and our write goes through", () => {
    const other = new Database(databasePath);
    other.pragma("busy_timeout = 0");
    try {
      db.transaction((tx) => {
        tx.select().from(clinicHolidays).all(); // a read first, as most write paths do
        expect(() => other.prepare("insert into clinic_holidays (day, name) values ('2031-03-03', 'Outra conexão')").run()).toThrow(/locked|busy/i);
        tx.insert(clinicHolidays).values({ day: "2031-03-04", name: "Nossa escrita" }).run();
      });
      expect(db.select().from(clinicHolidays).where(eq(clinicHolidays.day, "2031-03-04")).get()?.name).toBe("Nossa escrita");
      // Once it has committed, the other connection writes as usual.
      other.prepare("insert into clinic_holidays (day, name) values ('2031-03-03', 'Outra conexão')").run();
    } finally {
      other.close();
    }
  });

  it("a transaction that asks for the deferred kind still gets it", () => {
    const other = new Database(databasePath);
    other.pragma("busy_timeout = 0");
    try {
      db.transaction(
        (tx) => {
          tx.select().from(clinicHolidays).all();
          other.prepare("insert into clinic_holidays (day, name) values ('2031-03-05', 'Leitura só')").run();
        },
        { behavior: "deferred" },
      );
    } finally {
      other.close();
    }
  });
});
