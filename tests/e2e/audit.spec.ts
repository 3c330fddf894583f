import { expect, test } from "./fixtures";
import { ACCOUNTS } from "./accounts";
import { insertPatient, openTestDb, uniqueTag } from "./db";

test("an admin reaches the audit trail from Configurações, filters it, verifies the chain and exports it", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const patientId = insertPatient(db, `Paciente Auditado ${tag}`);
  db.close();
  await signIn(page, "admin");
  await page.goto(`/patients?q=${tag}`);
  await expect(page.getByRole("cell", { name: `Paciente Auditado ${tag}`, exact: true })).toBeVisible();

  await page.goto("/settings");
  await page.getByRole("link", { name: "Auditoria" }).click();
  await expect(page).toHaveURL(/\/settings\/audit$/);
  await expect(page.getByRole("heading", { name: "Auditoria" })).toBeVisible();

  await page.getByLabel("Usuário (e-mail)").fill(ACCOUNTS.admin.email);
  await page.getByLabel("Ação", { exact: true }).selectOption("view");
  await page.getByLabel("Entidade").fill("patient");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/action=view/);
  const row = page.getByRole("row").filter({ hasText: `"q":"${tag}"` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Visualização");
  await expect(row).toContainText(String(patientId));
  await expect(row).toContainText(ACCOUNTS.admin.name);

  const exportLink = page.getByRole("link", { name: "Exportar CSV" });
  await expect(exportLink).toHaveAttribute("href", /^\/settings\/audit\/export\.csv\?.*action=view/);

  await page.getByRole("button", { name: "Verificar integridade" }).click();
  await expect(page.getByText("Trilha íntegra")).toBeVisible();
});

test("a backup made now shows it under way, then its file, without reloading the page", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto("/settings/backups");
  const files = page.getByRole("cell", { name: /^sinapse-\d{8}-\d{6}-\d{3}Z\.sqlite$/ });
  const before = await files.count();
  await page.getByRole("button", { name: "Fazer backup agora" }).click();
  await expect(page.getByText("Backup iniciado")).toBeVisible();
  // The page reads the backup's state again while it runs; the link for pages without JavaScript stays hidden.
  await expect(page.getByRole("link", { name: "Atualizar" })).toBeHidden();
  await expect(files).toHaveCount(before + 1, { timeout: 20_000 });
  await expect(page.getByText(/^Último backup concluído e verificado em/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Fazer backup agora" })).toBeEnabled();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the audit screen filters and verifies with plain forms; backups are made and scheduled", async ({ page, signIn }) => {
    await signIn(page, "admin");
    await page.goto("/settings/audit");
    await page.getByLabel("Ação", { exact: true }).selectOption("login");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/action=login/);
    await expect(page.getByRole("cell", { name: "Login", exact: true }).first()).toBeVisible();
    await page.getByRole("button", { name: "Verificar integridade" }).click();
    await expect(page.getByText("Trilha íntegra")).toBeVisible();

    await page.goto("/settings/backups");
    await page.getByRole("button", { name: "Fazer backup agora" }).click();
    await expect(page).toHaveURL(/\/settings\/backups$/);
    // The backup goes on in the background; without JavaScript the page offers a link to read it again.
    const refresh = page.getByRole("link", { name: "Atualizar" });
    await expect(async () => {
      if (await refresh.isVisible()) await refresh.click();
      await expect(page.getByText(/^Último backup concluído e verificado em/)).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole("cell", { name: /^sinapse-\d{8}-\d{6}-\d{3}Z\.sqlite$/ }).first()).toBeVisible();

    await page.getByLabel("Fazer backup diário automaticamente").check();
    await page.getByLabel("Horário (Brasília)").selectOption("3");
    await page.getByLabel("Quantidade de backups mantidos").fill("0");
    await page.getByRole("button", { name: "Salvar configuração" }).click();
    await expect(page.getByText("Mantenha ao menos 1 backup")).toBeVisible();
    await page.getByLabel("Quantidade de backups mantidos").fill("7");
    await page.getByRole("button", { name: "Salvar configuração" }).click();
    await page.goto("/settings/backups");
    await expect(page.getByLabel("Fazer backup diário automaticamente")).toBeChecked();
    await expect(page.getByLabel("Horário (Brasília)")).toHaveValue("3");
    await expect(page.getByLabel("Quantidade de backups mantidos")).toHaveValue("7");
    // Put the schedule back: other tests share this server.
    await page.getByLabel("Fazer backup diário automaticamente").uncheck();
    await page.getByRole("button", { name: "Salvar configuração" }).click();
  });
});

test("staff and doctors get no audit or backup screen, and no link to them", async ({ page, signIn }) => {
  await signIn(page, "staff");
  await page.goto("/settings");
  await expect(page.getByRole("link", { name: "Auditoria" })).toHaveCount(0);
  for (const path of ["/settings/audit", "/settings/backups", "/settings/audit/export.csv"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
  }
});
