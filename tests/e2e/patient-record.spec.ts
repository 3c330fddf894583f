import { expect, test } from "./fixtures";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";

/** A patient with `n` appointments one day apart (newest last) and one surgery in the OPME stage. */
function patientWithHistory(n: number) {
  const tag = uniqueTag();
  const db = openTestDb();
  const patientId = insertPatient(db, `Prontuário ${tag}`, { phone: "11987654321" });
  const doctorId = insertDoctor(db, `Dr. Linha ${tag}`);
  const day = 24 * 60 * 60 * 1000;
  const start = Date.UTC(2025, 0, 6, 13, 0);
  const insert = db.prepare(
    "insert into appointments (patient_id, doctor_id, start_time, end_time, type) values (?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(patientId, doctorId, start + i * day, start + i * day + 1_800_000, `Consulta nº ${i + 1}`);
  }).immediate();
  db.prepare(
    "insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, current_stage) values (?, ?, 'Microdiscectomia', ?, 'opme_cotacao')",
  ).run(patientId, doctorId, start + (n + 5) * day);
  const views = () =>
    (db.prepare("select count(*) as n from audit_log where action = 'view' and entity = 'patient' and entity_id = ?").get(String(patientId)) as { n: number }).n;
  return { tag, patientId, views, close: () => db.close() };
}

test("the record shows the patient, pages the timeline newest first and logs each view", async ({ page, signIn }) => {
  const fixture = patientWithHistory(30);
  await signIn(page, "staff");
  await page.goto(`/patients?q=${fixture.tag}`);
  await page.getByRole("link", { name: `Prontuário ${fixture.tag}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/patients/${fixture.patientId}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Prontuário ${fixture.tag}` })).toBeVisible();
  await expect(page.getByText("(11) 98765-4321")).toBeVisible();
  expect(fixture.views()).toBe(1);

  const items = page.getByTestId("timeline-item");
  await expect(items).toHaveCount(25);
  await expect(items.first()).toContainText("Microdiscectomia");
  await expect(items.first()).toContainText("Etapa: OPME em Cotação");
  await expect(items.nth(1)).toContainText("Consulta nº 30");
  await expect(page.getByTestId("timeline-counts")).toContainText("30 consultas · 1 cirurgias");

  await page.getByRole("link", { name: "Mais antigos" }).click();
  await expect(items).toHaveCount(6);
  await expect(items.first()).toContainText("Consulta nº 6");
  await expect(items.last()).toContainText("Consulta nº 1");
  await expect(page.getByRole("link", { name: "Mais antigos" })).toHaveCount(0);
  await page.getByRole("link", { name: "Mais recentes" }).click();
  await expect(items.first()).toContainText("Microdiscectomia");
  expect(fixture.views()).toBe(3);
  fixture.close();
});

test("'Agendar consulta' opens the appointment dialog with the patient chosen and comes back to the record", async ({ page, signIn }) => {
  const fixture = patientWithHistory(1);
  await signIn(page, "staff");
  await page.goto(`/patients/${fixture.patientId}`);
  await page.getByRole("link", { name: "Agendar consulta" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Add New Appointment" })).toBeVisible();
  await expect(dialog.getByRole("combobox", { name: "Paciente", exact: true })).toHaveValue(`Prontuário ${fixture.tag}`);
  await expect(dialog.locator('input[name="patientId"]')).toHaveValue(String(fixture.patientId));
  await dialog.getByRole("link", { name: "Cancelar" }).click();
  await expect(page).toHaveURL(new RegExp(`/patients/${fixture.patientId}$`));

  await page.getByRole("link", { name: "Agendar cirurgia" }).click();
  await expect(page.getByRole("dialog").getByRole("heading", { name: "Add New Surgery" })).toBeVisible();
  await expect(page.getByRole("dialog").getByRole("combobox", { name: "Paciente", exact: true })).toHaveValue(`Prontuário ${fixture.tag}`);
  fixture.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the record and its timeline pages work as plain links", async ({ page, signIn }) => {
    const fixture = patientWithHistory(26);
    await signIn(page, "doctor");
    await page.goto(`/patients/${fixture.patientId}`);
    await expect(page.getByRole("heading", { level: 1, name: `Prontuário ${fixture.tag}` })).toBeVisible();
    // A doctor may read but not book or edit.
    await expect(page.getByRole("link", { name: "Agendar consulta" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Editar cadastro" })).toHaveCount(0);
    await page.getByRole("link", { name: "Mais antigos" }).click();
    await expect(page.getByTestId("timeline-item")).toHaveCount(2);
    await expect(page.getByTestId("timeline-item").last()).toContainText("Consulta nº 1");
    fixture.close();
  });

  test("an unknown patient is a 404", async ({ page, signIn }) => {
    await signIn(page, "staff");
    const response = await page.goto("/patients/987654321");
    expect(response?.status()).toBe(404);
  });
});
