import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { type TestDb, insertDoctor, insertHerniaCode, insertPatient, insertPayer, openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

test.describe.configure({ timeout: 120_000 });

const PORTES: Record<string, number> = { "7C": 112_365, "9B": 156_797, "9C": 172_781, "10A": 185_475, "12A": 294_318, "12C": 387_643 };

/** A surgery (a Tuesday at 10h) billed to a payer on CBHPM 2022, its porte table and the codes it uses. */
function surgeryWithTeam(db: TestDb, tag: string) {
  for (const [porte, value] of Object.entries(PORTES)) {
    db.prepare("insert or ignore into reference_fee_schedules (kind, year, version, code, description, base_value_cents) values ('CBHPM', 2022, 'Portes – Original', ?, ?, ?)").run(porte, `Porte ${porte}`, value);
  }
  insertHerniaCode(db);
  const payer = insertPayer(db, `Convênio ${tag}`);
  db.prepare("update payers set cbhpm_edition = '2022' where id = ?").run(payer);
  const surgeon = insertDoctor(db, `Dr. Cirurgião ${tag}`);
  const assistant = insertDoctor(db, `Dra. Auxiliar ${tag}`);
  const anaesthetist = insertDoctor(db, `Dr. Anestesista ${tag}`, { specialty: "Anestesiologia" });
  const patient = insertPatient(db, `Paciente Honorários ${tag}`);
  const surgery = (
    db
      .prepare("insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, payer_id, payer_name) values (?, ?, 'Microdiscectomia', ?, ?, ?) returning id")
      .get(patient, surgeon, Date.parse("2026-03-10T13:00:00Z"), payer, `Convênio ${tag}`) as { id: number }
  ).id;
  return { surgery, surgeon, assistant, anaesthetist };
}

const linesTable = (page: Page) => page.getByRole("table", { name: "Linhas de honorários" });

async function fillTeamAndProcedure(page: Page, tag: string, anaesthetist: number) {
  await page.getByLabel("Código CBHPM ou TUSS").fill("30715180");
  await page.getByRole("button", { name: "Adicionar procedimento" }).click();
  await expect(page.getByRole("table", { name: "Procedimentos da cirurgia" })).toContainText("3.07.15.18-0");
  await page.getByLabel("1º auxiliar").selectOption({ label: `Dra. Auxiliar ${tag}` });
  await page.getByLabel("Anestesista").selectOption({ label: `Dr. Anestesista ${tag}` });
  await page.getByRole("button", { name: "Salvar equipe" }).click();
  // Saved (the page comes back with the team from the database, with JavaScript or without).
  await expect(page.getByLabel("Anestesista")).toHaveValue(String(anaesthetist));
  await expect(page.getByRole("button", { name: "Salvar equipe" })).toBeEnabled();
}

test("an admin prices a microdiscectomy (10A, 1 assistant, AN6) and overrides a line with a reason", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const { surgery, anaesthetist } = surgeryWithTeam(openTestDb(), tag);
  await signIn(page, "admin");
  await page.goto(`/pipeline/${surgery}`);
  await page.getByRole("link", { name: "Honorários" }).click();
  await expect(page).toHaveURL(new RegExp(`/surgeries/${surgery}/honorarios$`));
  await expect(page.getByText("Nenhum honorário calculado")).toBeVisible();
  await fillTeamAndProcedure(page, tag, anaesthetist);
  await page.getByRole("button", { name: "Calcular honorários" }).click();
  await expectToast(page, "Honorários calculados");
  const rows = linesTable(page).getByRole("row");
  await expect(rows.filter({ hasText: `Dr. Cirurgião ${tag}` })).toContainText("R$ 1.854,75");
  await expect(rows.filter({ hasText: `Dra. Auxiliar ${tag}` })).toContainText("R$ 1.112,85");
  await expect(rows.filter({ hasText: `Dr. Anestesista ${tag}` })).toContainText("AN6 = porte 9B");
  await expect(linesTable(page)).toContainText("R$ 4.535,57");

  await page.getByRole("link", { name: `Ajustar honorário de Dra. Auxiliar ${tag}` }).click();
  await page.getByRole("dialog").getByLabel("Valor a pagar (R$)").fill("1.200,00");
  await page.getByRole("dialog").getByRole("button", { name: "Salvar ajuste" }).click();
  await expect(page.getByRole("dialog").getByText("Informe o motivo do ajuste")).toBeVisible();
  await page.getByRole("dialog").getByLabel("Motivo do ajuste").fill("Acordo com o convênio");
  await page.getByRole("dialog").getByRole("button", { name: "Salvar ajuste" }).click();
  await expect(rows.filter({ hasText: `Dra. Auxiliar ${tag}` })).toContainText("Acordo com o convênio");
  await expect(linesTable(page)).toContainText("R$ 4.622,72");
});

test("staff reads a surgery's honorários without any control", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const { surgery } = surgeryWithTeam(openTestDb(), tag);
  await signIn(page, "staff");
  await page.goto(`/surgeries/${surgery}/honorarios`);
  await expect(page.getByRole("heading", { name: /Microdiscectomia/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Calcular honorários" })).toHaveCount(0);
  await expect(page.getByLabel("Código CBHPM ou TUSS")).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin sets an apartment, calculates, and recalculates after confirming", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const { surgery, anaesthetist } = surgeryWithTeam(openTestDb(), tag);
    await signIn(page, "admin");
    await page.goto(`/surgeries/${surgery}/honorarios`);
    // A code that is not on file comes back with its message and what was typed (the screen is kept markup between views).
    await page.getByLabel("Código CBHPM ou TUSS").fill("99999999");
    await page.getByRole("button", { name: "Adicionar procedimento" }).click();
    await expect(page.getByText("Código não encontrado em Cadastros › Códigos (CBHPM ou TUSS).")).toBeVisible();
    await expect(page.getByLabel("Código CBHPM ou TUSS")).toHaveValue("99999999");
    await fillTeamAndProcedure(page, tag, anaesthetist);
    await page.getByRole("button", { name: "Calcular honorários" }).click();
    await expect(linesTable(page)).toContainText("R$ 4.535,57");
    await page.getByLabel("Acomodação").selectOption("apartamento");
    await page.getByRole("button", { name: "Salvar", exact: true }).click();
    await page.getByRole("link", { name: "Recalcular honorários" }).click();
    await expect(page.getByRole("dialog")).toContainText("serão substituídas pelo novo cálculo");
    await page.getByRole("dialog").getByRole("button", { name: "Recalcular" }).click();
    await expect(linesTable(page)).toContainText("× 2 (apartamento)");
    await expect(linesTable(page)).toContainText("R$ 9.071,14");
  });
});
