import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { todayIsoInClinic } from "../../app/lib/dates";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

/**
 * Fixtures go straight into the app server's database, on dates in November 2026, for one
 * doctor of our own: the tests filter by that doctor wherever they count entries, because
 * other test files add appointments to the same database at the same time.
 */
const tag = uniqueTag();
const names = {
  doctor: `Dr. Agenda ${tag}`,
  late: `Paciente Noite ${tag}`,
  early: `Paciente Madrugada ${tag}`,
  busy: `Paciente Cheio ${tag}`,
};
const ids = { doctor: 0, late: 0, early: 0, busy: [] as number[] };

test.beforeAll(() => {
  const db = openTestDb("app");
  try {
    const appointment = db.prepare(
      "insert into appointments (patient_id, doctor_id, start_time, end_time, status, type, location) values (?, ?, ?, ?, ?, ?, ?) returning id",
    );
    const idOf = (row: unknown) => (row as { id: number }).id;
    const add = (patientId: number, startUtc: string, endUtc: string, status = "scheduled", type = "Retorno", location = "Sala 7") =>
      idOf(appointment.get(patientId, ids.doctor, Date.parse(startUtc), Date.parse(endUtc), status, type, location));

    ids.doctor = insertDoctor(db, names.doctor, { crm: "CRM-SP 99999" });
    const late = insertPatient(db, names.late);
    const early = insertPatient(db, names.early);
    const busy = insertPatient(db, names.busy);
    // Sunday 22 Nov 2026, 23:30–23:59 in São Paulo = Monday 23 Nov, 02:30–02:59 UTC.
    ids.late = add(late, "2026-11-23T02:30:00Z", "2026-11-23T02:59:00Z", "scheduled", "Primeira consulta", "Consultório 3");
    // Monday 23 Nov 2026, 00:15–00:45 in São Paulo = 03:15 UTC, confirmed.
    ids.early = add(early, "2026-11-23T03:15:00Z", "2026-11-23T03:45:00Z", "confirmed");
    // Five on Tuesday 10 Nov 2026, 08:00 to 12:00 in São Paulo.
    for (const hour of [11, 12, 8, 10, 9]) {
      ids.busy.push(add(busy, `2026-11-10T${hour + 3}:00:00Z`, `2026-11-10T${hour + 3}:30:00Z`));
    }
  } finally {
    db.close();
  }
});

const heading = (page: Page) => page.getByTestId("schedule-period");
/** The schedule's appointments: the day view's rows, the week's and the month's lines. */
const ENTRIES = ".day-entry, .schedule-entry";
const entry = (scope: Page | ReturnType<Page["locator"]>, name: string) => scope.locator(ENTRIES).filter({ hasText: name });

test("Day shows the appointment at its São Paulo time with details and status, linked to its edit dialog", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto("/schedule?view=day&date=2026-11-22");
  await expect(heading(page)).toHaveText("domingo, 22 de novembro de 2026");
  await expect(page.getByRole("navigation", { name: "Visualização da agenda" }).getByRole("link", { name: "Dia" })).toHaveAttribute("aria-current", "page");

  const late = entry(page, names.late);
  await expect(late).toContainText("23:30–23:59");
  await expect(late).toContainText(names.doctor);
  await expect(late).toContainText("Primeira consulta");
  await expect(late).toContainText("Consultório 3");
  await expect(late.getByText("Agendada", { exact: true })).toHaveClass(/\bbadge-info\b/);
  // The time opens the appointment's edit dialog; the name opens the patient's record.
  await expect(late.getByRole("link", { name: "23:30–23:59" })).toHaveAttribute("href", new RegExp(`^/appointments\\?edit=${ids.late}&returnTo=%2Fschedule`));
  await expect(late.getByRole("link", { name: names.late })).toHaveAttribute("href", /^\/patients\/\d+$/);
  // 00:15 on the 23rd belongs to the next day, not to the 22nd.
  await expect(entry(page, names.early)).toHaveCount(0);

  // The edit dialog opened from here comes back here when saved.
  await late.getByRole("link", { name: "23:30–23:59" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Appointment" });
  await dialog.getByLabel("Local").fill("Consultório 4");
  await dialog.getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Appointment updated successfully");
  await expect(page).toHaveURL(/\/schedule\?view=day&date=2026-11-22$/);
  await expect(entry(page, names.late)).toContainText("Consultório 4");

  await page.goto("/schedule?view=day&date=2026-11-23");
  await expect(heading(page)).toHaveText("segunda-feira, 23 de novembro de 2026");
  await expect(entry(page, names.late)).toHaveCount(0);
  const early = entry(page, names.early);
  await expect(early).toContainText("00:15–00:45");
  await expect(early.getByText("Confirmada", { exact: true })).toHaveClass(/\bbadge-success\b/);

  await page.goto(`/schedule?view=day&date=2026-11-24&doctor=${ids.doctor}`);
  await expect(page.getByRole("heading", { name: "Nenhuma consulta neste dia" })).toBeVisible();
});

test("Week shows the seven days with each appointment in its São Paulo column", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto(`/schedule?view=week&date=2026-11-25&doctor=${ids.doctor}`);
  await expect(heading(page)).toHaveText("Semana de 22 a 28 de novembro de 2026");
  const columns = page.locator("section[data-date]");
  await expect(columns).toHaveCount(7);
  await expect(columns.first()).toHaveAttribute("data-date", "2026-11-22");
  await expect(columns.last()).toHaveAttribute("data-date", "2026-11-28");

  const sunday = page.locator('section[data-date="2026-11-22"]');
  const monday = page.locator('section[data-date="2026-11-23"]');
  await expect(sunday.getByRole("heading")).toContainText("dom.");
  await expect(entry(sunday, names.late)).toContainText("23:30–23:59");
  await expect(entry(sunday, names.late)).toContainText(names.doctor);
  await expect(entry(monday, names.late)).toHaveCount(0);
  await expect(entry(monday, names.early)).toContainText("00:15–00:45");
  await expect(page.locator('section[data-date="2026-11-24"]')).toContainText("Sem consultas");
  await expect(sunday.getByRole("link", { name: new RegExp(names.late) })).toHaveAttribute("href", new RegExp(`^/appointments\\?edit=${ids.late}&returnTo=%2Fschedule`));

  // The day heading opens that day.
  await sunday.getByRole("link", { name: "domingo, 22 de novembro de 2026" }).click();
  await expect(page).toHaveURL(`/schedule?view=day&date=2026-11-22&doctor=${ids.doctor}`);
  await expect(heading(page)).toHaveText("domingo, 22 de novembro de 2026");
});

test("Month is a calendar grid; a busy day lists three and links '+N mais' to its Day view", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto(`/schedule?view=month&date=2026-11-10&doctor=${ids.doctor}`);
  await expect(heading(page)).toHaveText("novembro de 2026");
  const grid = page.getByRole("table", { name: "Calendário de novembro de 2026" });
  await expect(grid.getByRole("columnheader")).toHaveText(["dom.", "seg.", "ter.", "qua.", "qui.", "sex.", "sáb."]);
  // 1 Nov 2026 is a Sunday and the 30th a Monday: five weeks, the last ending on 5 December.
  await expect(grid.getByRole("row")).toHaveCount(6);
  await expect(grid.locator("td[data-date]").first()).toHaveAttribute("data-date", "2026-11-01");
  await expect(grid.locator("td[data-date]").last()).toHaveAttribute("data-date", "2026-12-05");
  await expect(grid.locator('td[data-outside="true"]')).toHaveCount(5);
  await expect(grid.locator('td[data-date="2026-11-30"]')).not.toHaveAttribute("data-outside", "true");

  const sunday = grid.locator('td[data-date="2026-11-22"]');
  await expect(entry(sunday, names.late)).toContainText("23:30");
  await expect(entry(grid.locator('td[data-date="2026-11-23"]'), names.late)).toHaveCount(0);
  await expect(entry(grid.locator('td[data-date="2026-11-23"]'), names.early)).toHaveCount(1);

  const busy = grid.locator('td[data-date="2026-11-10"]');
  await expect(busy.locator(ENTRIES)).toHaveCount(3);
  await expect(busy.locator(ENTRIES)).toHaveText([/^08:00/, /^09:00/, /^10:00/]);
  await expect(busy.getByRole("link", { name: `08:00 ${names.busy}` })).toHaveAttribute("href", new RegExp(`^/appointments\\?edit=${ids.busy[2]}&returnTo=%2Fschedule`));
  await busy.getByRole("link", { name: /\+2 mais/ }).click();
  await expect(page).toHaveURL(`/schedule?view=day&date=2026-11-10&doctor=${ids.doctor}`);
  await expect(heading(page)).toHaveText("terça-feira, 10 de novembro de 2026");
  await expect(page.locator(ENTRIES)).toHaveCount(5);
  await expect(page.locator(ENTRIES).last()).toContainText("12:00–12:30");

  // Leading days of the previous month are shown (and dimmed) in December.
  await page.goto("/schedule?view=month&date=2026-12-15");
  await expect(page.locator("td[data-date]").first()).toHaveAttribute("data-date", "2026-11-29");
  await expect(page.locator('td[data-date="2026-11-29"]')).toHaveAttribute("data-outside", "true");
});

test("Anterior, Próximo and Hoje move by the view's period; tabs keep the date", async ({ page, signIn }) => {
  await signIn(page, "staff");
  await page.goto("/schedule?view=week&date=2026-11-22");
  const nav = page.getByRole("navigation", { name: "Navegar entre períodos" });
  await nav.getByRole("link", { name: "Próximo" }).click();
  await expect(heading(page)).toHaveText("Semana de 29 de novembro a 5 de dezembro de 2026");
  await nav.getByRole("link", { name: "Anterior" }).click();
  // Each click must land before the next, or the second would follow the stale link.
  await expect(heading(page)).toHaveText("Semana de 22 a 28 de novembro de 2026");
  await nav.getByRole("link", { name: "Anterior" }).click();
  await expect(heading(page)).toHaveText("Semana de 15 a 21 de novembro de 2026");

  await page.getByRole("navigation", { name: "Visualização da agenda" }).getByRole("link", { name: "Mês" }).click();
  await expect(page).toHaveURL("/schedule?view=month&date=2026-11-15");
  await expect(heading(page)).toHaveText("novembro de 2026");
  await nav.getByRole("link", { name: "Próximo" }).click();
  await expect(heading(page)).toHaveText("dezembro de 2026");

  await page.getByRole("navigation", { name: "Visualização da agenda" }).getByRole("link", { name: "Dia" }).click();
  await expect(heading(page)).toHaveText("terça-feira, 15 de dezembro de 2026");
  await nav.getByRole("link", { name: "Anterior" }).click();
  await expect(heading(page)).toHaveText("segunda-feira, 14 de dezembro de 2026");

  await nav.getByRole("link", { name: "Hoje" }).click();
  await expect(page).toHaveURL("/schedule?view=day");
  const today = todayIsoInClinic();
  await page.getByRole("navigation", { name: "Visualização da agenda" }).getByRole("link", { name: "Semana" }).click();
  await expect(page.locator("section[aria-labelledby]").filter({ has: page.locator('[aria-current="date"]') })).toHaveAttribute("data-date", today);
});

test("a doctor sees the entries without the edit link (the name still opens the patient's record)", async ({ page, signIn }) => {
  await signIn(page, "doctor");
  await page.goto("/schedule?view=day&date=2026-11-22");
  await expect(entry(page, names.late)).toContainText("23:30–23:59");
  await expect(entry(page, names.late).getByRole("link", { name: "23:30–23:59" })).toHaveCount(0);
  await expect(entry(page, names.late).getByRole("link")).toHaveAttribute("href", /^\/patients\/\d+$/);
  await expect(page.getByRole("link", { name: "Nova consulta" })).toHaveCount(0);
});

test("bad query strings show this week instead of failing", async ({ page, signIn }) => {
  await signIn(page, "admin");
  const response = await page.goto("/schedule?view=ano&date=2026-02-30&doctor=abc");
  expect(response?.status()).toBe(200);
  await expect(heading(page)).toHaveText(/^Semana de /);
  await expect(page.locator("section[data-date]")).toHaveCount(7);
  await expect(page.locator(`section[data-date="${todayIsoInClinic()}"]`)).toHaveAttribute("data-today", "true");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the doctor filter, tabs and navigation work as plain links and a GET form", async ({ page, signIn }) => {
    await signIn(page, "admin");
    await page.goto("/schedule?view=week&date=2026-11-22");
    await page.getByLabel("Médico").selectOption({ label: names.doctor });
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(`/schedule?view=week&date=2026-11-22&doctor=${ids.doctor}`);
    await expect(page.getByLabel("Médico")).toHaveValue(String(ids.doctor));
    await expect(entry(page.locator('section[data-date="2026-11-22"]'), names.late)).toBeVisible();
    // Only this doctor's appointments are left.
    const doctorsShown = await page.locator(ENTRIES).allTextContents();
    expect(doctorsShown.length).toBeGreaterThan(0);
    for (const text of doctorsShown) expect(text).toContain(names.doctor);

    await page.getByRole("navigation", { name: "Visualização da agenda" }).getByRole("link", { name: "Mês" }).click();
    await expect(page).toHaveURL(`/schedule?view=month&date=2026-11-22&doctor=${ids.doctor}`);
    await expect(page.locator('td[data-date="2026-11-10"]').getByRole("link", { name: /\+2 mais/ })).toBeVisible();
    await page.getByRole("navigation", { name: "Navegar entre períodos" }).getByRole("link", { name: "Anterior" }).click();
    await expect(heading(page)).toHaveText("outubro de 2026");
    await expect(page.getByLabel("Médico")).toHaveValue(String(ids.doctor));
  });
});
