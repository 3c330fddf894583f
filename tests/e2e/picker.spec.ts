import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { buildSearchText } from "../../app/lib/search";
import { openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

/**
 * The patient/doctor picker of the appointment and surgery dialogs: one combobox that searches as
 * you type once JavaScript runs, the server's search box + 'Buscar' + select without it.
 * Each test makes its own rows with a unique tag, since test files share the server's database.
 */
function fixtures() {
  const tag = uniqueTag();
  const db = openTestDb("app");
  const addPatient = (name: string) =>
    Number(db.prepare("insert into patients (name, search_text) values (?, ?)").run(name, buildSearchText(name)).lastInsertRowid);
  const addDoctor = (name: string) =>
    Number(
      db
        .prepare("insert into doctors (name, specialty, crm, search_text) values (?, 'Neurocirurgia', '654321', ?)")
        .run(name, buildSearchText(name, "Neurocirurgia")).lastInsertRowid,
    );
  const appointmentsOf = (patientId: number) =>
    db.prepare("select doctor_id, start_time, type from appointments where patient_id = ?").all(patientId) as {
      doctor_id: number;
      start_time: number;
      type: string;
    }[];
  return { tag, db, addPatient, addDoctor, appointmentsOf };
}

/**
 * The dialog's pickers once the page has hydrated: a page that arrives with the dialog open shows
 * the server's select (the no-JavaScript picker) until its code has loaded, then the combobox.
 */
async function hydratedPickers(dialog: Locator) {
  await expect(dialog.locator('input[role="combobox"]').first()).toBeVisible();
}

async function openNewAppointment(page: Page, { javaScript = true } = {}) {
  await page.goto("/appointments?dialog=new");
  const dialog = page.getByRole("dialog", { name: "Add New Appointment" });
  await expect(dialog).toBeVisible();
  if (javaScript) await hydratedPickers(dialog);
  return dialog;
}

test("the patient and doctor are chosen by keyboard: type, ArrowDown, Enter", async ({ page, signIn }) => {
  const { tag, db, addPatient, addDoctor, appointmentsOf } = fixtures();
  const patientName = `Lúcia Teclado ${tag}`;
  const doctorName = `Dr. Setas ${tag}`;
  const patientId = addPatient(patientName);
  const doctorId = addDoctor(doctorName);
  addPatient(`Lúcia Mouse ${tag}`);

  await signIn(page, "admin");
  const dialog = await openNewAppointment(page);
  const patient = dialog.getByRole("combobox", { name: "Paciente", exact: true });
  await expect(patient).toHaveAttribute("aria-expanded", "false");

  await patient.click();
  await patient.pressSequentially(`lucia tecl ${tag}`);
  await expect(patient).toHaveAttribute("aria-expanded", "true");
  const listbox = dialog.getByRole("listbox", { name: "Paciente" });
  await expect(patient).toHaveAttribute("aria-controls", (await listbox.getAttribute("id"))!);
  const option = listbox.getByRole("option", { name: patientName, exact: true });
  await expect(option).toBeVisible();
  await expect(listbox.getByRole("option")).toHaveCount(1);

  await patient.press("ArrowDown");
  await expect(option).toHaveAttribute("aria-selected", "true");
  await expect(patient).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id"))!);
  await patient.press("Enter");
  await expect(patient).toHaveValue(patientName);
  await expect(patient).toHaveAttribute("aria-expanded", "false");
  await expect(dialog.locator('input[name="patientId"]')).toHaveValue(String(patientId));
  await expect(dialog).toBeVisible();

  // ArrowUp from a fresh search highlights the last match; Enter picks it.
  const doctor = dialog.getByRole("combobox", { name: "Médico", exact: true });
  await doctor.click();
  await doctor.pressSequentially(`setas ${tag}`);
  await expect(dialog.getByRole("option", { name: `${doctorName} · Neurocirurgia` })).toBeVisible();
  await doctor.press("ArrowUp");
  await doctor.press("Enter");
  await expect(doctor).toHaveValue(`${doctorName} · Neurocirurgia`);
  await expect(dialog.locator('input[name="doctorId"]')).toHaveValue(String(doctorId));

  await dialog.getByLabel("Início").fill("2031-03-10T09:00");
  await dialog.getByLabel("Término").fill("2031-03-10T09:30");
  await dialog.getByLabel("Tipo").fill("Retorno");
  await dialog.getByRole("button", { name: "Agendar consulta" }).click();
  await expectToast(page, "Appointment created successfully");

  expect(appointmentsOf(patientId)).toEqual([{ doctor_id: doctorId, start_time: Date.parse("2031-03-10T12:00:00Z"), type: "Retorno" }]);
  await page.goto(`/appointments?q=${tag}`);
  const row = page.getByRole("row").filter({ hasText: patientName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(doctorName);
  db.close();
});

test("Escape closes the list, then undoes the typing, and only then closes the dialog", async ({ page, signIn }) => {
  const { tag, db, addPatient } = fixtures();
  const patientName = `Otávio Escape ${tag}`;
  addPatient(patientName);

  await signIn(page, "admin");
  const dialog = await openNewAppointment(page);
  const patient = dialog.getByRole("combobox", { name: "Paciente", exact: true });
  await patient.fill(`otavio escape ${tag}`);
  await dialog.getByRole("option", { name: patientName }).click();
  await expect(patient).toHaveValue(patientName);

  // A new search, abandoned: the list closes first, the dialog stays.
  await patient.fill("outra busca");
  await expect(patient).toHaveAttribute("aria-expanded", "true");
  await patient.press("Escape");
  await expect(patient).toHaveAttribute("aria-expanded", "false");
  await expect(dialog).toBeVisible();
  await expect(patient).toHaveValue("outra busca");

  // The second Escape puts back the chosen patient; still in the dialog.
  await patient.press("Escape");
  await expect(patient).toHaveValue(patientName);
  await expect(dialog).toBeVisible();

  // Nothing left to undo: Escape closes the dialog as it does from any field.
  await patient.press("Escape");
  await expect(dialog).toBeHidden();
  db.close();
});

test("the list says when it is searching and when nothing matches; leaving the box names the choice", async ({ page, signIn }) => {
  const { tag, db, addPatient } = fixtures();
  const patientName = `Rita Lenta ${tag}`;
  const patientId = addPatient(patientName);

  await signIn(page, "admin");
  const dialog = await openNewAppointment(page);
  const patient = dialog.getByRole("combobox", { name: "Paciente", exact: true });
  const options = dialog.getByRole("listbox", { name: "Paciente" }).getByRole("option");

  // Hold the answer to see the loading state, then let it through.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/patients?*", async (route) => {
    await held;
    await route.continue();
  });
  await patient.fill(`rita lenta ${tag}`);
  await expect(dialog.getByText("Buscando...")).toBeVisible();
  await expect(options).toHaveCount(0);
  release();
  await expect(dialog.getByRole("option", { name: patientName })).toBeVisible();
  await expect(dialog.getByText("Buscando...")).toBeHidden();
  await page.unroute("**/api/patients?*");

  await patient.fill(`ninguem com este nome ${tag}`);
  await expect(dialog.getByText("Nenhum resultado", { exact: true })).toBeVisible();
  await expect(options).toHaveCount(0);

  // Pick by mouse, type over it, leave with Tab: the box goes back to the chosen patient.
  await patient.fill(`rita ${tag}`);
  await dialog.getByRole("option", { name: patientName }).click();
  await patient.fill("algo digitado");
  await patient.press("Tab");
  await expect(patient).toHaveValue(patientName);
  await expect(dialog.locator('input[name="patientId"]')).toHaveValue(String(patientId));

  // Emptying the box and leaving clears the choice, and the required-field message shows.
  await patient.fill("");
  await patient.press("Tab");
  await expect(dialog.locator('input[name="patientId"]')).toHaveValue("");
  await expect(dialog.getByText("Selecione o paciente")).toBeVisible();
  await expect(patient).toHaveAttribute("aria-invalid", "true");
  db.close();
});

test("editing a surgery shows the chosen patient and doctor; a refused save keeps them and shows field errors", async ({ page, signIn }) => {
  const { tag, db, addPatient, addDoctor } = fixtures();
  const patientName = `Célia Cirurgia ${tag}`;
  const doctorName = `Dr. Bisturi ${tag}`;
  addPatient(patientName);
  addDoctor(doctorName);

  await signIn(page, "admin");
  await page.goto("/surgeries?dialog=new");
  const dialog = page.getByRole("dialog", { name: "Add New Surgery" });
  await hydratedPickers(dialog);
  const patient = dialog.getByRole("combobox", { name: "Paciente", exact: true });
  const doctor = dialog.getByRole("combobox", { name: "Médico", exact: true });
  await dialog.getByRole("button", { name: "Agendar cirurgia" }).click();
  await expect(dialog.getByText("Selecione o paciente")).toBeVisible();
  await expect(patient).toHaveAttribute("aria-invalid", "true");

  await patient.fill(`celia ${tag}`);
  await dialog.getByRole("option", { name: patientName }).click();
  await expect(dialog.getByText("Selecione o paciente")).toBeHidden();
  await doctor.fill(`bisturi ${tag}`);
  await dialog.getByRole("option", { name: doctorName }).click();
  await dialog.getByLabel("Tipo de cirurgia").fill(`Laminectomia ${tag}`);
  await dialog.getByLabel("Data e hora").fill("2031-04-02T07:30");
  await dialog.getByRole("button", { name: "Agendar cirurgia" }).click();
  await expectToast(page, "Surgery created successfully");

  await page.goto(`/surgeries?q=${tag}`);
  await page.getByRole("row", { name: new RegExp(tag) }).getByRole("link", { name: /Editar/ }).click();
  const edit = page.getByRole("dialog", { name: "Edit Surgery" });
  await expect(edit.getByRole("combobox", { name: "Paciente", exact: true })).toHaveValue(patientName);
  await expect(edit.getByRole("combobox", { name: "Médico", exact: true })).toHaveValue(`${doctorName} · Neurocirurgia`);
  db.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server's search box, 'Buscar' and select still pick the patient and doctor", async ({ page, signIn }) => {
    const { tag, db, addPatient, addDoctor, appointmentsOf } = fixtures();
    const patientName = `Jorge Sem Script ${tag}`;
    const doctorName = `Dra. Fallback ${tag}`;
    const patientId = addPatient(patientName);
    const doctorId = addDoctor(doctorName);

    await signIn(page, "admin");
    let dialog = await openNewAppointment(page, { javaScript: false });
    // No combobox text box here: the picker is the server's select.
    await expect(dialog.locator('input[role="combobox"]')).toHaveCount(0);
    await dialog.getByLabel("Tipo").fill("Primeira consulta");
    await dialog.getByRole("searchbox", { name: "Buscar paciente" }).fill(`jorge ${tag}`);
    await dialog.getByRole("button", { name: "Buscar" }).first().click();

    dialog = page.getByRole("dialog", { name: "Add New Appointment" });
    await expect(dialog.getByRole("searchbox", { name: "Buscar paciente" })).toHaveValue(`jorge ${tag}`);
    await expect(dialog.getByLabel("Tipo")).toHaveValue("Primeira consulta");
    const patient = dialog.getByRole("combobox", { name: "Paciente", exact: true });
    await expect(patient.locator("option")).toHaveCount(2);
    await patient.selectOption({ label: patientName });

    await dialog.getByRole("searchbox", { name: "Buscar médico" }).fill(`nada encontrado ${tag}`);
    await dialog.getByRole("button", { name: "Buscar" }).nth(1).click();
    const doctor = dialog.getByRole("combobox", { name: "Médico", exact: true });
    await expect(doctor.locator("option")).toHaveText(["Nenhum resultado — refine a busca"]);
    await expect(patient).toHaveValue(String(patientId));

    await dialog.getByRole("searchbox", { name: "Buscar médico" }).fill(`fallback ${tag}`);
    await dialog.getByRole("button", { name: "Buscar" }).nth(1).click();
    await doctor.selectOption({ label: `${doctorName} · Neurocirurgia` });
    await dialog.getByLabel("Início").fill("2031-05-20T16:00");
    await dialog.getByLabel("Término").fill("2031-05-20T16:20");
    await dialog.getByRole("button", { name: "Agendar consulta" }).click();

    await expect(page).toHaveURL(/\/appointments$/);
    expect(appointmentsOf(patientId)).toEqual([
      { doctor_id: doctorId, start_time: Date.parse("2031-05-20T19:00:00Z"), type: "Primeira consulta" },
    ]);
    await page.goto(`/appointments?q=${tag}`);
    const row = page.getByRole("row").filter({ hasText: patientName });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(doctorName);
    db.close();
  });
});
