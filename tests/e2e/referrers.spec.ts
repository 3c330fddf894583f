import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { type TestDb, insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

test.describe.configure({ timeout: 120_000 });

function dialog(page: Page) {
  return page.getByRole("dialog");
}

test("an admin creates a referrer, links a patient and sees the count", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  insertPatient(db, `Paciente Encaminhada ${tag}`);
  await signIn(page, "admin");
  await page.goto("/referrers");
  await page.getByRole("link", { name: "Novo Encaminhador" }).click();
  await dialog(page).getByLabel("Nome").fill(`Dra. Lúcia ${tag}`);
  await dialog(page).getByLabel("Taxa de comissão (0 a 1)").fill("0.055");
  await dialog(page).getByRole("button", { name: "Cadastrar encaminhador" }).click();
  await expect(dialog(page).getByText(/em passos de 0,01/)).toBeVisible();
  await dialog(page).getByLabel("Taxa de comissão (0 a 1)").fill("0.05");
  await dialog(page).getByRole("textbox", { name: "CRM", exact: true }).fill("76543");
  await dialog(page).getByLabel("UF do CRM").selectOption("SP");
  await dialog(page).getByRole("button", { name: "Cadastrar encaminhador" }).click();
  await expectToast(page, "Encaminhador criado");

  await page.goto(`/referrers?q=lucia+${tag}`);
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toContainText("CRM/SP 76543");
  await expect(row).toContainText("5%");
  await row.getByRole("link", { name: `Dra. Lúcia ${tag}`, exact: true }).click();
  await expect(dialog(page).getByText("Nenhum paciente vinculado a este encaminhador.")).toBeVisible();
  const picker = dialog(page).getByRole("combobox", { name: "Paciente" });
  await picker.fill(`Encaminhada ${tag}`);
  await dialog(page).getByRole("option", { name: new RegExp(tag) }).click();
  await dialog(page).getByRole("button", { name: "Vincular paciente" }).click();
  await expectToast(page, "Paciente vinculado ao encaminhador");
  await expect(dialog(page).getByRole("listitem").filter({ hasText: `Paciente Encaminhada ${tag}` })).toHaveCount(1);
  await page.goto(`/referrers?q=lucia+${tag}`);
  await expect(page.getByRole("row", { name: new RegExp(tag) }).getByRole("cell").nth(4)).toHaveText("1");
});

/** A referrer who sent `n` patients (registered in that order), straight into the database. */
function referrerWithPatients(db: TestDb, tag: string, n: number) {
  const now = Date.now();
  const name = `Dr. Ortopedista ${tag}`;
  const referrerId = Number(
    db.prepare("insert into referrers (name, search_text, created_at, updated_at) values (?, ?, ?, ?)").run(name, `dr ortopedista ${tag}`, now, now).lastInsertRowid,
  );
  const link = db.prepare("insert into patient_referrals (patient_id, referrer_id, created_at, updated_at) values (?, ?, ?, ?)");
  for (let i = 1; i <= n; i++) link.run(insertPatient(db, `${i % 10 === 0 ? "Quitéria" : "Paciente"} Enviada ${i} ${tag}`), referrerId, now, now);
  return { referrerId, name };
}

async function pageThroughReferredPatients(page: Page, tag: string) {
  await expect(dialog(page).getByText("25 pacientes encaminhados, os mais recentes primeiro")).toBeVisible();
  const items = dialog(page).getByRole("listitem");
  await expect(items).toHaveCount(20);
  await expect(items.first()).toHaveText(new RegExp(`^Paciente Enviada 25 ${tag}`));
  await dialog(page).getByRole("link", { name: "Mais antigos" }).click();
  await expect(items).toHaveCount(5);
  await expect(items.last()).toHaveText(new RegExp(`^Paciente Enviada 1 ${tag}`));
  await expect(dialog(page).getByText("Mais antigos")).toHaveAttribute("aria-disabled", "true");
  await dialog(page).getByRole("link", { name: "Mais recentes" }).click();
  await expect(items).toHaveCount(20);
  await expect(items.first()).toHaveText(new RegExp(`^Paciente Enviada 25 ${tag}`));
  const search = dialog(page).getByRole("searchbox", { name: "Buscar entre os pacientes encaminhados" });
  await search.fill("quiteria");
  await search.press("Enter");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toHaveText(new RegExp(`^Quitéria Enviada 20 ${tag}`));
  await search.fill("ninguem assim");
  await search.press("Enter");
  await expect(dialog(page).getByText("Nenhum paciente encaminhado corresponde à busca.")).toBeVisible();
}

test("a referrer's many patients: pages of the latest first, and a search among them", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const { referrerId } = referrerWithPatients(openTestDb(), tag, 25);
  await signIn(page, "admin");
  await page.goto(`/referrers?q=ortopedista+${tag}`);
  await expect(page.getByRole("row", { name: new RegExp(tag) }).getByRole("cell").nth(4)).toHaveText("25");
  await page.goto(`/referrers?q=ortopedista+${tag}&view=${referrerId}`);
  await pageThroughReferredPatients(page, tag);
  // A cursor that is not an id is ignored, not an error.
  const response = await page.goto(`/referrers?view=${referrerId}&referredBefore=abc&referredAfter=-1`);
  expect(response?.status()).toBe(200);
  await expect(dialog(page).getByRole("listitem")).toHaveCount(20);
});

test("staff sees referrers without controls; a forged create gets 403", async ({ page, signIn }) => {
  const db = openTestDb();
  await signIn(page, "staff");
  await page.goto("/referrers");
  await expect(page.getByRole("table", { name: "Encaminhadores" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Novo Encaminhador" })).toHaveCount(0);
  const name = `Forjado ${uniqueTag()}`;
  const response = await forgePost(page, "/referrers", { intent: "create", name });
  expect(response.status()).toBe(403);
  expect((db.prepare("select count(*) as n from referrers where name = ?").get(name) as { n: number }).n).toBe(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a referrer's many patients are paged and searched; closing keeps the period", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const { referrerId } = referrerWithPatients(openTestDb(), tag, 25);
    await signIn(page, "staff");
    await page.goto(`/referrers?view=${referrerId}&from=2000-01-01&to=2000-12-31`);
    await pageThroughReferredPatients(page, tag);
    await dialog(page).getByRole("link", { name: "Fechar" }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(page.getByLabel("Cirurgias pagas de")).toHaveValue("2000-01-01");
    await expect(page.getByLabel("até", { exact: true })).toHaveValue("2000-12-31");
  });

  test("an admin creates a referrer; the commission defaults to 0", async ({ page, signIn }) => {
    const tag = uniqueTag();
    await signIn(page, "admin");
    await page.goto("/referrers?dialog=new");
    await dialog(page).getByLabel("Nome").fill(`Dr. Sem Script ${tag}`);
    await dialog(page).getByLabel("Taxa de comissão (0 a 1)").fill("");
    await dialog(page).getByLabel("E-mail").fill("invalido");
    await dialog(page).getByRole("button", { name: "Cadastrar encaminhador" }).click();
    await expect(dialog(page).getByText("E-mail inválido")).toBeVisible();
    await dialog(page).getByLabel("E-mail").fill(`sem.script.${tag}@clinica.com.br`);
    await dialog(page).getByRole("button", { name: "Cadastrar encaminhador" }).click();
    await expect(dialog(page)).toHaveCount(0);
    await page.goto(`/referrers?q=${tag}`);
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("0%");
  });
});
