import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";

test.describe.configure({ timeout: 120_000 });

const figure = (page: Page, label: string) => page.locator("[data-kpi]").filter({ has: page.getByRole("heading", { name: label, exact: true }) });

/** A doctor of this run with three appointments on a day of its own in 2003 (12:00 SP): 2 kept, 1 cancelled. */
function fixtures() {
  const tag = uniqueTag();
  const db = openTestDb();
  const day = new Date(Date.UTC(2003, 0, 1 + Math.floor(Math.random() * 360)));
  const iso = day.toISOString().slice(0, 10);
  const doctorName = `Dra. Indicadores ${tag}`;
  const doctorId = insertDoctor(db, doctorName);
  const patientId = insertPatient(db, `Paciente KPI ${tag}`);
  const start = day.getTime() + 15 * 3_600_000;
  const add = (status: string, offsetMin: number) =>
    db
      .prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, status, type, created_at, updated_at) values (?, ?, ?, ?, ?, 'Consulta', ?, ?)")
      .run(patientId, doctorId, start + offsetMin * 60_000, start + (offsetMin + 30) * 60_000, status, start - 2 * 86_400_000, start - 2 * 86_400_000);
  add("completed", 0);
  add("scheduled", 30);
  add("cancelled", 60);
  db.close();
  return { iso, doctorId, doctorName, br: iso.split("-").reverse().join("/") };
}

test("figures, chart, formula and period change with JavaScript; the admin exports the same numbers", async ({ page, signIn }) => {
  const { iso, doctorId, br } = fixtures();
  await signIn(page, "admin");
  await page.goto(`/kpis/operacionais?periodo=personalizado&de=${iso}&ate=${iso}&medico=${doctorId}`);
  await expect(page.getByText(`Período: ${br}`)).toBeVisible();
  await expect(figure(page, "Consultas").locator("[data-kpi-value]")).toHaveText("2");
  await expect(figure(page, "Taxa de cancelamento").locator("[data-kpi-value]")).toHaveText("33,3%");
  await expect(figure(page, "Antecedência média da marcação").locator("[data-kpi-value]")).toHaveText("2,0 dias");
  await expect(figure(page, "Ocupação da agenda").locator("[data-kpi-value]")).toHaveText("—");

  // The formula shows on keyboard focus.
  const info = figure(page, "Taxa de cancelamento").getByRole("button", { name: /Fórmula/ });
  await info.focus();
  await expect(page.getByRole("tooltip").filter({ hasText: "Consultas canceladas ÷ todas as consultas" })).toBeVisible();

  // The chart is drawn (lazily) over the table, which stays for screen readers.
  const perDay = page.locator("[data-kpi-chart=por-dia]");
  await expect(perDay.locator(".recharts-wrapper > svg.recharts-surface")).toBeVisible();
  await perDay.getByRole("button", { name: "Mostrar tabela" }).click();
  await expect(perDay.getByRole("row", { name: new RegExp(br) })).toContainText("2");

  // The CSV of the table holds the same numbers.
  const href = await perDay.getByRole("link", { name: "Exportar CSV" }).getAttribute("href");
  const csv = await (await page.request.get(href!)).text();
  expect(csv).toContain(`${br};2;1`);

  // Changing the period applies at once and keeps the doctor.
  await page.getByLabel("Período", { exact: true }).selectOption("ano");
  await expect(page).toHaveURL(/periodo=ano/);
  await expect(page).toHaveURL(new RegExp(`medico=${doctorId}`));
  await expect(figure(page, "Consultas").locator("[data-kpi-value]")).toHaveText("0");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter form and the tables work; bad dates get a message; staff has no export", async ({ page, signIn }) => {
    const { iso, doctorId, doctorName, br } = fixtures();
    await signIn(page, "staff");
    await page.goto(`/kpis/operacionais?periodo=personalizado&de=${iso}&ate=${iso}`);
    await page.getByLabel("Médico").selectOption({ label: doctorName });
    await page.getByRole("button", { name: "Aplicar" }).click();
    await expect(page).toHaveURL(new RegExp(`medico=${doctorId}`));
    const table = page.getByRole("table", { name: "Consultas por dia" });
    await expect(table.getByRole("row", { name: new RegExp(br) })).toContainText("2");
    await expect(page.getByRole("table", { name: "Consultas por médico" }).getByRole("row", { name: new RegExp(doctorName) })).toContainText("33,3%");
    await expect(page.getByRole("link", { name: "Exportar CSV" })).toHaveCount(0);
    expect((await page.request.get(`/kpis/operacionais/export.csv?periodo=ano&tabela=por-dia`)).status()).toBe(403);

    await page.goto("/kpis/operacionais?periodo=personalizado&de=2003-02-30&ate=2003-01-01");
    await expect(page.getByText("Data inválida")).toBeVisible();
    await expect(page.getByLabel("Período", { exact: true })).toHaveValue("mes");

    await page.goto("/kpis/metricas?periodo=ano");
    await expect(page.getByRole("heading", { name: "Pacientes novos", exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Taxa de leitura" })).toBeVisible();
  });

  test("the figures' kept markup follows the export right and the next write", async ({ browser, page, signIn }) => {
    const { iso, doctorId } = fixtures();
    const url = `/kpis/operacionais?periodo=personalizado&de=${iso}&ate=${iso}&medico=${doctorId}`;
    // The admin's views keep the report's markup, with its export links.
    await signIn(page, "admin");
    for (let view = 0; view < 2; view++) {
      await page.goto(url);
      await expect(figure(page, "Consultas").locator("[data-kpi-value]")).toHaveText("2");
      await expect(page.locator("[data-kpi-chart=por-dia]").getByRole("link", { name: "Exportar CSV" })).toHaveCount(1);
    }
    // Staff sees the same figures without them.
    const staff = await browser.newPage({ javaScriptEnabled: false });
    await signIn(staff, "staff");
    await staff.goto(url);
    await expect(figure(staff, "Consultas").locator("[data-kpi-value]")).toHaveText("2");
    await expect(staff.getByRole("link", { name: "Exportar CSV" })).toHaveCount(0);
    // A new appointment that day is counted on the next view.
    const db = openTestDb();
    const [{ patient_id: patientId, start_time: start }] = db
      .prepare("select patient_id, start_time from appointments where doctor_id = ? order by start_time limit 1")
      .all(doctorId) as { patient_id: number; start_time: number }[];
    db.prepare("insert into appointments (patient_id, doctor_id, start_time, end_time, status, type, created_at, updated_at) values (?, ?, ?, ?, 'completed', 'Consulta', ?, ?)")
      .run(patientId, doctorId, start + 120 * 60_000, start + 150 * 60_000, start - 86_400_000, start - 86_400_000);
    db.close();
    await page.goto(url);
    await expect(figure(page, "Consultas").locator("[data-kpi-value]")).toHaveText("3");
    await expect(figure(page, "Taxa de cancelamento").locator("[data-kpi-value]")).toHaveText("25,0%");
    await staff.close();
  });
});

test("an account awaiting a role sees no figures", async ({ page, signIn }) => {
  await signIn(page, "pending");
  const response = await page.goto("/kpis/metricas");
  expect(response?.status()).toBe(403);
  await expect(page.locator("[data-kpi]")).toHaveCount(0);
});
