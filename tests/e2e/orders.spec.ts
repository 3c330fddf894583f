import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

test.describe.configure({ timeout: 120_000 });

function dialog(page: Page) {
  return page.getByRole("dialog");
}

test("staff creates an order with items, the total follows them, and deletes it", async ({ page, signIn }) => {
  const tag = uniqueTag();
  await signIn(page, "staff");
  await page.goto("/orders");
  await page.getByRole("link", { name: "Novo Pedido" }).click();
  await dialog(page).getByLabel("Tipo do pedido").fill(`OPME ${tag}`);
  await dialog(page).getByLabel("Descrição do item 1").fill("Parafuso pedicular");
  await dialog(page).getByLabel("Quantidade do item 1").fill("4");
  await dialog(page).getByLabel("Valor unitário do item 1").fill("1.800,00");
  await dialog(page).getByLabel("Descrição do item 2").fill("Haste de titânio");
  await dialog(page).getByLabel("Quantidade do item 2").fill("2");
  await dialog(page).getByLabel("Valor unitário do item 2").fill("950");
  await expect(dialog(page).getByTestId("order-total")).toHaveText("Total: R$ 9.100,00");
  await dialog(page).getByRole("button", { name: "Criar pedido" }).click();
  await expectToast(page, "Pedido criado");

  await page.goto(`/orders?q=${tag}`);
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toContainText("R$ 9.100,00");
  await expect(row).toContainText("Pendente");
  await row.getByRole("link", { name: /Editar/ }).click();
  await expect(dialog(page).getByLabel("Descrição do item 2")).toHaveValue("Haste de titânio");
  await dialog(page).getByLabel("Quantidade do item 1").fill("2");
  await dialog(page).getByLabel("Status", { exact: true }).selectOption("approved");
  await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Pedido atualizado");
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("R$ 5.500,00");
  await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Editar/ }).click();
  await expect(dialog(page).getByRole("heading", { name: "Histórico de status" })).toBeVisible();
  await expect(dialog(page).getByText(/Pendente → Aprovado/)).toBeVisible();
  await dialog(page).getByRole("link", { name: /Cancelar|Fechar/ }).first().click();

  await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Excluir/ }).click();
  await dialog(page).getByRole("button", { name: "Excluir" }).click();
  await expectToast(page, "Pedido excluído");
});

test("a doctor sees orders without controls and a forged create gets 403", async ({ page, signIn }) => {
  const db = openTestDb();
  await signIn(page, "doctor");
  await page.goto("/orders");
  await expect(page.getByRole("table", { name: "Pedidos" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Novo Pedido" })).toHaveCount(0);
  const orderType = `Forjado ${uniqueTag()}`;
  const response = await forgePost(page, "/orders", { intent: "create", orderType });
  expect(response.status()).toBe(403);
  expect((db.prepare("select count(*) as n from orders where order_type = ?").get(orderType) as { n: number }).n).toBe(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin creates an order; a bad quantity is named beside its item", async ({ page, signIn }) => {
    const tag = uniqueTag();
    await signIn(page, "admin");
    await page.goto("/orders?dialog=new");
    await dialog(page).getByLabel("Tipo do pedido").fill(`Exame ${tag}`);
    await dialog(page).getByLabel("Descrição do item 1").fill("Ressonância lombar");
    await dialog(page).getByLabel("Quantidade do item 1").fill("0");
    await dialog(page).getByRole("button", { name: "Criar pedido" }).click();
    await expect(dialog(page).getByText("Quantidade: um número inteiro de 1 a 100000")).toBeVisible();
    await dialog(page).getByLabel("Quantidade do item 1").fill("1");
    await dialog(page).getByLabel("Valor unitário do item 1").fill("950,00");
    await dialog(page).getByRole("button", { name: "Criar pedido" }).click();
    await expect(dialog(page)).toHaveCount(0);
    await page.goto(`/orders?q=${tag}`);
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("R$ 950,00");
  });
});
