import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { type TestDb, insertDoctor, insertHospital, insertPatient, insertPayer, openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

function dialog(page: Page) {
  return page.getByRole("dialog");
}

/** Patient, doctor, hospital and payer rows written straight into the server's database. */
function insertFixtures(db: TestDb, tag: string) {
  const names = {
    patient: `Joana Conceição ${tag}`,
    doctor: `Dr. Ícaro Lemos ${tag}`,
    hospital: `Hospital Santa Luzia ${tag}`,
    payer: `Bradesco Saúde ${tag}`,
  };
  const ids = {
    patient: insertPatient(db, names.patient),
    doctor: insertDoctor(db, names.doctor),
    hospital: insertHospital(db, names.hospital),
    payer: insertPayer(db, names.payer),
  };
  return { names, ids };
}

function insertSurgery(db: TestDb, fixtures: ReturnType<typeof insertFixtures>, surgeryType: string, stage: string) {
  const id = Number(
    db
      .prepare(
        "insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage) values (?, ?, ?, ?, 'scheduled', ?)",
      )
      .run(fixtures.ids.patient, fixtures.ids.doctor, surgeryType, Date.UTC(2026, 8, 1, 11, 0), stage).lastInsertRowid,
  );
  db.prepare("insert into pipeline_stages (surgery_id, stage) values (?, ?)").run(id, stage);
  return id;
}

/** Types in a picker's combobox (JavaScript fetches the matches as you type) and chooses the option. */
async function pick(page: Page, label: "Paciente" | "Médico", query: string, optionText: string) {
  // The text box appears once the page is hydrated (before, the no-JS select carries the name).
  const combobox = dialog(page).getByRole("combobox", { name: label, exact: true }).and(dialog(page).locator("input"));
  await combobox.fill(query);
  const option = dialog(page).getByRole("option", { name: optionText });
  await expect(option).toHaveCount(1);
  const optionLabel = (await option.textContent()) ?? optionText;
  await option.click();
  await expect(combobox).toHaveValue(optionLabel);
}

test("an admin schedules a surgery with the pickers, finds it, moves its stage and deletes it", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const { names } = insertFixtures(db, tag);

  await signIn(page, "admin");
  await page.goto("/surgeries");
  await page.getByRole("link", { name: "Nova Cirurgia" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Add New Surgery" })).toBeVisible();

  // Bad input: Portuguese field messages, nothing typed is lost.
  await dialog(page).getByLabel("Tipo de cirurgia").fill(`Artrodese lombar ${tag}`);
  await dialog(page).getByRole("button", { name: "Agendar cirurgia" }).click();
  await expect(dialog(page).getByText("Selecione o paciente")).toBeVisible();
  await expect(dialog(page).getByText("Selecione o médico")).toBeVisible();
  await expect(dialog(page).getByText("Informe a data e a hora da cirurgia")).toBeVisible();
  await expect(dialog(page).getByLabel("Tipo de cirurgia")).toHaveValue(`Artrodese lombar ${tag}`);

  // The pickers search without accents: "joana conceicao" finds "Joana Conceição".
  await pick(page, "Paciente", `joana conceicao ${tag}`, names.patient);
  await pick(page, "Médico", `icaro ${tag}`, names.doctor);
  await dialog(page).getByLabel("Data e hora").fill("2026-07-15T08:30");
  await dialog(page).getByLabel("Duração estimada (min)").fill("150");
  await expect(dialog(page).getByLabel("Status")).toHaveValue("scheduled");
  await expect(dialog(page).getByLabel("Etapa")).toHaveValue("aguarda_docs");
  // 'Nome do hospital' only appears for 'Outro' when JavaScript runs.
  await expect(dialog(page).getByLabel("Nome do hospital")).toHaveCount(0);
  await dialog(page).getByLabel("Hospital", { exact: true }).selectOption({ label: names.hospital });
  await dialog(page).getByLabel("Pagador", { exact: true }).selectOption({ label: names.payer });
  await dialog(page).getByLabel("Número da guia").fill(`G-${tag}`);
  await dialog(page).getByLabel("Valor faturado (R$)").fill("1.234,56");
  await dialog(page).getByRole("button", { name: "Agendar cirurgia" }).click();
  await expectToast(page, "Surgery created successfully");
  await expect(dialog(page)).toHaveCount(0);

  const searchBox = page.getByRole("searchbox", { name: "Buscar cirurgias" });
  await searchBox.fill(`G-${tag}`);
  await searchBox.press("Enter");
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toHaveCount(1);
  const cells = row.getByRole("cell");
  await expect(cells.nth(0)).toHaveText(names.patient);
  await expect(cells.nth(1)).toHaveText(names.doctor);
  await expect(cells.nth(2)).toHaveText(`Artrodese lombar ${tag}`);
  await expect(cells.nth(3)).toHaveText("15/07/2026 08:30");
  await expect(cells.nth(4)).toHaveText("Agendada");
  await expect(cells.nth(5)).toHaveText(names.hospital);
  await expect(cells.nth(6)).toHaveText(names.payer);
  await expect(cells.nth(7)).toHaveText("Aguarda Docs");

  const surgery = db.prepare("select * from surgeries where guide_number = ?").get(`G-${tag}`) as Record<string, unknown>;
  expect(surgery).toMatchObject({ billed_amount_cents: 123456, estimated_duration_min: 150, scheduled_date: Date.UTC(2026, 6, 15, 11, 30) });

  // Edit: the dialog shows what was saved; moving to Concluído completes the surgery.
  await row.getByRole("link", { name: /Editar/ }).click();
  await expect(dialog(page).getByRole("heading", { name: "Edit Surgery" })).toBeVisible();
  await expect(dialog(page).getByLabel("Valor faturado (R$)")).toHaveValue("1234,56");
  await expect(dialog(page).getByLabel("Data e hora")).toHaveValue("2026-07-15T08:30");
  await expect(dialog(page).getByRole("combobox", { name: "Paciente", exact: true })).toHaveValue(names.patient);
  await expect(dialog(page).locator('input[name="patientId"]')).toHaveValue(String(surgery.patient_id));
  await dialog(page).getByLabel("Etapa").selectOption({ label: "Aprovado" });
  await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Surgery updated successfully");
  await expect(row.getByRole("cell").nth(7)).toHaveText("Aprovado");

  await row.getByRole("link", { name: /Editar/ }).click();
  await dialog(page).getByLabel("Etapa").selectOption({ label: "Concluído" });
  await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
  await expect(row.getByRole("cell").nth(7)).toHaveText("Concluído");
  await expect(row.getByRole("cell").nth(4)).toHaveText("Concluída");
  const moves = db.prepare("select from_stage, stage from pipeline_stages where surgery_id = ? order by id").all(surgery.id);
  expect(moves).toEqual([
    { from_stage: null, stage: "aguarda_docs" },
    { from_stage: "aguarda_docs", stage: "aprovado" },
    { from_stage: "aprovado", stage: "concluido" },
  ]);

  await row.getByRole("link", { name: /Excluir/ }).click();
  await expect(dialog(page)).toContainText("Are you sure you want to delete this surgery?");
  await dialog(page).getByRole("button", { name: "Excluir" }).click();
  await expectToast(page, "Surgery deleted successfully");
  await expect(page.getByText("No surgeries scheduled")).toBeVisible();
  expect(db.prepare("select count(*) as n from surgeries where id = ?").get(surgery.id)).toEqual({ n: 0 });
  expect(db.prepare("select count(*) as n from pipeline_stages where surgery_id = ?").get(surgery.id)).toEqual({ n: 0 });
  db.close();
});

test("/surgeries?stage=aprovado lists only that stage; the filters follow the URL", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const fixtures = insertFixtures(db, tag);
  insertSurgery(db, fixtures, `Aprovada ${tag}`, "aprovado");
  insertSurgery(db, fixtures, `Pendente ${tag}`, "aguarda_docs");
  db.close();

  await signIn(page, "staff");
  await page.goto(`/surgeries?stage=aprovado&q=${tag}`);
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toHaveCount(1);
  await expect(page.getByRole("row", { name: new RegExp(`Aprovada ${tag}`) })).toHaveCount(1);
  await expect(page.getByRole("combobox", { name: "Etapa" })).toHaveValue("aprovado");

  // Choosing another stage applies at once.
  await page.getByRole("combobox", { name: "Etapa" }).selectOption({ label: "Aguarda Docs" });
  await expect(page).toHaveURL(/stage=aguarda_docs/);
  await expect(page.getByRole("row", { name: new RegExp(`Pendente ${tag}`) })).toHaveCount(1);
  await expect(page.getByRole("row", { name: new RegExp(`Aprovada ${tag}`) })).toHaveCount(0);

  await page.goto(`/surgeries?stage=em_cirurgia&q=${tag}`);
  await expect(page.getByText("No surgeries scheduled")).toBeVisible();

  // An unknown stage (a hand-edited link) is ignored, not an error.
  const response = await page.goto(`/surgeries?stage=bogus&status=x&doctor=abc&q=${tag}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toHaveCount(2);
});

test("staff edit but cannot delete: no delete button, a forged delete gets 403 and the row stays", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const fixtures = insertFixtures(db, tag);
  const id = insertSurgery(db, fixtures, `Protegida ${tag}`, "aguarda_docs");

  await signIn(page, "staff");
  await page.goto(`/surgeries?q=${tag}`);
  const row = page.getByRole("row", { name: new RegExp(tag) });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Nova Cirurgia" })).toBeVisible();
  await expect(row.getByRole("link", { name: /Editar/ })).toBeVisible();
  await expect(row.getByRole("link", { name: /Excluir/ })).toHaveCount(0);
  expect((await page.goto(`/surgeries?delete=${id}`))?.status()).toBe(403);

  const forged = await forgePost(page, "/surgeries", { intent: "delete", id: String(id) });
  expect(forged.status()).toBe(403);
  expect(db.prepare("select surgery_type from surgeries where id = ?").get(id)).toEqual({ surgery_type: `Protegida ${tag}` });

  // A forged create naming a patient that does not exist is a 400 with the field message, never a 500.
  const unknown = await forgePost(page, "/surgeries", {
    intent: "create",
    patientId: "999999999",
    doctorId: String(fixtures.ids.doctor),
    surgeryType: `Fantasma ${tag}`,
    scheduledDate: "2026-07-01T08:00",
  });
  expect(unknown.status()).toBe(400);
  expect(await unknown.text()).toContain("Paciente não encontrado");
  expect(db.prepare("select count(*) as n from surgeries where surgery_type = ?").get(`Fantasma ${tag}`)).toEqual({ n: 0 });
  db.close();
});

test("a surgery with money attached cannot be deleted; the admin is told why", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const fixtures = insertFixtures(db, tag);
  const id = insertSurgery(db, fixtures, `Faturada ${tag}`, "concluido");
  db.prepare("update surgeries set receivable_status = 'faturado' where id = ?").run(id);
  const message = "Não é possível excluir esta cirurgia: ela já foi faturada. Para tirá-la da agenda, mova-a para a etapa Cancelado.";

  await signIn(page, "admin");
  await page.goto(`/surgeries?q=${tag}`);
  await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Excluir/ }).click();
  await expect(dialog(page).getByText(message)).toBeVisible();
  await expect(dialog(page).getByRole("button", { name: "Excluir" })).toHaveCount(0);

  const forced = await forgePost(page, `/surgeries?delete=${id}`, { intent: "delete", id: String(id) });
  expect(forced.status()).toBe(400);
  expect(await forced.text()).toContain(message);
  expect(db.prepare("select count(*) as n from surgeries where id = ?").get(id)).toEqual({ n: 1 });
  db.close();
});

test("bad query strings and unknown ids never break the page", async ({ page, signIn }) => {
  await signIn(page, "admin");
  expect((await page.goto("/surgeries?page=-3&sort=drop&dir=sideways&q=%25%27&stage=%00"))?.status()).toBe(200);
  expect((await page.goto("/surgeries?edit=abc"))?.status()).toBe(404);
  expect((await page.goto("/surgeries?delete=999999999"))?.status()).toBe(404);
  await expect(page.getByText("Cirurgia não encontrada.")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin schedules a surgery: 'Buscar' reloads the picker and keeps what was typed", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const { names } = insertFixtures(db, tag);

    await signIn(page, "admin");
    await page.goto(`/surgeries?stage=agendado`);
    await page.getByRole("link", { name: "Nova Cirurgia" }).click();
    await expect(dialog(page).getByRole("heading", { name: "Add New Surgery" })).toBeVisible();

    await dialog(page).getByLabel("Tipo de cirurgia").fill(`Microdiscectomia ${tag}`);
    await dialog(page).getByLabel("Data e hora").fill("2026-08-20T14:00");
    await dialog(page).getByLabel("Etapa").selectOption({ label: "Agendado" });
    await dialog(page).getByRole("searchbox", { name: "Buscar paciente" }).fill(`conceicao ${tag}`);
    await dialog(page).getByRole("button", { name: "Buscar" }).first().click();

    // The server answered the search; the dialog is still open with everything typed.
    await expect(dialog(page).getByRole("heading", { name: "Add New Surgery" })).toBeVisible();
    await expect(dialog(page).getByLabel("Tipo de cirurgia")).toHaveValue(`Microdiscectomia ${tag}`);
    await expect(dialog(page).getByLabel("Data e hora")).toHaveValue("2026-08-20T14:00");
    await expect(dialog(page).getByLabel("Etapa")).toHaveValue("agendado");
    await expect(dialog(page).getByRole("searchbox", { name: "Buscar paciente" })).toHaveValue(`conceicao ${tag}`);
    const patientSelect = dialog(page).getByRole("combobox", { name: "Paciente", exact: true });
    await expect(patientSelect.locator("option")).toHaveCount(2);
    await patientSelect.selectOption({ index: 1 });

    await dialog(page).getByRole("searchbox", { name: "Buscar médico" }).fill(`lemos ${tag}`);
    await dialog(page).getByRole("button", { name: "Buscar" }).nth(1).click();
    await expect(patientSelect).toHaveValue(/\d+/);
    const doctorSelect = dialog(page).getByRole("combobox", { name: "Médico", exact: true });
    await expect(doctorSelect.locator("option")).toHaveCount(2);
    await doctorSelect.selectOption({ index: 1 });

    // Without JavaScript the 'Outro' name field is always there.
    await dialog(page).getByLabel("Hospital", { exact: true }).selectOption({ label: "Outro (digitar o nome)" });
    await dialog(page).getByLabel("Nome do hospital").fill(`Hospital Externo ${tag}`);
    await dialog(page).getByLabel("Pagador", { exact: true }).selectOption({ label: names.payer });
    await dialog(page).getByRole("button", { name: "Agendar cirurgia" }).click();

    await expect(dialog(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/surgeries\?stage=agendado$/);
    await page.goto(`/surgeries?q=${tag}`);
    const row = page.getByRole("row", { name: new RegExp(tag) });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("cell").nth(0)).toHaveText(names.patient);
    await expect(row.getByRole("cell").nth(1)).toHaveText(names.doctor);
    await expect(row.getByRole("cell").nth(3)).toHaveText("20/08/2026 14:00");
    await expect(row.getByRole("cell").nth(5)).toHaveText(`Hospital Externo ${tag}`);
    await expect(row.getByRole("cell").nth(6)).toHaveText(names.payer);
    await expect(row.getByRole("cell").nth(7)).toHaveText("Agendado");
    expect(db.prepare("select hospital_id, payer_name from surgeries where surgery_type = ?").get(`Microdiscectomia ${tag}`)).toEqual({
      hospital_id: null,
      payer_name: names.payer,
    });
    db.close();
  });
});
