/**
 * The dashboard's figures against rows this file inserts into the isolated server's database
 * (only accounts exist there, and only this file uses it), dated relative to the real current
 * month in São Paulo. Every expected figure below is worked out by hand from those rows.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { isoDateInClinic, monthRangeInClinic, todayIsoInClinic } from "../../app/lib/dates";
import { insertDoctor, insertPatient, openTestDb } from "./db";

const DAY = 86_400_000;

function clearClinicalRows(db: ReturnType<typeof openTestDb>) {
  for (const table of ["financial_transactions", "surgeries", "appointments", "doctors", "patients"]) {
    db.prepare(`delete from ${table}`).run();
  }
}

function insertFixtures() {
  const now = new Date();
  const thisMonth = monthRangeInClinic(now);
  const lastMonth = monthRangeInClinic(now, -1);
  const t0 = thisMonth.start.getTime();
  const l0 = lastMonth.start.getTime();
  const db = openTestDb("isolated");
  try {
    db.transaction(() => {
      // Start from no clinical rows, even if a retried worker runs this again.
      clearClinicalRows(db);

      const addPatient = (name: string, at: number) => insertPatient(db, name, { createdAt: at });
      // 3 registered this month, 4 last month (the last one on the month's final millisecond), 1 older.
      const p1 = addPatient("Alice Dash", t0 + 1_000);
      addPatient("Bruna Dash", t0 + 2_000);
      addPatient("Carlos Dash", t0 + 3_000);
      addPatient("Diana Dash", l0);
      addPatient("Eduardo Dash", l0 + 5 * DAY);
      addPatient("Fabio Dash", l0 + 9 * DAY);
      addPatient("Gabi Dash", thisMonth.start.getTime() - 1);
      addPatient("Heitor Dash", l0 - 40 * DAY);

      const d1 = insertDoctor(db, "Dr. Painel", { crm: "12345" });

      const appointment = db.prepare(
        `insert into appointments (patient_id, doctor_id, start_time, end_time, status, type, created_at, updated_at)
         values (?, ?, ?, ?, ?, 'Retorno', ?, ?)`,
      );
      const addAppointment = (start: number, waitDays: number, status = "scheduled") => {
        const created = start - waitDays * DAY;
        appointment.run(p1, d1, start, start + 30 * 60_000, status, created, created);
      };
      // This month (3): waits of 10, 4 and 1 days.
      addAppointment(t0 + 1_000, 10);
      addAppointment(t0 + 2_000, 4, "confirmed");
      addAppointment(t0 + 3_000, 1, "completed");
      // Last month (2): a 7-day wait, and a cancelled one that does not count for the wait.
      addAppointment(l0 + 3_600_000, 7, "completed");
      addAppointment(thisMonth.start.getTime() - 60_000, 30, "cancelled");
      // Next month (future) and 100+ days ago: in the total only.
      addAppointment(thisMonth.end.getTime() + DAY, 2);
      addAppointment(l0 - 100 * DAY, 50, "completed");

      const surgery = db.prepare(
        `insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage, receivable_status, billed_at)
         values (?, ?, 'Artrodese lombar', ?, ?, ?, ?, ?)`,
      );
      const addSurgery = (stage: string, at: number, receivable: string | null = null, billedAt: number | null = null) => {
        const status = stage === "concluido" ? "completed" : stage === "cancelado" ? "cancelled" : "scheduled";
        surgery.run(p1, d1, at, status, stage, receivable, billedAt);
      };
      // Scheduled this month (4).
      addSurgery("concluido", t0 + 1_000, "pago");
      addSurgery("concluido", t0 + 2_000, "realizado", t0 + 3_000);
      addSurgery("agendado", t0 + 4_000);
      addSurgery("em_cirurgia", t0 + 5_000);
      // Scheduled last month (2).
      addSurgery("concluido", l0 + DAY, "realizado");
      addSurgery("negado", l0 + 2 * DAY);
      // Other months.
      addSurgery("cancelado", l0 - 20 * DAY);
      addSurgery("aguarda_docs", thisMonth.end.getTime() + 2 * DAY);
      addSurgery("aguarda_docs", l0 - 60 * DAY);

      const transaction = db.prepare("insert into financial_transactions (type, amount_cents, category, transaction_date) values (?, ?, 'Cirurgia', ?)");
      const firstOfThisMonth = isoDateInClinic(thisMonth.start)!;
      const firstOfNextMonth = isoDateInClinic(thisMonth.end)!;
      const lastDayOfLastMonth = isoDateInClinic(thisMonth.start.getTime() - 1)!;
      const firstOfLastMonth = isoDateInClinic(lastMonth.start)!;
      transaction.run("receita", 100_000, firstOfThisMonth);
      transaction.run("receita", 25_050, todayIsoInClinic(now));
      transaction.run("despesa", 999_999, todayIsoInClinic(now));
      transaction.run("receita", 77_700, firstOfNextMonth);
      transaction.run("receita", 50_000, lastDayOfLastMonth);
      transaction.run("receita", 50_200, firstOfLastMonth);
    }).immediate();
  } finally {
    db.close();
  }
}

/** The stat card whose title is exactly `title`. */
function statCard(page: Page, title: string): Locator {
  return page
    .locator('.card')
    .filter({ has: page.locator('.card-title').getByText(title, { exact: true }) });
}

async function expectCard(page: Page, title: string, value: string, texts: string[] = []) {
  const card = statCard(page, title);
  await expect(card).toHaveCount(1);
  await expect(card.getByText(value, { exact: true })).toBeVisible();
  for (const text of texts) await expect(card).toContainText(text);
}

test.beforeAll(insertFixtures);

test("an admin sees every figure computed from the clinic's rows", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto("/dashboard");

  // Patients 8; 3 this month against 4 last month: (3 − 4) / 4 = −25 %.
  await expectCard(page, "Total Pacientes", "8", ["3 cadastrados este mês", "−25%", "vs last month"]);
  // Appointments 7; 3 starting this month against 2 last month: +50 %.
  await expectCard(page, "Consultas", "7", ["3 consultas este mês", "+50%", "vs last month"]);
  // Surgeries 9; 4 scheduled this month against 2 last month: +100 %.
  await expectCard(page, "Cirurgias", "9", ["4 agendadas para este mês", "+100%", "vs last month"]);
  // Income this month 1 000,00 + 250,50; last month 500,00 + 502,00 → (1 250,50 − 1 002) / 1 002 = +24,8 %.
  await expectCard(page, "Receita Mensal", "R$ 1.250,50", ["+24,8%", "vs last month"]);

  // 3 concluded of 5 finished (3 concluido, 1 negado, 1 cancelado).
  await expectCard(page, "Taxa de Sucesso", "60,0%", ["3 concluídas de 5 finalizadas"]);
  // Waits 10, 4, 1 and 7 days (cancelled, future and old appointments left out) → 5,5.
  await expectCard(page, "Tempo Médio de Espera", "5,5 dias", ["4 consultas"]);
  await expectCard(page, "Satisfação do Paciente", "—", ["Sem pesquisas de satisfação registradas"]);
  // 2 billed (pago; billed_at set) of 3 performed.
  await expectCard(page, "Taxa de Cobrança", "66,7%", ["2 faturadas de 3 realizadas"]);

  // No figure of the old prototype survives.
  for (const placeholder of ["95,2%", "95.2%", "12,5 dias", "4.8/5.0", "92,5%", "+12%", "+5%", "+8%"]) {
    await expect(page.getByText(placeholder, { exact: true })).toHaveCount(0);
  }

  const expectedStages: Array<[string, string, number]> = [
    ["aguarda_docs", "Aguarda Docs", 2],
    ["enviado_pre_aut", "Enviado Pré-aut", 0],
    ["aguardando_parecer", "Aguardando Parecer", 0],
    ["opme_cotacao", "OPME em Cotação", 0],
    ["aprovado", "Aprovado", 0],
    ["negado", "Negado", 1],
    ["agendado", "Agendado", 1],
    ["em_cirurgia", "Em Cirurgia", 1],
    ["concluido", "Concluído", 3],
    ["cancelado", "Cancelado", 1],
  ];
  const distribution = page.getByRole("list", { name: "Distribuição das cirurgias por etapa" });
  const links = distribution.getByRole("link");
  await expect(links).toHaveCount(10);
  for (const [i, [stage, label, n]] of expectedStages.entries()) {
    await expect(links.nth(i)).toHaveAccessibleName(`${label}: ${n} ${n === 1 ? "cirurgia" : "cirurgias"}`);
    await expect(links.nth(i)).toHaveAttribute("href", `/surgeries?stage=${stage}`);
    // The bar is the stage's share of the 9 surgeries, to one decimal.
    const share = Math.round((n / 9) * 1000) / 10;
    await expect(page.getByTestId(`stage-bar-${stage}`)).toHaveAttribute("style", new RegExp(`width:\\s*${String(share).replace(".", "\\.")}%`));
  }
  await expect(page.getByText("9 cirurgias no pipeline")).toBeVisible();

  const quick = page.getByRole("region", { name: "Acesso rápido" });
  for (const [name, href] of [
    ["Consultas", "/appointments"],
    ["Pacientes", "/patients"],
    ["Médicos", "/doctors"],
    ["Cirurgias", "/surgeries"],
  ]) {
    await expect(quick.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", href);
  }
  await quick.getByRole("link", { name: /^Médicos/ }).click();
  await expect(page).toHaveURL(/\/doctors$/);
});

test("a doctor sees the clinical figures but not the revenue", async ({ page, signIn }) => {
  await signIn(page, "doctor");
  await page.goto("/dashboard");
  await expectCard(page, "Total Pacientes", "8");
  await expectCard(page, "Taxa de Cobrança", "66,7%");
  await expect(page.getByText("Receita Mensal")).toHaveCount(0);
  await expect(page.getByText("R$ 1.250,50")).toHaveCount(0);
});

test("an empty clinic shows zeros and hints, never invented figures", async ({ page, signIn }) => {
  const db = openTestDb("isolated");
  db.transaction(() => clearClinicalRows(db)).immediate();
  db.close();
  try {
    await signIn(page, "admin");
    await page.goto("/dashboard");
    await expectCard(page, "Total Pacientes", "0", ["0 cadastrados este mês · sem dados do mês anterior"]);
    await expectCard(page, "Consultas", "0", ["sem dados do mês anterior"]);
    await expectCard(page, "Cirurgias", "0", ["sem dados do mês anterior"]);
    await expectCard(page, "Receita Mensal", "R$ 0,00", ["sem dados do mês anterior"]);
    await expect(page.getByText("vs last month")).toHaveCount(0);
    await expectCard(page, "Taxa de Sucesso", "—", ["Nenhuma cirurgia finalizada"]);
    await expectCard(page, "Tempo Médio de Espera", "—", ["Sem consultas nos últimos 90 dias"]);
    await expectCard(page, "Satisfação do Paciente", "—");
    await expectCard(page, "Taxa de Cobrança", "—", ["Nenhuma cirurgia realizada"]);
    await expect(page.getByText("Nenhuma cirurgia cadastrada")).toBeVisible();
    await expect(page.getByRole("link", { name: "Aguarda Docs: 0 cirurgias" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Cancelado: 0 cirurgias" })).toBeVisible();
  } finally {
    insertFixtures(); // the other tests' rows, whatever order they run in
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the figures render on the server and a stage opens the filtered surgeries", async ({ page, signIn }) => {
    await signIn(page, "staff");
    await page.goto("/dashboard");
    await expectCard(page, "Cirurgias", "9", ["+100%"]);
    await expect(page.getByText("Receita Mensal")).toHaveCount(0);
    await page.getByRole("link", { name: "Concluído: 3 cirurgias" }).click();
    await expect(page).toHaveURL(/\/surgeries\?stage=concluido$/);
  });
});
