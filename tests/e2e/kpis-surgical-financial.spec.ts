import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { insertDoctor, insertPatient, insertPayer, openTestDb, uniqueTag } from "./db";

test.describe.configure({ timeout: 120_000 });

const figure = (page: Page, label: string) => page.locator("[data-kpi]").filter({ has: page.getByRole("heading", { name: label, exact: true }) });
const value = (page: Page, label: string) => figure(page, label).locator("[data-kpi-value]");

/**
 * A doctor and a payer of this run with two surgeries on a day of their own in 1997 (12:00 São
 * Paulo): one concluded (billed R$ 1.000,00), one cancelled; and that day's revenue and expense.
 */
function fixtures() {
  const tag = uniqueTag();
  const db = openTestDb();
  const day = new Date(Date.UTC(1997, 0, 1 + Math.floor(Math.random() * 360)));
  const iso = day.toISOString().slice(0, 10);
  const noon = day.getTime() + 15 * 3_600_000;
  const doctorName = `Dr. Cirúrgico ${tag}`;
  const doctorId = insertDoctor(db, doctorName);
  const payerId = insertPayer(db, `Convênio KPI ${tag}`);
  const patientId = insertPatient(db, `Paciente KPI ${tag}`);
  const procedure = `Artrodese KPI ${tag}`;
  const surgery = (stage: string, status: string, receivable: string | null) =>
    (
      db
        .prepare(
          `insert into surgeries (patient_id, doctor_id, payer_id, surgery_type, scheduled_date, status, current_stage, receivable_status, billed_amount_cents, billed_at, created_at, updated_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
        )
        .get(patientId, doctorId, payerId, procedure, noon, status, stage, receivable, receivable ? 100_000 : null, receivable ? noon : null, noon, noon) as { id: number }
    ).id;
  const concluded = surgery("concluido", "completed", "faturado");
  surgery("cancelado", "cancelled", null);
  const move = db.prepare("insert into pipeline_stages (surgery_id, stage, from_stage, created_at, updated_at) values (?, ?, ?, ?, ?)");
  move.run(concluded, "aguarda_docs", null, noon - 3 * 86_400_000, noon - 3 * 86_400_000);
  move.run(concluded, "concluido", "aguarda_docs", noon, noon);
  const tx = db.prepare("insert into financial_transactions (type, amount_cents, category, description, transaction_date) values (?, ?, 'KPI', ?, ?)");
  tx.run("receita", 100_000, `Receita ${tag}`, iso);
  tx.run("despesa", 25_000, `Despesa ${tag}`, iso);
  db.close();
  return { iso, br: iso.split("-").reverse().join("/"), doctorId, doctorName, payerId, procedure };
}

test("surgical, financial and OPME figures with JavaScript: formula, chart and the same numbers in the CSV", async ({ page, signIn }) => {
  const { iso, doctorId, payerId } = fixtures();
  await signIn(page, "admin");
  const query = `periodo=personalizado&de=${iso}&ate=${iso}&medico=${doctorId}&pagador=${payerId}`;

  await page.goto(`/kpis/cirurgicos?${query}`);
  await expect(value(page, "Cirurgias")).toHaveText("2");
  await expect(value(page, "Taxa de sucesso")).toHaveText("50,0%");
  await expect(value(page, "Cumprimento do prazo ANS")).toHaveText("—");
  await figure(page, "Taxa de sucesso").getByRole("button", { name: /Fórmula/ }).focus();
  await expect(page.getByRole("tooltip").filter({ hasText: "Concluído ÷ todas as cirurgias do período × 100, arredondado" })).toBeVisible();
  const byStage = page.locator("[data-kpi-chart=por-etapa]");
  await expect(byStage.locator(".recharts-wrapper > svg.recharts-surface")).toBeVisible();
  const csv = await (await page.request.get((await byStage.getByRole("link", { name: "Exportar CSV" }).getAttribute("href"))!)).text();
  expect(csv).toContain("Concluído;1;0");
  expect(csv).toContain("Cancelado;1;0");

  await page.goto(`/kpis/financeiros?${query}`);
  await expect(value(page, "Margem de lucro")).toHaveText("75,0%");
  await expect(value(page, "Taxa de glosa")).toHaveText("0,0%");
  await expect(page.locator("[data-kpi-chart=envelhecimento] .recharts-wrapper > svg.recharts-surface")).toBeVisible();

  await page.goto(`/kpis/opme?${query}`);
  await expect(value(page, "Pedidos de OPME")).toHaveText("0");
  await expect(value(page, "Prazo de entrega dos fornecedores")).toHaveText("—");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter form and the tables work for staff, who has no export", async ({ page, signIn }) => {
    const { iso, doctorId, doctorName, procedure } = fixtures();
    await signIn(page, "staff");
    await page.goto(`/kpis/cirurgicos?periodo=personalizado&de=${iso}&ate=${iso}`);
    await page.getByLabel("Médico").selectOption({ label: doctorName });
    await page.getByRole("button", { name: "Aplicar" }).click();
    await expect(page).toHaveURL(new RegExp(`medico=${doctorId}`));
    await expect(page.getByRole("table", { name: "Cirurgias por etapa" }).getByRole("row", { name: /Concluído/ })).toContainText("1");
    await expect(page.getByRole("table", { name: "Cirurgias por procedimento" }).getByRole("row", { name: new RegExp(procedure) })).toContainText("2");
    await expect(page.getByRole("link", { name: "Exportar CSV" })).toHaveCount(0);
    expect((await page.request.get(`/kpis/cirurgicos/export.csv?periodo=ano&tabela=por-etapa`)).status()).toBe(403);

    await page.goto(`/kpis/opme?periodo=personalizado&de=${iso}&ate=${iso}&medico=${doctorId}`);
    await expect(page.getByRole("table", { name: "Gasto por fornecedor" })).toHaveCount(0);
    await expect(page.getByText("Nenhuma cotação escolhida no período.").first()).toBeVisible();
  });
});

test("a non-admin is refused the financial figures by the server, page and CSV alike", async ({ page, signIn }) => {
  await signIn(page, "staff");
  await page.goto("/kpis/financeiros?periodo=ano");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("You don't have permission to access financial data")).toBeVisible();
  await expect(page.locator("[data-kpi]")).toHaveCount(0);
  const csv = await page.request.get("/kpis/financeiros/export.csv?periodo=ano&tabela=indicadores", { maxRedirects: 0 });
  expect(csv.status()).toBe(302);
  expect(csv.headers().location).toBe("/dashboard");
});
