import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

// Long flows on a shared, busy machine: more room than the default 30 s.
test.describe.configure({ timeout: 120_000 });

function dialog(page: Page) {
  return page.getByRole("dialog");
}

test("an admin creates, finds, edits and deletes a payer with its fee rules", async ({ page, signIn }) => {
  const tag = uniqueTag();
  await signIn(page, "admin");
  await page.goto("/master-data");
  await expect(page.getByRole("link", { name: "Pagadores", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "Novo Pagador" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Novo Pagador" })).toBeVisible();
  await expect(dialog(page).getByLabel("1º auxiliar (%)")).toHaveValue("60");
  await expect(dialog(page).getByLabel("Urgência (%)")).toHaveValue("30");

  await dialog(page).getByLabel("Nome").fill(`Saúde Ômega ${tag}`);
  await dialog(page).getByLabel("CNPJ").fill("12.345.678/0001-96");
  await dialog(page).getByLabel("Cobertura (%)").fill("101");
  await dialog(page).getByRole("button", { name: "Cadastrar pagador" }).click();
  await expect(dialog(page).getByText("CNPJ inválido")).toBeVisible();
  await expect(dialog(page).getByText("A cobertura deve estar entre 0 e 100%")).toBeVisible();

  await dialog(page).getByLabel("CNPJ").fill("12.ABC.345/01DE-35");
  await dialog(page).getByLabel("Cobertura (%)").fill("90");
  await dialog(page).getByLabel("Registro ANS").fill("326305");
  await dialog(page).getByLabel("1º auxiliar (%)").fill("30");
  await dialog(page).getByLabel("2º auxiliar (%)").fill("20");
  await dialog(page).getByRole("button", { name: "Cadastrar pagador" }).click();
  await expectToast(page, "Pagador criado com sucesso");

  const searchBox = page.getByRole("searchbox", { name: "Buscar pagadores" });
  await searchBox.fill(`saude omega ${tag}`);
  await searchBox.press("Enter");
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("12.ABC.345/01DE-35");
  await expect(row).toContainText("326305");
  await expect(row).toContainText("30/20/30/30");

  await row.getByRole("link", { name: /Editar/ }).click();
  await dialog(page).getByLabel("Prazo de pagamento (dias)").fill("45");
  await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Pagador atualizado com sucesso");
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("45 dias");

  await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Excluir/ }).click();
  await expect(dialog(page)).toContainText("Tem certeza que deseja excluir este pagador?");
  await dialog(page).getByRole("button", { name: "Excluir" }).click();
  await expectToast(page, "Pagador excluído com sucesso");
  await expect(page.getByText("Nenhum pagador encontrado")).toBeVisible();
});

test("an admin works every tab: hospital, supplier and code, with their bounds", async ({ page, signIn }) => {
  const tag = uniqueTag();
  await signIn(page, "admin");

  await page.goto("/master-data/hospitals?dialog=new");
  await dialog(page).getByLabel("Nome").fill(`Hospital Ângelo ${tag}`);
  await dialog(page).getByLabel("CNES").fill("123");
  await dialog(page).getByLabel("CEP").fill("0131");
  await dialog(page).getByRole("button", { name: "Cadastrar hospital" }).click();
  await expect(dialog(page).getByText("O CNES tem 7 dígitos")).toBeVisible();
  await expect(dialog(page).getByText("CEP inválido: use o formato 00000-000")).toBeVisible();
  await dialog(page).getByLabel("CNES").fill("2077485");
  await dialog(page).getByLabel("CEP").fill("01310100");
  await dialog(page).getByLabel("UF").selectOption("RJ");
  await dialog(page).getByLabel("Cidade").fill("Niterói");
  await dialog(page).getByRole("button", { name: "Cadastrar hospital" }).click();
  await expectToast(page, "Hospital criado com sucesso");
  await page.goto(`/master-data/hospitals?q=angelo+${tag}`);
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("Niterói/RJ");

  await page.goto("/master-data/suppliers?dialog=new");
  await dialog(page).getByLabel("Nome").fill(`OPME Sul ${tag}`);
  await dialog(page).getByLabel("Avaliação de qualidade (0 a 5)").fill("5.1");
  await dialog(page).getByRole("button", { name: "Cadastrar fornecedor" }).click();
  await expect(dialog(page).getByText("A avaliação vai de 0 a 5, em passos de 0,1")).toBeVisible();
  await dialog(page).getByLabel("Avaliação de qualidade (0 a 5)").fill("4.5");
  await dialog(page).getByRole("button", { name: "Cadastrar fornecedor" }).click();
  await expectToast(page, "Fornecedor criado com sucesso");

  const digits = String(Date.now()).slice(-8);
  await page.goto("/master-data/codes?dialog=new");
  await dialog(page).getByLabel("Tipo").selectOption("custom");
  await dialog(page).getByLabel("Código").fill(`SIN-${digits}`);
  await dialog(page).getByLabel("Descrição").fill(`Avaliação ${tag}`);
  await dialog(page).getByLabel("Valor (R$)").fill("350,00");
  await dialog(page).getByRole("button", { name: "Cadastrar código" }).click();
  await expectToast(page, "Código criado com sucesso");
  await page.goto(`/master-data/codes?q=${tag}`);
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toContainText("R$ 350,00");
  await row.getByRole("link", { name: /Editar/ }).click();
  // Code and type are shown, not editable.
  await expect(dialog(page).getByRole("textbox", { name: "Código" })).toHaveCount(0);
  await expect(dialog(page)).toContainText(`SIN-${digits}`);
});

test("staff and doctors see no controls, and their forged writes get 403", async ({ page, signIn }) => {
  const db = openTestDb();
  for (const account of ["staff", "doctor"] as const) {
    await signIn(page, account);
    await page.goto("/master-data/suppliers");
    await expect(page.getByRole("table", { name: "Fornecedores" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Novo Fornecedor" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Importar CSV" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: /Editar/ })).toHaveCount(0);
    const name = `Forjado ${uniqueTag()}`;
    const response = await forgePost(page, "/master-data/suppliers", { intent: "create", name });
    expect(response.status()).toBe(403);
    expect((db.prepare("select count(*) as n from suppliers where name = ?").get(name) as { n: number }).n).toBe(0);
    await page.context().clearCookies();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin creates a hospital with an alphanumeric CNPJ, and 'SPX' is refused", async ({ page, signIn }) => {
    const tag = uniqueTag();
    await signIn(page, "admin");
    await page.goto("/master-data/hospitals");
    await page.getByRole("link", { name: "Novo Hospital" }).click();
    await dialog(page).getByLabel("Nome").fill(`Hospital Sem Script ${tag}`);
    await dialog(page).getByLabel("CNPJ").fill("Q0SLFMBD7VX439");
    await dialog(page).getByLabel("CEP").fill("1234");
    await dialog(page).getByRole("button", { name: "Cadastrar hospital" }).click();
    await expect(dialog(page).getByText("CEP inválido: use o formato 00000-000")).toBeVisible();
    await dialog(page).getByLabel("CEP").fill("04004-030");
    await dialog(page).getByRole("button", { name: "Cadastrar hospital" }).click();
    await expect(dialog(page)).toHaveCount(0);
    await page.goto(`/master-data/hospitals?q=${tag}`);
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("Q0.SLF.MBD/7VX4-39");
  });

  test("a CSV import with a bad line applies nothing and names the line", async ({ page, signIn }) => {
    const tag = uniqueTag();
    await signIn(page, "admin");
    await page.goto("/master-data/suppliers");
    await page.getByRole("link", { name: "Importar CSV" }).click();
    const csv = `Nome;Tipo;Avaliação\nImportado A ${tag};OPME;4,5\nImportado B ${tag};OPME;7\n`;
    await page.getByLabel("Arquivo CSV").setInputFiles({ name: "fornecedores.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Pré-visualizar" }).click();
    await expect(page.getByText("Nada foi importado: corrija as linhas indicadas.")).toBeVisible();
    await expect(page.getByText("Linha 3: Avaliação: A avaliação vai de 0 a 5, em passos de 0,1")).toBeVisible();

    const good = `Nome;Tipo;Avaliação\nImportado A ${tag};OPME;4,5\nImportado B ${tag};Equipamentos;3\n`;
    await page.getByLabel("Arquivo CSV").setInputFiles({ name: "fornecedores.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
    await page.getByRole("button", { name: "Pré-visualizar" }).click();
    await expect(page.getByText("Pré-visualização: 2 linhas prontas para importar")).toBeVisible();
    await page.getByRole("button", { name: "Confirmar importação" }).click();
    await page.goto(`/master-data/suppliers?q=importado+${tag}`);
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toHaveCount(2);
  });
});
