import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

test.describe.configure({ timeout: 120_000 });

function dialog(page: Page) {
  return page.getByRole("dialog");
}

test("an admin writes a SOP, edits it into v2, reads v1 and compares; scripts stay inert", async ({ page, signIn }) => {
  const tag = uniqueTag();
  await signIn(page, "admin");
  await page.goto("/sops");
  await page.getByRole("link", { name: "Novo SOP" }).click();
  await dialog(page).getByLabel("Título").fill(`Checklist ${tag}`);
  await dialog(page).getByLabel("Categoria").fill("Centro cirúrgico");
  await dialog(page).getByLabel("Conteúdo (Markdown)").fill(
    "## Antes da cirurgia\n\n- Jejum de 8 h\n\n<script>window.__pwned = true</script>\n\n[clique](javascript:window.__pwned=true)",
  );
  await dialog(page).getByRole("button", { name: "Criar SOP" }).click();
  await expectToast(page, "SOP criado");

  await page.goto(`/sops?q=${tag}`);
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toContainText("Rascunho");
  await expect(row).toContainText("v1");
  await row.getByRole("link", { name: /Editar/ }).click();
  await dialog(page).getByLabel("Conteúdo (Markdown)").fill("## Antes da cirurgia\n\n- Jejum de 8 h\n- Termo de consentimento assinado");
  await dialog(page).getByLabel("Status", { exact: true }).selectOption("active");
  await dialog(page).getByRole("button", { name: "Salvar nova versão" }).click();
  await expectToast(page, "SOP atualizado");
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("v2");
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("Ativo");

  await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: `Checklist ${tag}`, exact: true }).click();
  await expect(dialog(page).getByRole("heading", { name: "Antes da cirurgia" })).toBeVisible();
  await expect(dialog(page).getByText("Termo de consentimento assinado")).toBeVisible();
  await dialog(page).getByRole("link", { name: "v1", exact: true }).click();
  await expect(dialog(page).getByText("Termo de consentimento assinado")).toHaveCount(0);
  // The script and the javascript: link of v1 are inert: no <script>, the link has no href.
  await expect(dialog(page).locator("article script")).toHaveCount(0);
  await expect(dialog(page).locator('article a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();

  await dialog(page).getByLabel("Comparar de").selectOption("1");
  await dialog(page).getByLabel("até").selectOption("2");
  await dialog(page).getByRole("button", { name: "Comparar" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Diferenças de v1 para v2" })).toBeVisible();
  await expect(dialog(page).locator("ins")).toContainText("Termo de consentimento assinado");
});

test("staff and doctors read SOPs without controls; their forged writes get 403", async ({ page, signIn }) => {
  const db = openTestDb();
  for (const account of ["staff", "doctor"] as const) {
    await signIn(page, account);
    await page.goto("/sops");
    await expect(page.getByRole("table", { name: "SOPs" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Novo SOP" })).toHaveCount(0);
    const title = `Forjado ${uniqueTag()}`;
    const response = await forgePost(page, "/sops", { intent: "create", title, category: "x", contentMd: "x" });
    expect(response.status()).toBe(403);
    expect((db.prepare("select count(*) as n from sops where title = ?").get(title) as { n: number }).n).toBe(0);
    await page.context().clearCookies();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin creates a SOP, and a missing content keeps the dialog with the message", async ({ page, signIn }) => {
    const tag = uniqueTag();
    await signIn(page, "admin");
    await page.goto("/sops?dialog=new");
    await dialog(page).getByLabel("Título").fill(`Sem script ${tag}`);
    await dialog(page).getByLabel("Categoria").fill("Ambulatório");
    await dialog(page).getByRole("button", { name: "Criar SOP" }).click();
    await expect(dialog(page).getByText("Escreva o conteúdo")).toBeVisible();
    await dialog(page).getByLabel("Conteúdo (Markdown)").fill("Texto **simples**");
    await dialog(page).getByRole("button", { name: "Criar SOP" }).click();
    await expect(dialog(page)).toHaveCount(0);
    await page.goto(`/sops?q=${tag}`);
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("v1");
  });
});
