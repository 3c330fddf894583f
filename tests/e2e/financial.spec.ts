import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

test.describe.configure({ timeout: 120_000 });

const dialog = (page: Page) => page.getByRole("dialog");
const card = (page: Page, title: string) => page.locator(".card").filter({ hasText: title });

/** A day of its own per run (in 2001), so the cards over that day count only this test's rows. */
function dayOfRun() {
  const n = Math.floor(Math.random() * 300);
  const date = new Date(Date.UTC(2001, 0, 1 + n));
  return { iso: date.toISOString().slice(0, 10), br: date.toISOString().slice(0, 10).split("-").reverse().join("/") };
}

test("an admin records revenue and an expense; the cards follow the date filter", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const day = dayOfRun();
  await signIn(page, "admin");
  await page.goto(`/financial?from=${day.iso}&to=${day.iso}`);
  await page.getByRole("link", { name: "Nova Transação" }).click();
  await dialog(page).getByLabel("Tipo").selectOption("receita");
  await dialog(page).getByLabel("Valor (R$)").fill("abc");
  await dialog(page).getByLabel("Categoria").fill("Cirurgias");
  await dialog(page).getByLabel("Data").fill(day.iso);
  await dialog(page).getByLabel("Descrição").fill(`Honorários ${tag}`);
  await dialog(page).getByRole("button", { name: "Criar transação" }).click();
  await expect(dialog(page).getByText("Valor inválido")).toBeVisible();
  await dialog(page).getByLabel("Valor (R$)").fill("2.500,75");
  await dialog(page).getByRole("button", { name: "Criar transação" }).click();
  await expectToast(page, "Transaction created successfully");

  await page.getByRole("link", { name: "Nova Transação" }).click();
  await dialog(page).getByLabel("Tipo").selectOption("despesa");
  await dialog(page).getByLabel("Valor (R$)").fill("500");
  await dialog(page).getByLabel("Categoria").fill("Materiais");
  await dialog(page).getByLabel("Data").fill(day.iso);
  await dialog(page).getByRole("button", { name: "Criar transação" }).click();
  // The first toast may still be on screen: the newest is the last one.
  await expect(dialog(page)).toBeHidden();
  await expectToast(page, "Transaction created successfully");

  await expect(card(page, "Total Revenue")).toContainText("R$ 2.500,75");
  await expect(card(page, "Total Expenses")).toContainText("R$ 500,00");
  await expect(card(page, "Balance")).toContainText("R$ 2.000,75");
  await page.getByLabel("Tipo").selectOption("despesa");
  await expect(page).toHaveURL(/type=despesa/);
  await expect(card(page, "Total Revenue")).toContainText("R$ 0,00");
  await expect(page.getByRole("table", { name: "Transações" }).getByRole("row")).toHaveCount(2);
});

test("staff is sent to the dashboard; a forged write changes nothing", async ({ page, signIn }) => {
  const db = openTestDb();
  await signIn(page, "staff");
  await page.goto("/financial");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("You don't have permission to access financial data")).toBeVisible();
  const description = `Forjada ${uniqueTag()}`;
  const response = await forgePost(page, "/financial", { intent: "create", transactionType: "receita", amount: "10", transactionCategory: "X", transactionDate: "2001-01-01", description });
  expect(response.status()).toBe(302);
  expect(response.headers().location).toBe("/dashboard");
  expect((db.prepare("select count(*) as n from financial_transactions where description = ?").get(description) as { n: number }).n).toBe(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin creates, edits and deletes a transaction after confirming", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const day = dayOfRun();
    await signIn(page, "admin");
    await page.goto(`/financial?from=${day.iso}&to=${day.iso}&dialog=new`);
    await dialog(page).getByLabel("Tipo").selectOption("despesa");
    await dialog(page).getByLabel("Valor (R$)").fill("1.234,56");
    await dialog(page).getByLabel("Categoria").fill("Aluguel");
    await dialog(page).getByLabel("Data").fill(day.iso);
    await dialog(page).getByLabel("Descrição").fill(`Aluguel ${tag}`);
    await dialog(page).getByRole("button", { name: "Criar transação" }).click();
    const row = page.getByRole("row", { name: new RegExp(tag) });
    await expect(row).toContainText("R$ 1.234,56");
    await expect(row).toContainText(day.br);
    await expect(card(page, "Balance")).toContainText("R$ 1.234,56");

    await row.getByRole("link", { name: /Editar/ }).click();
    await dialog(page).getByLabel("Valor (R$)").fill("1.000,00");
    await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("R$ 1.000,00");

    await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Excluir/ }).click();
    await expect(dialog(page).getByText("Are you sure you want to delete this transaction?")).toBeVisible();
    await dialog(page).getByRole("button", { name: "Excluir" }).click();
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toHaveCount(0);
    await expect(page.getByText("No transactions found")).toBeVisible();
  });
});
