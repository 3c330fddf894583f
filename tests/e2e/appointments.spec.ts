import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

/**
 * Each test makes its own patients and doctors (unique names), since tests of several files share
 * the server's database. Instants are stored as epoch ms; São Paulo is UTC-3 in the dates used.
 */
function fixtures() {
  const tag = uniqueTag();
  const db = openTestDb("app");
  const addPatient = (name: string) => insertPatient(db, name);
  const addDoctor = (name: string) => insertDoctor(db, name, { crm: "123456" });
  const addAppointment = (patientId: number, doctorId: number, startUtc: string, endUtc: string) =>
    Number(
      db
        .prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, type, status) values (?, ?, ?, ?, 'Retorno', 'scheduled')")
        .run(patientId, doctorId, Date.parse(startUtc), Date.parse(endUtc)).lastInsertRowid,
    );
  const appointmentsOf = (patientId: number) =>
    db.prepare("select id, doctor_id, start_time, end_time, status, type, created_by from appointments where patient_id = ?").all(patientId) as {
      id: number;
      doctor_id: number;
      start_time: number;
      end_time: number;
      status: string;
      type: string;
      created_by: number | null;
    }[];
  return { tag, db, addPatient, addDoctor, addAppointment, appointmentsOf };
}

/** Types in a picker's combobox (it searches as you type, with JavaScript) and chooses the match. */
async function pick(page: Page, label: "Paciente" | "Médico", query: string, option: string) {
  const dialog = page.getByRole("dialog");
  // The text box appears once the page is hydrated (before, the no-JS select carries the name).
  const combobox = dialog.getByRole("combobox", { name: label, exact: true }).and(dialog.locator("input"));
  await combobox.fill(query);
  await dialog.getByRole("option", { name: option, exact: true }).click();
  await expect(combobox).toHaveValue(option);
}

/** The patient chosen in a dialog: the name its combobox shows and the id the form posts. */
async function expectPatientPicked(dialog: Locator, name: string, id: number) {
  await expect(dialog.getByRole("combobox", { name: "Paciente", exact: true })).toHaveValue(name);
  await expect(dialog.locator('input[name="patientId"]')).toHaveValue(String(id));
}

async function searchList(page: Page, text: string) {
  await page.getByLabel("Buscar consultas").fill(text);
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(text)}`));
}

test("admin creates, edits and deletes an appointment through the dialog and the pickers", async ({ page, signIn }) => {
  const { tag, db, addPatient, addDoctor, appointmentsOf } = fixtures();
  const patientName = `Conceição Ábaco ${tag}`;
  const doctorName = `Dr. Ricardo Figueiredo ${tag}`;
  const patientId = addPatient(patientName);
  addDoctor(doctorName);

  await signIn(page, "admin");
  await page.goto("/appointments");
  await expect(page.getByRole("heading", { name: "Consultas" }).first()).toBeVisible();
  await page.getByRole("link", { name: "Nova Consulta" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Appointment" });
  await expect(dialog).toBeVisible();

  // Unaccented, lower-case part of the name finds the accented patient.
  await pick(page, "Paciente", `conceicao abaco ${tag}`, patientName);
  await pick(page, "Médico", `figueiredo ${tag}`, `${doctorName} · Neurocirurgia`);
  await dialog.getByLabel("Início").fill("2030-05-14T14:00");
  await dialog.getByLabel("Término").fill("2030-05-14T14:30");
  await dialog.getByLabel("Tipo").fill("Primeira consulta");
  await dialog.getByLabel("Local").fill("Consultório 3");
  await expect(dialog.getByLabel("Status")).toHaveValue("scheduled");
  await dialog.getByRole("button", { name: "Agendar consulta" }).click();

  await expectToast(page, "Appointment created successfully");
  await expect(dialog).toBeHidden();
  const [stored] = appointmentsOf(patientId);
  expect(new Date(stored.start_time).toISOString()).toBe("2030-05-14T17:00:00.000Z");
  expect(new Date(stored.end_time).toISOString()).toBe("2030-05-14T17:30:00.000Z");
  expect(stored.created_by).not.toBeNull();

  await searchList(page, tag);
  const row = page.getByRole("row").filter({ hasText: patientName });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(0)).toHaveText("mai 14, 2030");
  await expect(row.getByRole("cell").nth(1)).toHaveText("14:00–14:30");
  await expect(row).toContainText(doctorName);
  await expect(row).toContainText("Primeira consulta");
  await expect(row).toContainText("Consultório 3");
  await expect(row.getByText("Agendada")).toBeVisible();

  // Edit: the dialog opens with the stored São Paulo times.
  await row.getByRole("link", { name: `Editar consulta de ${patientName}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Appointment" });
  await expect(edit.getByLabel("Início")).toHaveValue("2030-05-14T14:00");
  await expectPatientPicked(edit, patientName, patientId);
  await edit.getByLabel("Término").fill("2030-05-14T15:00");
  await edit.getByLabel("Status").selectOption("confirmed");
  await edit.getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Appointment updated successfully");
  await expect(row.getByRole("cell").nth(1)).toHaveText("14:00–15:00");
  await expect(row.getByText("Confirmada")).toBeVisible();
  expect(appointmentsOf(patientId)[0].status).toBe("confirmed");

  // Delete, after confirming.
  await row.getByRole("link", { name: `Excluir consulta de ${patientName}` }).click();
  const confirm = page.getByRole("dialog", { name: "Excluir consulta" });
  await expect(confirm).toContainText("Are you sure you want to delete this appointment?");
  await confirm.getByRole("button", { name: "Excluir" }).click();
  await expectToast(page, "Appointment deleted successfully");
  await expect(page.getByText("No appointments found")).toBeVisible();
  expect(appointmentsOf(patientId)).toEqual([]);
  db.close();
});

test("a doctor cannot be double-booked: the clash is named and nothing typed is lost", async ({ page, signIn }) => {
  const { tag, db, addPatient, addDoctor, addAppointment, appointmentsOf } = fixtures();
  const doctorName = `Dr. Duplo ${tag}`;
  const doctorId = addDoctor(doctorName);
  addAppointment(addPatient(`Maria da Silva ${tag}`), doctorId, "2030-11-22T17:00:00Z", "2030-11-22T17:30:00Z");
  const patientName = `Pedro Segundo ${tag}`;
  const patientId = addPatient(patientName);

  await signIn(page, "staff");
  await page.goto("/appointments?dialog=new");
  const dialog = page.getByRole("dialog", { name: "Add New Appointment" });
  await pick(page, "Paciente", `pedro segundo ${tag}`, patientName);
  await pick(page, "Médico", `duplo ${tag}`, `${doctorName} · Neurocirurgia`);
  // A field error re-renders the form; the choices found by searching stay chosen.
  await dialog.getByLabel("Tipo").focus();
  await dialog.getByLabel("Tipo").blur();
  await expect(dialog.getByText("Informe o tipo de consulta")).toBeVisible();
  await expectPatientPicked(dialog, patientName, patientId);
  await dialog.getByLabel("Início").fill("2030-11-22T14:15");
  await dialog.getByLabel("Término").fill("2030-11-22T14:45");
  await dialog.getByLabel("Tipo").fill("Retorno");
  await dialog.getByLabel("Observações").fill("Paciente pediu horário da tarde");
  await dialog.getByRole("button", { name: "Agendar consulta" }).click();

  const message = `${doctorName} já tem consulta das 14:00 às 14:30 de 22/11/2030 com Maria da Silva ${tag}.`;
  await expect(dialog.getByText(message)).toBeVisible();
  await expectToast(page, message);
  await expect(dialog.getByLabel("Observações")).toHaveValue("Paciente pediu horário da tarde");
  await expectPatientPicked(dialog, patientName, patientId);
  expect(appointmentsOf(patientId)).toEqual([]);

  // Right after the other one ends is fine.
  await dialog.getByLabel("Início").fill("2030-11-22T14:30");
  await dialog.getByLabel("Término").fill("2030-11-22T15:00");
  await dialog.getByRole("button", { name: "Agendar consulta" }).click();
  await expectToast(page, "Appointment created successfully");
  expect(appointmentsOf(patientId).map((a) => new Date(a.start_time).toISOString())).toEqual(["2030-11-22T17:30:00.000Z"]);
  db.close();
});

test("staff cannot delete: no button, and a forged delete is refused with 403", async ({ page, signIn }) => {
  const { tag, db, addPatient, addDoctor, addAppointment, appointmentsOf } = fixtures();
  const patientName = `Sem Exclusão ${tag}`;
  const patientId = addPatient(patientName);
  const doctorId = addDoctor(`Dra. Filtro ${tag}`);
  const id = addAppointment(patientId, doctorId, "2030-07-01T12:00:00Z", "2030-07-01T12:30:00Z");
  addAppointment(addPatient(`Outro Médico ${tag}`), addDoctor(`Dr. Outro ${tag}`), "2030-07-01T12:00:00Z", "2030-07-01T12:30:00Z");

  await signIn(page, "staff");
  await page.goto(`/appointments?q=${tag}`);
  await expect(page.getByRole("row")).toHaveCount(3); // header + 2
  // The doctor filter narrows the list.
  await page.getByRole("combobox", { name: "Médico", exact: true }).selectOption({ label: `Dra. Filtro ${tag}` });
  await expect(page).toHaveURL(new RegExp(`doctor=${doctorId}`));
  await expect(page.getByRole("row")).toHaveCount(2);
  const row = page.getByRole("row").filter({ hasText: patientName });
  await expect(row.getByRole("cell").nth(1)).toHaveText("09:00–09:30");
  await expect(row.getByRole("link", { name: `Editar consulta de ${patientName}` })).toBeVisible();
  await expect(page.getByRole("link", { name: /Excluir consulta/ })).toHaveCount(0);

  const direct = await page.goto(`/appointments?delete=${id}`);
  expect(direct?.status()).toBe(403);
  const forged = await forgePost(page, "/appointments", { intent: "delete", id: String(id) });
  expect(forged.status()).toBe(403);
  expect(appointmentsOf(patientId)).toHaveLength(1);
  db.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an appointment is created using the pickers' 'Buscar' round trips", async ({ page, signIn }) => {
    const { tag, db, addPatient, addDoctor, appointmentsOf } = fixtures();
    const patientName = `Inês Araújo ${tag}`;
    const doctorName = `Dra. Sem Script ${tag}`;
    const patientId = addPatient(patientName);
    addDoctor(doctorName);

    await signIn(page, "admin");
    await page.goto("/appointments");
    await page.getByRole("link", { name: "Nova Consulta" }).click();
    let dialog = page.getByRole("dialog", { name: "Add New Appointment" });
    await dialog.getByLabel("Tipo").fill("Teleconsulta");
    await dialog.getByLabel("Início").fill("2030-08-05T08:00");
    await dialog.getByLabel("Buscar paciente").fill(`ines araujo ${tag}`);
    await dialog.getByRole("button", { name: "Buscar" }).first().click();

    // The server answered the search and kept what was typed.
    await expect(page).toHaveURL(/picker=patientId/);
    dialog = page.getByRole("dialog", { name: "Add New Appointment" });
    await expect(dialog.getByLabel("Tipo")).toHaveValue("Teleconsulta");
    await expect(dialog.getByLabel("Início")).toHaveValue("2030-08-05T08:00");
    await dialog.getByRole("combobox", { name: "Paciente", exact: true }).selectOption({ label: patientName });

    await dialog.getByLabel("Buscar médico").fill(`sem script ${tag}`);
    await dialog.getByRole("button", { name: "Buscar" }).nth(1).click();
    dialog = page.getByRole("dialog", { name: "Add New Appointment" });
    await expect(dialog.getByRole("combobox", { name: "Paciente", exact: true })).toHaveValue(String(patientId));
    await dialog.getByRole("combobox", { name: "Médico", exact: true }).selectOption({ label: `${doctorName} · Neurocirurgia` });
    await dialog.getByLabel("Término").fill("2030-08-05T08:40");
    await dialog.getByRole("button", { name: "Agendar consulta" }).click();

    await expect(page).toHaveURL(/\/appointments$/);
    await expectToast(page, "Appointment created successfully");
    const [stored] = appointmentsOf(patientId);
    expect(stored).toMatchObject({ type: "Teleconsulta", status: "scheduled", start_time: Date.parse("2030-08-05T11:00:00Z") });

    await page.goto(`/appointments?q=${tag}`);
    const row = page.getByRole("row").filter({ hasText: patientName });
    await expect(row.getByRole("cell").nth(1)).toHaveText("08:00–08:40");
    db.close();
  });
});
