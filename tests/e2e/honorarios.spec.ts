import { expect, test } from "./fixtures";
import { type TestDb, insertDoctor, insertPatient, insertPayer, openTestDb, uniqueTag } from "./db";

test.describe.configure({ timeout: 120_000 });

/**
 * A doctor and a payer of their own, one performed surgery (billed 15/03/2026, paid 30 days later)
 * with a principal fee line of R$ 1.854,75 on a CBHPM code no other test uses, and a TUSS row.
 */
function seedReport(db: TestDb) {
  const tag = uniqueTag();
  const digits = String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0");
  const code = `4.${digits.slice(0, 2)}.${digits.slice(2, 4)}.${digits.slice(4, 6)}-${digits[6]}`;
  const doctor = insertDoctor(db, `Dr. Relatório ${tag}`);
  const payer = insertPayer(db, `Convênio Relatório ${tag}`);
  const patient = insertPatient(db, `Paciente Relatório ${tag}`);
  const codeId = (db.prepare("insert into medical_codes (code, type, description, porte) values (?, 'cbhpm', ?, '10A') returning id").get(code, `Procedimento ${tag}`) as { id: number }).id;
  db.prepare("insert into reference_fee_schedules (kind, year, version, code, description, base_value_cents) values ('CBHPM', 2022, '', ?, ?, 185475)").run(code, `Procedimento ${tag}`);
  db.prepare("insert into reference_fee_schedules (kind, year, version, code, description, base_value_cents) values ('TUSS', 2026, 'Relatório', ?, ?, 222570)").run(`9${digits}`, `Tabela própria ${tag}`);
  const surgery = (
    db
      .prepare(
        "insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, payer_id, payer_name, receivable_status, billed_amount_cents, billed_at, paid_at) values (?, ?, 'Microdiscectomia', ?, ?, ?, 'pago', 300000, ?, ?) returning id",
      )
      .get(patient, doctor, Date.parse("2026-03-10T13:00:00Z"), payer, `Convênio Relatório ${tag}`, Date.parse("2026-03-15T12:00:00Z"), Date.parse("2026-04-14T12:00:00Z")) as { id: number }
  ).id;
  db.prepare("insert into surgery_fee_lines (surgery_id, doctor_id, role, medical_code_id, amount_cents) values (?, ?, 'principal', ?, 185475)").run(surgery, doctor, codeId);
  return { tag, code, doctor, payer };
}

test("staff read the four honorários reports, each filter kept in the URL", async ({ page, signIn }) => {
  const { tag, code, doctor, payer } = seedReport(openTestDb());
  await signIn(page, "staff");

  await page.goto("/honorarios/medicos");
  await page.getByLabel("Médico", { exact: true }).selectOption({ label: `Dr. Relatório ${tag}` });
  await expect(page).toHaveURL(new RegExp(`doctor_id=${doctor}`));
  const doctors = page.getByRole("table", { name: "Honorários por médico" });
  await expect(doctors.getByRole("row", { name: new RegExp(`Dr. Relatório ${tag}`) })).toContainText("R$ 1.854,75");
  await page.getByLabel("De", { exact: true }).fill("2026-04-01");
  await page.getByLabel("De", { exact: true }).dispatchEvent("change");
  await expect(page).toHaveURL(/from=2026-04-01/);
  await expect(page.getByText("Nenhum honorário no período")).toBeVisible();

  await page.goto("/honorarios/cbhpm");
  await page.getByRole("searchbox", { name: "Buscar código CBHPM" }).fill(code.replace(/\D/g, ""));
  await page.getByRole("searchbox", { name: "Buscar código CBHPM" }).press("Enter");
  await expect(page).toHaveURL(/q=\d{8}/);
  const codes = page.getByRole("table", { name: "Códigos CBHPM" });
  await expect(codes.getByRole("row")).toHaveCount(2);
  await expect(codes.getByRole("row").nth(1)).toContainText(code);
  await expect(codes.getByRole("row").nth(1)).toContainText("R$ 1.854,75");
  await expect(codes.getByRole("row").nth(1).getByRole("cell").last()).toHaveText("1");

  await page.goto("/honorarios/pagador");
  await page.getByLabel("Pagador", { exact: true }).selectOption({ label: `Convênio Relatório ${tag}` });
  await expect(page).toHaveURL(new RegExp(`payer_id=${payer}`));
  const payers = page.getByRole("table", { name: "Honorários por pagador" });
  await expect(payers.getByRole("row", { name: new RegExp(tag) })).toContainText("R$ 3.000,00");
  await expect(payers.getByRole("row", { name: new RegExp(tag) })).toContainText("30,0 dias");

  await page.goto("/honorarios/tabelas");
  await expect(page.getByRole("link", { name: "Importar tabela de portes" })).toHaveCount(0);
  await page.getByLabel("Tipo", { exact: true }).selectOption("TUSS");
  await expect(page).toHaveURL(/kind=TUSS/);
  await page.getByRole("searchbox", { name: "Buscar nas tabelas" }).fill(`Tabela própria ${tag}`);
  await page.getByRole("searchbox", { name: "Buscar nas tabelas" }).press("Enter");
  await expect(page).toHaveURL(/kind=TUSS.*q=|q=.*kind=TUSS/);
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("R$ 2.225,70");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin filters the per-doctor report with the Filtrar button", async ({ page, signIn }) => {
    const { tag, doctor } = seedReport(openTestDb());
    await signIn(page, "admin");
    await page.goto("/honorarios/medicos");
    await page.getByLabel("Médico", { exact: true }).selectOption({ label: `Dr. Relatório ${tag}` });
    await page.getByLabel("De", { exact: true }).fill("2026-03-01");
    await page.getByLabel("Até", { exact: true }).fill("2026-03-31");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(new RegExp(`from=2026-03-01&to=2026-03-31&doctor_id=${doctor}`));
    const row = page.getByRole("table", { name: "Honorários por médico" }).getByRole("row", { name: new RegExp(tag) });
    await expect(row).toContainText("R$ 1.854,75");
    await page.goto("/honorarios/medicos?from=31-03-2026");
    await expect(page.getByText("Parâmetro 'from' inválido: use a data inicial no formato AAAA-MM-DD.")).toBeVisible();
  });
});

test("a doctor is refused the per-payer report and its API", async ({ page, signIn }) => {
  await signIn(page, "doctor");
  const response = await page.goto("/honorarios/pagador");
  expect(response?.status()).toBe(403);
  const api = await page.request.get("/api/honorarios/pagador", { failOnStatusCode: false });
  expect(api.status()).toBe(403);
  const bad = await page.request.get("/api/honorarios/medicos?doctor_id=abc", { failOnStatusCode: false });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ error: "Parâmetro 'doctor_id' inválido: informe um número de identificação." });
});
