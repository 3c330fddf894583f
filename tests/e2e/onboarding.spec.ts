import { expect, test } from "@playwright/test";
import { expectToast, forgePost, login, logout } from "./helpers";

// Runs against a server whose database starts empty: the order of these steps is the story.
test.describe.configure({ mode: "serial" });

const admin = { name: "Beatriz Conceição", email: "beatriz@clinica.test", password: "primeira-senha-1" };
const second = { name: "João Gonçalves", email: "joao@clinica.test", password: "segunda-senha-2" };

async function signUp(page: import("@playwright/test").Page, who: typeof admin) {
  await page.goto("/auth");
  await page.getByRole("link", { name: "Sign Up" }).click();
  await page.getByLabel("Nome completo").fill(who.name);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Senha").fill(who.password);
  await page.getByRole("button", { name: "Criar conta" }).click();
  await expectToast(page, "Account created! Check your email for verification.");
}

test("the auth page shows the product name and both tabs", async ({ page }) => {
  await page.goto("/auth");
  await expect(page.getByRole("heading", { name: "Sinapse" })).toBeVisible();
  await expect(page.getByText("Sign in to manage your medical operations")).toBeVisible();
  await expect(page.getByRole("link", { name: "Login" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Sign Up" })).toBeVisible();
});

test("sign-up refuses a short password with a Portuguese message", async ({ page }) => {
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Nome completo").fill("Teste");
  await page.getByLabel("Email").fill("curta@clinica.test");
  await page.getByLabel("Senha").fill("1234567");
  await page.getByRole("button", { name: "Criar conta" }).click();
  await expect(page.getByText("A senha deve ter pelo menos 8 caracteres")).toBeVisible();
});

test("the first account to sign up becomes admin and is signed straight in", async ({ page }) => {
  await signUp(page, admin);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectToast(page, "Esta é a primeira conta: você administra o Sinapse e já está conectado.");
  await expect(page.getByRole("complementary")).toBeVisible();
  await page.goto("/settings?tab=usuarios");
  const row = page.getByRole("row", { name: new RegExp(admin.email) });
  await expect(row.getByRole("combobox")).toHaveValue("admin");
});

test("a later sign-up waits for a role and is refused everywhere", async ({ page }) => {
  await signUp(page, second);
  // Not signed in: the login tab, with empty fields, says plainly that an administrator must grant access.
  await expect(page).toHaveURL(/\/auth\?tab=login/);
  await expect(page.getByLabel("Email")).toHaveValue("");
  await expect(page.getByRole("status").filter({ hasText: "Peça a liberação ao administrador" })).toContainText(
    "um administrador da clínica precisa liberar o seu acesso",
  );
  await login(page, second.email, second.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Acesso aguardando liberação" })).toBeVisible();
  await expect(page.getByRole("complementary")).toHaveCount(0);
  for (const path of ["/dashboard", "/settings?tab=usuarios", "/ia/triagem"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Acesso aguardando liberação" })).toBeVisible();
  }
  const forged = await forgePost(page, "/settings", { intent: "set-role", userId: "2", role: "admin" });
  expect(forged.status()).toBe(403);
  const forgedName = await forgePost(page, "/settings", { intent: "update-general", clinicName: "Invadida" });
  expect(forgedName.status()).toBe(403);
});

test("the admin grants staff, changes the clinic name, and the second account then works", async ({ page, browser }) => {
  await login(page, admin.email, admin.password);
  await page.waitForURL(/\/dashboard$/);
  await page.goto("/settings?tab=usuarios");
  const row = page.getByRole("row", { name: new RegExp(second.email) });
  await row.getByRole("combobox").selectOption("staff");
  await row.getByRole("button", { name: "Salvar" }).click();
  await expectToast(page, "Perfil atualizado");

  await page.goto("/settings");
  await page.getByLabel("Nome da clínica").fill("Clínica Neuro Coluna");
  await page.getByRole("button", { name: "Salvar Alterações" }).click();
  await expectToast(page, "Configurações salvas com sucesso");
  await expect(page.getByRole("complementary")).toContainText("Clínica Neuro Coluna");

  const context = await browser.newContext();
  const staffPage = await context.newPage();
  await login(staffPage, second.email, second.password);
  await expect(staffPage).toHaveURL(/\/dashboard$/);
  await expect(staffPage.getByRole("complementary")).toContainText("Clínica Neuro Coluna");
  // Staff cannot manage users, on screen or by a forged request.
  await staffPage.goto("/settings");
  await expect(staffPage.getByRole("link", { name: "Usuários" })).toHaveCount(0);
  const forged = await forgePost(staffPage, "/settings", { intent: "set-role", userId: "2", role: "admin" });
  expect(forged.status()).toBe(403);
  await logout(staffPage);
  await context.close();
});

test("the last admin cannot remove their own admin role", async ({ page }) => {
  await login(page, admin.email, admin.password);
  await page.waitForURL(/\/dashboard$/);
  await page.goto("/settings?tab=usuarios");
  const row = page.getByRole("row", { name: new RegExp(admin.email) });
  await row.getByRole("combobox").selectOption("staff");
  await row.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("A clínica precisa de pelo menos um administrador.").first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(admin.email) }).getByRole("combobox")).toHaveValue("admin");
});
