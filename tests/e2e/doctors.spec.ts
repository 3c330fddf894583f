import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { type TestDb, insertDoctor, insertPatient, openTestDb, uniqueCrm, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

function dialog(page: Page) {
  return page.getByRole("dialog");
}

async function search(page: Page, q: string) {
  await page.goto(`/doctors?q=${encodeURIComponent(q)}`);
}

/** A doctor written straight into the server's database, as the model would store it. */
function addDoctor(db: TestDb, name: string) {
  return insertDoctor(db, name, { commissionRate: 0.1 });
}

function doctorCount(db: TestDb, where: string, ...args: unknown[]) {
  return (db.prepare(`select count(*) as n from doctors where ${where}`).get(...args) as { n: number }).n;
}

test("an admin creates, finds, edits and deletes a doctor", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const crm = uniqueCrm();
  await signIn(page, "admin");
  await page.goto("/doctors");
  await page.getByRole("link", { name: "Novo Médico" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Add New Doctor" })).toBeVisible();

  // Bad input: field messages in Portuguese, nothing typed is lost.
  await dialog(page).getByLabel("Nome").fill(`Dr. Ênio Araújo ${tag}`);
  await dialog(page).getByLabel("Taxa de comissão").fill("1.5");
  await dialog(page).getByRole("button", { name: "Cadastrar médico" }).click();
  await expect(dialog(page).getByText("Informe a especialidade")).toBeVisible();
  await expect(dialog(page).getByText("Informe o CRM")).toBeVisible();
  await expect(dialog(page).getByText("A comissão não pode passar de 1 (100%)")).toBeVisible();
  await expect(dialog(page).getByLabel("Nome")).toHaveValue(`Dr. Ênio Araújo ${tag}`);

  await dialog(page).getByLabel("Especialidade").fill("Neurocirurgia Funcional");
  await dialog(page).getByRole("textbox", { name: "CRM", exact: true }).fill(crm);
  await dialog(page).getByLabel("UF do CRM").selectOption("SP");
  await dialog(page).getByLabel("Telefone").fill("11987654321");
  await dialog(page).getByLabel("E-mail").fill(`enio.${tag}@clinica.com.br`);
  await dialog(page).getByLabel("Taxa de comissão").fill("0.15");
  await expect(dialog(page).getByTestId("commission-percent")).toHaveText("Equivale a 15%.");
  await expect(dialog(page).getByLabel("Ativo")).toBeChecked();
  await dialog(page).getByRole("button", { name: "Cadastrar médico" }).click();
  await expectToast(page, "Doctor created successfully");
  await expect(dialog(page)).toHaveCount(0);

  // Found by an unaccented, lower-case fragment.
  const searchBox = page.getByRole("searchbox", { name: "Buscar médicos" });
  await searchBox.fill(`enio araujo ${tag}`);
  await searchBox.press("Enter");
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toHaveCount(1);
  const cells = row.getByRole("cell");
  await expect(cells.nth(0)).toHaveText(`Dr. Ênio Araújo ${tag}`);
  await expect(cells.nth(1)).toHaveText("Neurocirurgia Funcional");
  await expect(cells.nth(2)).toHaveText(`CRM/SP ${crm}`);
  await expect(cells.nth(3)).toHaveText("(11) 98765-4321");
  await expect(cells.nth(4)).toHaveText(`enio.${tag}@clinica.com.br`);
  await expect(cells.nth(5)).toHaveText("15%");
  await expect(cells.nth(6)).toHaveText("Ativo");

  // The specialty and the CRM find it too.
  await search(page, `funcional`);
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toHaveCount(1);
  await search(page, crm);
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toHaveCount(1);

  await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Editar/ }).click();
  await expect(dialog(page).getByRole("heading", { name: "Edit Doctor" })).toBeVisible();
  await expect(dialog(page).getByLabel("Taxa de comissão")).toHaveValue("0.15");
  await dialog(page).getByLabel("Especialidade").fill("Coluna");
  await dialog(page).getByLabel("Taxa de comissão").fill("0.2");
  await dialog(page).getByLabel("Ativo").uncheck();
  await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Doctor updated successfully");
  const edited = page.getByRole("row", { name: new RegExp(tag) });
  await expect(edited.getByRole("cell").nth(1)).toHaveText("Coluna");
  await expect(edited.getByRole("cell").nth(5)).toHaveText("20%");
  await expect(edited.getByRole("cell").nth(6)).toHaveText("Inativo");

  await edited.getByRole("link", { name: /Excluir/ }).click();
  await expect(dialog(page)).toContainText("Are you sure you want to delete this doctor?");
  await dialog(page).getByRole("button", { name: "Excluir" }).click();
  await expectToast(page, "Doctor deleted successfully");
  await search(page, tag);
  await expect(page.getByText("No doctors found")).toBeVisible();

  const db = openTestDb();
  expect(doctorCount(db, "crm = ?", crm)).toBe(0);
  // The creation names the doctor; the deletion keeps nothing of the record, only its id (ADR 0011).
  const created = db
    .prepare("select entity_id as id from audit_log where entity = 'doctor' and action = 'create' and changes like ?")
    .all(`%${tag}%`) as { id: number }[];
  expect(created).toHaveLength(1);
  const actions = (db.prepare("select action from audit_log where entity = 'doctor' and entity_id = ? order by id").all(created[0].id) as { action: string }[]).map((a) => a.action);
  expect(actions[0]).toBe("create");
  expect(actions.at(-1)).toBe("delete");
  expect(actions.filter((a) => a === "delete")).toHaveLength(1);
  db.close();
});

test("staff view and search only: no controls, and forged writes get 403 with the table unchanged", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const id = addDoctor(db, `Dra. Protegida ${tag}`);

  await signIn(page, "staff");
  await search(page, `protegida ${tag}`);
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Novo Médico" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Ações" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Excluir|Editar/ })).toHaveCount(0);
  expect((await page.goto("/doctors?dialog=new"))?.status()).toBe(403);
  expect((await page.goto(`/doctors?edit=${id}`))?.status()).toBe(403);

  const created = await forgePost(page, "/doctors", {
    intent: "create",
    name: `Dr. Intruso ${tag}`,
    specialty: "Clínica",
    crm: uniqueCrm(),
    commissionRate: "0.5",
    active: "on",
  });
  expect(created.status()).toBe(403);
  expect(doctorCount(db, "name = ?", `Dr. Intruso ${tag}`)).toBe(0);

  const deleted = await forgePost(page, "/doctors", { intent: "delete", id: String(id) });
  expect(deleted.status()).toBe(403);
  const updated = await forgePost(page, "/doctors", { intent: "update", id: String(id), name: "Mudado", specialty: "X", crm: "1" });
  expect(updated.status()).toBe(403);
  expect(db.prepare("select name from doctors where id = ?").get(id)).toEqual({ name: `Dra. Protegida ${tag}` });
  db.close();
});

test("a doctor with an appointment cannot be deleted; the admin is told why and offered to deactivate", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const doctorId = addDoctor(db, `Dr. Ocupado ${tag}`);
  const patientId = insertPatient(db, `Paciente ${tag}`);
  const start = Date.UTC(2026, 5, 1, 13, 0);
  db.prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, type) values (?, ?, ?, ?, 'Consulta')").run(
    patientId,
    doctorId,
    start,
    start + 30 * 60_000,
  );
  const message = `Não é possível excluir Dr. Ocupado ${tag}: há 1 consulta ligada a este médico. Marque-o como inativo.`;

  await signIn(page, "admin");
  await search(page, tag);
  await page.getByRole("row", { name: new RegExp(`Ocupado ${tag}`) }).getByRole("link", { name: /Excluir/ }).click();
  await expect(dialog(page).getByText(message)).toBeVisible();
  await expect(dialog(page).getByRole("button", { name: "Excluir" })).toHaveCount(0);

  // A delete posted anyway is refused with the same message, not a 500.
  const forced = await forgePost(page, `/doctors?delete=${doctorId}`, { intent: "delete", id: String(doctorId) });
  expect(forced.status()).toBe(400);
  expect(await forced.text()).toContain(message);
  expect(doctorCount(db, "id = ?", doctorId)).toBe(1);

  // The suggested way out: edit and mark as inactive.
  await dialog(page).getByRole("link", { name: "Editar e marcar como inativo" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Edit Doctor" })).toBeVisible();
  await dialog(page).getByLabel("Ativo").uncheck();
  await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Doctor updated successfully");
  await expect(page.getByRole("row", { name: new RegExp(`Ocupado ${tag}`) }).getByRole("cell").nth(6)).toHaveText("Inativo");
  expect(db.prepare("select active from doctors where id = ?").get(doctorId)).toEqual({ active: 0 });
  db.close();
});

test("bad query strings and unknown ids never break the page", async ({ page, signIn }) => {
  await signIn(page, "admin");
  expect((await page.goto("/doctors?page=-3&sort=drop&dir=sideways&q=%25%27"))?.status()).toBe(200);
  expect((await page.goto("/doctors?edit=abc"))?.status()).toBe(404);
  expect((await page.goto("/doctors?delete=999999999"))?.status()).toBe(404);
  await expect(page.getByText("Médico não encontrado.")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin creates a doctor, and bad input keeps the dialog with the message", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const crm = uniqueCrm();
    await signIn(page, "admin");
    await page.goto("/doctors");
    await page.getByRole("link", { name: "Novo Médico" }).click();
    await expect(dialog(page).getByRole("heading", { name: "Add New Doctor" })).toBeVisible();
    await dialog(page).getByLabel("Especialidade").fill("Neurologia");
    await dialog(page).getByRole("textbox", { name: "CRM", exact: true }).fill(crm);
    await dialog(page).getByRole("button", { name: "Cadastrar médico" }).click();
    await expect(dialog(page).getByText("Informe o nome do médico")).toBeVisible();
    await expect(dialog(page).getByRole("textbox", { name: "CRM", exact: true })).toHaveValue(crm);
    await expect(dialog(page).getByLabel("Especialidade")).toHaveValue("Neurologia");

    await dialog(page).getByLabel("Nome").fill(`Dra. Sem Script ${tag}`);
    await dialog(page).getByLabel("UF do CRM").selectOption("RJ");
    await dialog(page).getByLabel("Taxa de comissão").fill("0.07");
    await dialog(page).getByRole("button", { name: "Cadastrar médico" }).click();
    await expectToast(page, "Doctor created successfully");
    await search(page, `sem script ${tag}`);
    const row = page.getByRole("row", { name: new RegExp(tag) });
    await expect(row).toContainText(`CRM/RJ ${crm}`);
    await expect(row).toContainText("7%");
    await expect(row).toContainText("Ativo");
  });
});
