import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, financialTransactions } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { FINANCE_DENIED } from "~/.server/finance-access";
import { readToast } from "~/.server/toast";
import { parseListState } from "~/lib/list-params";
import { TRANSACTION_LIST } from "~/lib/lists";
import { listTransactions, transactionSummary } from "~/models/transaction.server";
import { action, loader } from "~/routes/financial";
import { loader as exportLoader } from "~/routes/financial-export";
import { type SignedIn, capturePrepared, formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, thrownResponse } from "../support/fixtures";
import { surgeries } from "~db/schema";

let admin: SignedIn;
let staff: SignedIn;
let doctor: SignedIn;

function addTransaction(type: "receita" | "despesa", amountCents: number, category: string, transactionDate: string) {
  return db.insert(financialTransactions).values({ type, amountCents, category, transactionDate }).returning({ id: financialTransactions.id }).get().id;
}

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctor = await loginAs("doctor");
  addTransaction("receita", 150_000, "Consultas", "2026-03-02");
  addTransaction("receita", 1_234_567, "Cirurgias", "2026-03-15");
  addTransaction("despesa", 1_250_000, "Aluguel", "2026-03-05");
  addTransaction("despesa", 89_000, "Software e sistemas", "2026-04-10");
  addTransaction("receita", 65_000, "Consultas", "2026-04-20");
});

const stateOf = (query: string) => parseListState(new URL(`http://localhost/financial${query}`), TRANSACTION_LIST);

describe("/financial summary and list", () => {
  it("sums revenue, expenses and balance over the filter, to the cent", () => {
    expect(transactionSummary(stateOf("").filters)).toEqual({ revenueCents: 1_449_567, expensesCents: 1_339_000, balanceCents: 110_567 });
    expect(transactionSummary(stateOf("?from=2026-03-01&to=2026-03-31").filters)).toEqual({
      revenueCents: 1_384_567,
      expensesCents: 1_250_000,
      balanceCents: 134_567,
    });
    expect(transactionSummary(stateOf("?type=despesa").filters)).toEqual({ revenueCents: 0, expensesCents: 1_339_000, balanceCents: -1_339_000 });
    expect(transactionSummary(stateOf("?category=Consultas").filters)).toEqual({ revenueCents: 215_000, expensesCents: 0, balanceCents: 215_000 });
  });

  it("lists newest first and filters by type, category and dates", () => {
    expect(listTransactions(stateOf("")).rows.map((r) => r.transactionDate)).toEqual(["2026-04-20", "2026-04-10", "2026-03-15", "2026-03-05", "2026-03-02"]);
    expect(listTransactions(stateOf("?type=receita&from=2026-03-10")).rows.map((r) => r.amountCents)).toEqual([65_000, 1_234_567]);
    expect(listTransactions(stateOf("?category=Aluguel")).total).toBe(1);
  });

  it("reads the sums and the pages through the indexes, never the whole table", () => {
    const statements = capturePrepared(() => {
      for (const query of ["", "?type=receita", "?category=Consultas", "?from=2026-03-01&to=2026-03-31", "?type=despesa&category=Aluguel&from=2026-01-01"]) {
        transactionSummary(stateOf(query).filters);
        listTransactions(stateOf(query));
      }
    }).filter((s) => /"financial_transactions"/.test(s) && /where/i.test(s));
    expect(statements.length).toBeGreaterThan(5);
    for (const statement of statements) {
      const params = (statement.match(/\?/g) ?? []).map(() => "2026-03-01");
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, `${statement}\n${plan}`).not.toMatch(/SCAN financial_transactions(?! USING COVERING INDEX financial_transactions_type_date_amount_idx)/);
      expect(plan, `${statement}\n${plan}`).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe("/financial permissions (SPEC §6: admin only)", () => {
  it("sends staff and doctors to /dashboard with SPEC §8's message, from the loader, the action and the export", async () => {
    for (const who of [staff, doctor]) {
      for (const call of [
        () => loader(routeArgs(getRequest("/financial", { cookie: who.cookie }))),
        () => action(routeArgs(formRequest("/financial", { intent: "create", transactionType: "receita", amount: "10,00", transactionCategory: "X", transactionDate: "2026-01-01" }, { cookie: who.cookie }))),
        () => exportLoader(routeArgs(getRequest("/financial/export.csv", { cookie: who.cookie }))),
      ]) {
        const response = await thrownResponse(call());
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/dashboard");
        const cookie = response.headers.get("Set-Cookie")!.split(";")[0];
        const { toast } = await readToast(getRequest("/dashboard", { cookie }));
        expect(toast?.message).toBe(FINANCE_DENIED);
      }
    }
    expect(db.select().from(financialTransactions).all()).toHaveLength(5);
  });

  it("lets an admin see the cards and the list", async () => {
    const data = (await loader(routeArgs(getRequest("/financial?type=receita", { cookie: admin.cookie })))) as { summary: { revenueCents: number }; rows: unknown[] };
    expect(data.summary.revenueCents).toBe(1_449_567);
    expect(data.rows).toHaveLength(3);
  });
});

describe("/financial writes", () => {
  it("creates a transaction in cents with a surgery link, audited; bad input is a 400 with field messages and no write", async () => {
    const patientId = insertPatient("Paciente do Caixa");
    const doctorId = insertDoctor("Dr. Caixa");
    const surgeryId = db.insert(surgeries).values({ patientId, doctorId, surgeryType: "Microdiscectomia", scheduledDate: new Date("2026-03-01T12:00:00Z") }).returning({ id: surgeries.id }).get().id;
    const bad = await action(
      routeArgs(formRequest("/financial", { intent: "create", transactionType: "outro", amount: "-5", transactionCategory: "", transactionDate: "31/02/2026" }, { cookie: admin.cookie })),
    );
    expect((bad as { init?: { status?: number } }).init?.status).toBe(400);
    const errors = (bad as { data: { result: { error: Record<string, string[]> } } }).data.result.error;
    expect(errors.transactionType).toEqual(["Escolha o tipo: receita ou despesa"]);
    expect(errors.transactionCategory).toEqual(["Informe a categoria"]);
    expect(errors.transactionDate).toEqual(["Data inválida"]);
    expect(errors.amount?.[0]).toMatch(/valor/i);
    const missingSurgery = await action(
      routeArgs(formRequest("/financial", { intent: "create", transactionType: "receita", amount: "1.234,56", transactionCategory: "Cirurgias", transactionDate: "2026-05-01", surgeryId: "999999" }, { cookie: admin.cookie })),
    );
    expect((missingSurgery as { init?: { status?: number } }).init?.status).toBe(400);
    expect(db.select().from(financialTransactions).all()).toHaveLength(5);

    const created = await action(
      routeArgs(formRequest("/financial", { intent: "create", transactionType: "receita", amount: "1.234,56", transactionCategory: "Cirurgias", description: "Honorários", transactionDate: "2026-05-01", surgeryId: String(surgeryId) }, { cookie: admin.cookie })),
    );
    expect((created as Response).status).toBe(302);
    const row = db.select().from(financialTransactions).where(eq(financialTransactions.description, "Honorários")).get()!;
    expect(row).toMatchObject({ type: "receita", amountCents: 123_456, category: "Cirurgias", transactionDate: "2026-05-01", surgeryId });
    const audit = db.select().from(auditLog).where(eq(auditLog.entity, "financial_transaction")).all();
    expect(audit.map((a) => a.action)).toContain("create");

    const deleted = await action(routeArgs(formRequest("/financial", { intent: "delete", id: String(row.id) }, { cookie: admin.cookie })));
    expect((deleted as Response).status).toBe(302);
    expect(db.select().from(financialTransactions).where(eq(financialTransactions.id, row.id)).get()).toBeUndefined();
  });

  it("exports the filtered cash book as Excel-BR CSV", async () => {
    const response = (await exportLoader(routeArgs(getRequest("/financial/export.csv?type=despesa", { cookie: admin.cookie })))) as Response;
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM Excel needs for UTF-8
    const text = new TextDecoder().decode(bytes);
    const [header, ...lines] = text.trim().split("\r\n");
    expect(header).toBe("Data;Tipo;Categoria;Descrição;Valor (R$);Cirurgia (id)");
    expect(lines).toEqual(["10/04/2026;Despesa;Software e sistemas;;890;", "05/03/2026;Despesa;Aluguel;;12500;"]);
    expect(text).not.toContain("Consultas");
  });
});

describe("/financial summary over years of history", () => {
  it("equals a sum of the rows for any range, across months and years, and follows every write without reading the whole book", () => {
    const added = [
      addTransaction("receita", 10_001, "Consultas", "2023-12-31"),
      addTransaction("receita", 20_002, "Cirurgias", "2024-01-01"),
      addTransaction("despesa", 30_003, "Aluguel", "2024-01-31"),
      addTransaction("receita", 40_004, "Consultas", "2024-02-01"),
      addTransaction("despesa", 50_005, "Aluguel", "2024-12-31"),
      addTransaction("receita", 60_006, "Cirurgias", "2025-06-15"),
    ];
    const bySql = (query: string) => {
      const { filters } = stateOf(query);
      const sum = (type: string) =>
        filters.type && filters.type !== type
          ? 0
          : (sqlite
              .prepare(
                "select coalesce(sum(amount_cents), 0) from financial_transactions where type = ? and (? is null or category = ?) and transaction_date between coalesce(?, '0000') and coalesce(?, '9999')",
              )
              .pluck()
              .get(type, filters.category, filters.category, filters.from, filters.to) as number);
      const revenueCents = sum("receita");
      const expensesCents = sum("despesa");
      return { revenueCents, expensesCents, balanceCents: revenueCents - expensesCents };
    };
    const queries = [
      "",
      "?type=receita",
      "?from=2024-01-01",
      "?to=2024-01-31",
      "?from=2023-12-31&to=2024-01-01",
      "?from=2024-01-15&to=2024-12-31",
      "?from=2024-01-01&to=2024-12-31",
      "?from=2023-06-10&to=2025-06-14",
      "?from=2024-02-02&to=2024-02-01",
      "?type=despesa&from=2024-01-01&to=2026-03-31",
      "?category=Consultas&from=2024-01-01",
    ];
    const check = () => {
      for (const query of queries) expect(transactionSummary(stateOf(query).filters), query).toEqual(bySql(query));
    };
    check();
    // Every write moves the sums: an insert, a change of amount, of date and of type, a delete.
    added.push(addTransaction("despesa", 70_007, "Aluguel", "2024-06-30"));
    check();
    sqlite.prepare("update financial_transactions set amount_cents = amount_cents + 1 where id = ?").run(added[0]);
    sqlite.prepare("update financial_transactions set transaction_date = '2025-01-01' where id = ?").run(added[1]);
    sqlite.prepare("update financial_transactions set type = 'despesa' where id = ?").run(added[3]);
    check();
    sqlite.prepare("delete from financial_transactions where id = ?").run(added.pop());
    check();

    // The whole book's sums come from the rollups: no statement reads the transactions.
    sqlite.prepare("update financial_transactions set amount_cents = amount_cents where id = ?").run(added[0]);
    const statements = capturePrepared(() => transactionSummary(stateOf("").filters));
    expect(statements.filter((s) => /financial_transactions/.test(s))).toEqual([]);
    // Viewed again before any write: nothing is read.
    transactionSummary(stateOf("?category=Consultas").filters);
    expect(capturePrepared(() => transactionSummary(stateOf("?category=Consultas").filters))).toEqual([]);
    for (const id of added) sqlite.prepare("delete from financial_transactions where id = ?").run(id);
  });
});
