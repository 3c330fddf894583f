import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

function dialog(page: Page) {
  return page.getByRole("dialog");
}

async function search(page: Page, q: string) {
  await page.goto(`/patients?q=${encodeURIComponent(q)}`);
}

test("the list's search box searches as one types from two characters on; one character on Enter", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto("/patients");
  const box = page.getByRole("searchbox", { name: "Buscar pacientes" });
  await box.fill("z");
  // Three times the pause after which typing searches: nothing was sent.
  await page.waitForTimeout(900);
  await expect(page).toHaveURL(/\/patients$/);
  await box.fill("zq");
  await expect(page).toHaveURL(/\/patients\?q=zq$/);
  await expect(box).toHaveValue("zq");
  // Back to one character: the list of 'zq' stays until Enter.
  await box.fill(" z ");
  await page.waitForTimeout(900);
  await expect(page).toHaveURL(/\/patients\?q=zq$/);
  await box.press("Enter");
  await expect(page).toHaveURL(/\/patients\?q=\+?z\+?$/);
  // Emptied, the box searches again as one types: the whole list.
  await box.fill("");
  await expect(page).toHaveURL(/\/patients(\?q=)?$/);
});

test("an admin creates, finds, edits and deletes a patient", async ({ page, signIn }) => {
  const tag = uniqueTag();
  await signIn(page, "admin");
  await page.goto("/patients");
  await page.getByRole("link", { name: "Novo Paciente" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Add New Patient" })).toBeVisible();
  await expect(dialog(page).getByLabel("CPF")).toHaveAttribute("placeholder", "000.000.000-00");
  await expect(dialog(page).getByLabel("Telefone")).toHaveAttribute("placeholder", "(00) 00000-0000");
  await dialog(page).getByLabel("Nome").fill(`Conceição Gonçalves ${tag}`);
  await dialog(page).getByLabel("Telefone").fill("11987654321");
  await dialog(page).getByLabel("E-mail").fill(`conceicao.${tag}@exemplo.com.br`);
  await dialog(page).getByLabel("Convênio").fill("Unimed");
  await dialog(page).getByRole("button", { name: "Cadastrar paciente" }).click();
  await expectToast(page, "Patient created successfully");
  await expect(dialog(page)).toHaveCount(0);

  // Found by an unaccented, lower-case fragment.
  await page.getByRole("searchbox", { name: "Buscar pacientes" }).fill(`conceicao goncalves ${tag}`);
  await page.getByRole("searchbox", { name: "Buscar pacientes" }).press("Enter");
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("(11) 98765-4321");
  await expect(row).toContainText("Unimed");
  await expect(row.getByRole("cell").nth(1)).toHaveText("-"); // no CPF

  await row.getByRole("link", { name: /Editar/ }).click();
  await expect(dialog(page).getByRole("heading", { name: "Edit Patient" })).toBeVisible();
  await dialog(page).getByLabel("Convênio").fill("Bradesco Saúde");
  await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Patient updated successfully");
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("Bradesco Saúde");

  await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Excluir/ }).click();
  await expect(dialog(page)).toContainText("Are you sure you want to delete this patient?");
  await dialog(page).getByRole("button", { name: "Excluir" }).click();
  await expectToast(page, "Patient deleted successfully");
  await search(page, tag);
  await expect(page.getByText("No patients found")).toBeVisible();
});

test("a CPF is found with or without punctuation; invalid and duplicate CPFs are refused", async ({ page, signIn }) => {
  const tag = uniqueTag();
  // A valid CPF unique to this run: 9 random digits plus their check digits.
  const base = String(Date.now()).slice(-9);
  const digits = base.split("").map(Number);
  const check = (ds: number[]) => {
    const sum = ds.reduce((acc, d, i) => acc + d * (ds.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  digits.push(check(digits));
  digits.push(check(digits));
  const cpf = digits.join("");
  const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

  await signIn(page, "staff");
  await page.goto("/patients?dialog=new");
  await dialog(page).getByLabel("Nome").fill(`Paciente CPF ${tag}`);
  await dialog(page).getByLabel("CPF").fill("123.456.789-00");
  await dialog(page).getByRole("button", { name: "Cadastrar paciente" }).click();
  await expect(dialog(page).getByText("CPF inválido")).toBeVisible();

  await dialog(page).getByLabel("CPF").fill(formatted);
  await dialog(page).getByRole("button", { name: "Cadastrar paciente" }).click();
  await expectToast(page, "Patient created successfully");

  for (const q of [formatted, cpf]) {
    await search(page, q);
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText(formatted);
  }

  await page.goto("/patients?dialog=new");
  await dialog(page).getByLabel("Nome").fill(`Outro Paciente ${tag}`);
  await dialog(page).getByLabel("CPF").fill(cpf);
  await dialog(page).getByRole("button", { name: "Cadastrar paciente" }).click();
  await expect(dialog(page).getByText(`Este CPF já está cadastrado para Paciente CPF ${tag}.`)).toBeVisible();
  // Nothing typed is lost.
  await expect(dialog(page).getByLabel("Nome")).toHaveValue(`Outro Paciente ${tag}`);
  await search(page, `Outro Paciente ${tag}`);
  await expect(page.getByText("No patients found")).toBeVisible();
});

test("staff may edit but not delete: a forged delete gets 403 and the row stays", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const id = insertPatient(db, `Protegido ${tag}`);
  await signIn(page, "staff");
  await search(page, tag);
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row.getByRole("link", { name: /Editar/ })).toBeVisible();
  await expect(row.getByRole("link", { name: /Excluir/ })).toHaveCount(0);
  expect((await page.goto(`/patients?delete=${id}`))?.status()).toBe(403);

  const forged = await forgePost(page, "/patients", { intent: "delete", id: String(id) });
  expect(forged.status()).toBe(403);
  expect(db.prepare("select count(*) as n from patients where id = ?").get(id)).toEqual({ n: 1 });
  db.close();
});

test("a doctor only views: no create, edit or delete controls, and forged writes get 403", async ({ page, signIn }) => {
  await signIn(page, "doctor");
  await page.goto("/patients");
  await expect(page.getByRole("link", { name: "Novo Paciente" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Actions" })).toHaveCount(0);
  const forged = await forgePost(page, "/patients", { intent: "create", name: "Intruso" });
  expect(forged.status()).toBe(403);
});

test("bad query strings and unknown ids never break the page", async ({ page, signIn }) => {
  await signIn(page, "admin");
  expect((await page.goto("/patients?page=-3&sort=drop&dir=sideways&q=%25%27"))?.status()).toBe(200);
  expect((await page.goto("/patients?edit=abc"))?.status()).toBe(404);
  expect((await page.goto("/patients?edit=999999999"))?.status()).toBe(404);
  await expect(page.getByText("Paciente não encontrado.")).toBeVisible();
});

test("pagination over 1 000 patients", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  db.transaction(() => {
    for (let i = 0; i < 1000; i++) insertPatient(db, `Lote ${tag} ${String(i).padStart(4, "0")}`);
  }).immediate();
  db.close();

  await signIn(page, "admin");
  await search(page, `lote ${tag}`);
  await expect(page.getByText("1.000 registros")).toBeVisible();
  await expect(page.getByText("Página 1 de 40")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${tag} 0000`) })).toBeVisible();
  await page.getByRole("link", { name: /Próxima/ }).click();
  await expect(page.getByText("Página 2 de 40")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${tag} 0025`) })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${tag} 0000`) })).toHaveCount(0);
  await page.goto(`/patients?q=lote+${tag}&page=40`);
  await expect(page.getByRole("row", { name: new RegExp(`${tag} 0999`) })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${tag} 0975`) })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a patient is created, and bad input keeps the dialog with the message", async ({ page, signIn }) => {
    const tag = uniqueTag();
    await signIn(page, "staff");
    await page.goto("/patients");
    await page.getByRole("link", { name: "Novo Paciente" }).click();
    await dialog(page).getByLabel("Nome").fill(`Sem Script ${tag}`);
    await dialog(page).getByLabel("E-mail").fill("invalido@");
    await dialog(page).getByRole("button", { name: "Cadastrar paciente" }).click();
    await expect(dialog(page).getByText("E-mail inválido")).toBeVisible();
    await expect(dialog(page).getByLabel("Nome")).toHaveValue(`Sem Script ${tag}`);
    await dialog(page).getByLabel("E-mail").fill(`sem.script.${tag}@exemplo.com`);
    await dialog(page).getByRole("button", { name: "Cadastrar paciente" }).click();
    await expectToast(page, "Patient created successfully");
    await search(page, `sem script ${tag}`);
    await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText(`sem.script.${tag}@exemplo.com`);
  });
});

/** A patient with an appointment: the delete is refused, and the dialog says why. */
function patientWithHistory(tag: string) {
  const db = openTestDb();
  const patientId = insertPatient(db, `Com Histórico ${tag}`);
  const doctorId = insertDoctor(db, `Dra. Histórico ${tag}`);
  const start = Date.parse("2031-05-05T12:00:00Z");
  db.prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, type, status) values (?, ?, ?, ?, 'Consulta', 'scheduled')").run(
    patientId,
    doctorId,
    start,
    start + 30 * 60_000,
  );
  return { db, patientId };
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("a refused delete shows its reason in the dialog and keeps the patient", async ({ page, signIn }) => {
      const tag = uniqueTag();
      const { db, patientId } = patientWithHistory(tag);
      await signIn(page, "admin");
      await search(page, tag);
      await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Excluir/ }).click();
      await dialog(page).getByRole("button", { name: "Excluir" }).click();
      await expect(dialog(page).getByRole("alert")).toHaveText(
        `Não é possível excluir Com Histórico ${tag}: há 1 consulta e 0 cirurgias ligadas a este paciente.`,
      );
      expect(db.prepare("select count(*) as n from patients where id = ?").get(patientId)).toEqual({ n: 1 });
      db.close();
    });
  });
}

test("an admin exports the searched list as CSV for Excel; staff see no export", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  insertPatient(db, `Exporta Um ${tag}`, { phone: "11987654321" });
  insertPatient(db, `Exporta Dois ${tag}`);
  db.close();
  await signIn(page, "admin");
  await search(page, tag);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exportar CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^pacientes-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await import("node:fs")).readFileSync((await download.path())!, "utf8");
  expect(text.startsWith("\uFEFFNome;CPF;")).toBe(true);
  const lines = text.trim().split("\r\n");
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(`Exporta Dois ${tag}`);
  expect(lines[2]).toContain(`Exporta Um ${tag};;;(11) 98765-4321`);

  await signIn(page, "staff");
  await page.goto("/patients");
  await expect(page.getByRole("link", { name: "Exportar CSV" })).toHaveCount(0);
  expect((await page.request.get("/patients/export.csv", { failOnStatusCode: false })).status()).toBe(403);
});
