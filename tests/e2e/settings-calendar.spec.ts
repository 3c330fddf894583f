import { expect, test } from "./fixtures";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { openMoveMenuWithoutJs } from "./helpers";

/** Configurações → Feriados and → Checklists, and the checklist a move creates (all without JavaScript). */

test.describe.configure({ timeout: 90_000 });
test.use({ javaScriptEnabled: false });

test("an admin adds and removes a clinic holiday and edits a stage checklist; staff only read", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto("/settings");
  await page.getByRole("link", { name: "Feriados" }).click();
  await expect(page).toHaveURL(/\/settings\/holidays$/);
  await page.goto("/settings/holidays?ano=2031");
  await expect(page.getByRole("table", { name: "Feriados nacionais de 2031" })).toContainText("Tiradentes");
  const form = page.getByRole("form", { name: "Adicionar feriado" });
  await form.getByLabel("Data").fill("2031-01-25");
  await form.getByLabel("Nome").fill("Aniversário de São Paulo");
  await form.getByRole("button", { name: "Adicionar feriado" }).click();
  const clinic = page.getByRole("table", { name: "Feriados da clínica em 2031" });
  await expect(clinic).toContainText("25/01/2031");
  await expect(clinic).toContainText("sábado");
  await clinic.getByRole("link", { name: /Remover/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remover" }).click();
  await expect(page.getByText("Nenhum feriado da clínica em 2031.")).toBeVisible();

  await page.goto("/settings/checklists");
  const negado = page.getByRole("form", { name: "Checklist de Negado" });
  await negado.getByLabel("Título da tarefa").fill("Recurso da negativa");
  await negado.getByLabel(/Itens/).fill("Pedir a negativa por escrito\nRelatório para o recurso");
  await negado.getByRole("button", { name: "Salvar checklist" }).click();
  await expect(page.getByRole("form", { name: "Checklist de Negado" }).getByLabel(/Itens/)).toHaveValue("Pedir a negativa por escrito\nRelatório para o recurso");

  await page.context().clearCookies();
  await signIn(page, "staff");
  await page.goto("/settings/checklists");
  await expect(page.getByRole("button", { name: "Salvar checklist" })).toHaveCount(0);
  await page.goto("/settings/holidays");
  await expect(page.getByRole("form", { name: "Adicionar feriado" })).toHaveCount(0);
});

test("a card entering 'Agendado' gets the stage's checklist as a task with subtasks, once", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const doctor = insertDoctor(db, `Dr. Checklist ${tag}`);
  const patientName = `Paciente Checklist ${tag}`;
  const patient = insertPatient(db, patientName);
  const id = Number(
    db
      .prepare("insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage) values (?, ?, 'Microdiscectomia', ?, 'scheduled', 'aprovado')")
      .run(patient, doctor, Date.UTC(2026, 6, 1, 12)).lastInsertRowid,
  );
  db.prepare("insert into pipeline_stages (surgery_id, stage, created_at) values (?, 'aprovado', ?)").run(id, Date.now());

  await signIn(page, "staff");
  await page.goto(`/pipeline?doctor=${doctor}`);
  const card = page.locator("article", { has: page.getByRole("link", { name: patientName, exact: true }) });
  for (const to of ["Agendado", "Aprovado", "Agendado"]) {
    await openMoveMenuWithoutJs(card);
    await card.getByRole("button", { name: to }).click();
    await expect(page.locator(`section[data-stage="${to === "Agendado" ? "agendado" : "aprovado"}"]`).getByRole("link", { name: patientName })).toBeVisible();
  }

  const tasks = db.prepare("select title from tasks where surgery_id = ? and title like 'Pré-operatório%'").all(id);
  expect(tasks).toEqual([{ title: `Pré-operatório: ${patientName}` }]);
  await page.goto(`/tasks?q=${encodeURIComponent(tag)}`);
  await expect(page.getByText(`Pré-operatório: ${patientName}`)).toBeVisible();
  await expect(page.getByText("Confirmar a internação com o hospital")).toBeVisible();
  db.close();
});
