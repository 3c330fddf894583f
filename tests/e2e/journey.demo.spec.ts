import { type Locator, type Page, expect, test } from "@playwright/test";
import { openTestDb } from "./db";
import { expectToast, login } from "./helpers";

/**
 * The "done when", on the demo data set, with the server's clock in Tokyo: a staff member
 * finds a patient by an unaccented fragment, books them without clashing, sees the appointment on
 * Day/Week/Month, schedules their surgery, and the dashboard's numbers match the rows behind them.
 */
test.describe.configure({ mode: "serial" });

/** A São Paulo calendar date `days` from today, as YYYY-MM-DD (far enough ahead to be free in the demo agenda). */
function saoPauloDate(days: number) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date(Date.now() + days * 86_400_000));
}

/** Types part of a name in the picker's combobox and picks the one match, as a person would. */
async function choose(dialog: Locator, label: "Paciente" | "Médico", query: string, name: string) {
  // The text box appears once the page is hydrated (before, the no-JS select carries the name).
  const combobox = dialog.getByRole("combobox", { name: label, exact: true }).and(dialog.locator("input"));
  await combobox.fill(query);
  const option = dialog.getByRole("option", { name });
  await expect(option).toHaveCount(1);
  await option.click();
  // The combobox shows the chosen name (a patient's CPF follows it).
  await expect(combobox).toHaveValue(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
}

function statValue(page: Page, title: string) {
  return page
    .locator('.card')
    .filter({ has: page.locator('.card-title').getByText(title, { exact: true }) })
    .locator("div", { hasText: /^[\d.]+$/ })
    .first();
}

const day = saoPauloDate(120);
const doctor = "Dr. Ricardo Almeida Figueiredo";
let patient = "";

test.beforeEach(async ({ page }) => {
  await login(page, "equipe@sinapse.demo", "demo12345");
  await page.waitForURL(/\/dashboard$/);
});

test("a staff member finds a patient by an unaccented fragment", async ({ page }) => {
  await page.goto("/patients?q=conceicao");
  const first = page.getByRole("row").nth(1);
  patient = (await first.getByRole("cell").first().textContent())!.trim();
  expect(patient).toMatch(/Conceição/);
});

test("they book the patient with a doctor, and a clashing booking is refused", async ({ page }) => {
  await page.goto("/appointments?dialog=new");
  const dialog = page.getByRole("dialog", { name: "Add New Appointment" });
  await choose(dialog, "Paciente", "conceicao", patient);
  await choose(dialog, "Médico", "figueiredo", doctor);
  await dialog.getByLabel("Início").fill(`${day}T10:00`);
  await dialog.getByLabel("Término").fill(`${day}T10:30`);
  await dialog.getByLabel("Tipo").fill("Primeira consulta");
  await dialog.getByRole("button", { name: "Agendar consulta" }).click();
  await expectToast(page, "Appointment created successfully");

  // Another patient, same doctor, overlapping time: refused, naming the clash.
  await page.goto("/appointments?dialog=new");
  const clash = page.getByRole("dialog", { name: "Add New Appointment" });
  await choose(clash, "Paciente", "araujo", "Aparecida Prudêncio Araújo");
  await choose(clash, "Médico", "figueiredo", doctor);
  await clash.getByLabel("Início").fill(`${day}T10:15`);
  await clash.getByLabel("Término").fill(`${day}T10:45`);
  await clash.getByLabel("Tipo").fill("Retorno");
  await clash.getByRole("button", { name: "Agendar consulta" }).click();
  await expect(clash.getByText(`${doctor} já tem consulta das 10:00 às 10:30`)).toBeVisible();
});

test("the appointment shows on the Day, Week and Month views at 10:00 São Paulo time", async ({ page }) => {
  await page.goto(`/schedule?view=day&date=${day}`);
  await expect(page.getByRole("main")).toContainText(patient);
  await expect(page.getByRole("main")).toContainText("10:00");
  await page.goto(`/schedule?view=week&date=${day}`);
  await expect(page.getByRole("main")).toContainText(patient);
  await page.goto(`/schedule?view=month&date=${day}`);
  await expect(page.getByRole("main")).toContainText(patient);
});

test("they schedule the patient's surgery", async ({ page }) => {
  await page.goto("/surgeries?dialog=new");
  const dialog = page.getByRole("dialog", { name: "Add New Surgery" });
  await choose(dialog, "Paciente", "conceicao", patient);
  await choose(dialog, "Médico", "figueiredo", doctor);
  await dialog.getByLabel("Tipo de cirurgia").fill("Microdiscectomia lombar");
  await dialog.getByLabel("Data e hora").fill(`${saoPauloDate(127)}T07:30`);
  await dialog.getByRole("button", { name: "Agendar cirurgia" }).click();
  await expectToast(page, "Surgery created successfully");
  await page.goto(`/surgeries?q=${encodeURIComponent(patient)}`);
  await expect(page.getByRole("row").filter({ hasText: "Microdiscectomia lombar" })).toContainText("07:30");
});

test("the dashboard's counts are the rows in the database", async ({ page }) => {
  const db = openTestDb("demo");
  const count = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  const expected = { patients: count("patients"), appointments: count("appointments"), surgeries: count("surgeries") };
  db.close();
  await page.goto("/dashboard");
  const pt = (n: number) => n.toLocaleString("pt-BR");
  await expect(statValue(page, "Total Pacientes")).toHaveText(pt(expected.patients));
  await expect(statValue(page, "Consultas")).toHaveText(pt(expected.appointments));
  await expect(statValue(page, "Cirurgias")).toHaveText(pt(expected.surgeries));
});
