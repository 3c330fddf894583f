import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { type TestDb, insertDoctor, insertHerniaCode, insertHospital, insertPatient, insertPayer, openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

test.describe.configure({ timeout: 120_000 });

/** A concluded surgery already receivable as 'realizado', billed at R$ 1.500,00. */
function realizedSurgery(db: TestDb, tag: string, type: string): number {
  const patient = insertPatient(db, `Paciente ${type} ${tag}`);
  const doctor = insertDoctor(db, `Dr. Recebível ${tag}`);
  const payer = insertPayer(db, `Convênio ${tag}`);
  const when = Date.now() - 10 * 86_400_000;
  const row = db
    .prepare(
      `insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage, payer_id, payer_name, guide_number, billed_amount_cents, receivable_status)
       values (?, ?, ?, ?, 'completed', 'concluido', ?, ?, ?, 150000, 'realizado') returning id`,
    )
    .get(patient, doctor, `${type} ${tag}`, when, payer, `Convênio ${tag}`, `G-${tag}`) as { id: number };
  return row.id;
}

const status = (db: TestDb, id: number) => (db.prepare("select receivable_status as s from surgeries where id = ?").get(id) as { s: string | null }).s;

function row(page: Page, text: string) {
  return page.getByRole("row", { name: new RegExp(text) });
}

test("an admin bills, is paid in part (a glosa opens) and removes a receivable", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const billed = realizedSurgery(db, tag, "Artrodese");
  const removed = realizedSurgery(db, tag, "Microdiscectomia");
  await signIn(page, "admin");
  await page.goto(`/financeiro/cirurgias-receber?q=${tag}`);
  await expect(page.getByText("Realizadas", { exact: true })).toBeVisible();
  await row(page, `Artrodese ${tag}`).getByRole("button", { name: /Marcar como faturado/ }).click();
  await expectToast(page, "Status atualizado para Faturado");
  await expect(row(page, `Artrodese ${tag}`)).toContainText("Faturado");
  await expect(row(page, `Artrodese ${tag}`).getByRole("button", { name: /Marcar como faturado/ })).toHaveCount(0);

  await row(page, `Artrodese ${tag}`).getByRole("link", { name: /Detalhes de/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("link", { name: "Registrar pagamento" }).click();
  await dialog.getByLabel("Valor recebido (R$)").fill("1.200,00");
  await dialog.getByLabel("Código TISS da glosa (se parcial)").fill("1705");
  await dialog.getByLabel("Motivo da glosa (se parcial)").fill("Nível adicional não autorizado");
  await dialog.getByRole("button", { name: "Registrar pagamento" }).click();
  await expectToast(page, "Pagamento registrado");
  await expect(dialog.getByText(/1705.*Nível adicional não autorizado: R\$ 300,00 glosado/)).toBeVisible();
  expect(status(db, billed)).toBe("glosa");

  await page.goto(`/financeiro/cirurgias-receber?q=${tag}`);
  await row(page, `Microdiscectomia ${tag}`).getByRole("link", { name: /Excluir/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Excluir" }).click();
  await expectToast(page, "Registro excluído com sucesso");
  await expect(row(page, `Microdiscectomia ${tag}`)).toHaveCount(0);
  // The surgery itself is kept.
  expect((db.prepare("select count(*) as n from surgeries where id = ?").get(removed) as { n: number }).n).toBe(1);
});

/** A billed insurer's surgery with everything its Guia de Honorários needs except the payer's TISS settings. */
function billedGuideSurgery(db: TestDb, tag: string): { payer: number; surgery: number } {
  const payer = insertPayer(db, `Convênio TISS ${tag}`);
  db.prepare("update payers set ans_registration = '301337' where id = ?").run(payer);
  const hospital = insertHospital(db, `Hospital Guia ${tag}`);
  db.prepare("update hospitals set cnes = '2077485' where id = ?").run(hospital);
  const patient = insertPatient(db, `Beneficiária ${tag}`);
  db.prepare("update patients set insurance_card_number = '0123456789012' where id = ?").run(patient);
  const doctor = insertDoctor(db, `Dra. Guia ${tag}`);
  db.prepare("update doctors set crm_uf = 'SP' where id = ?").run(doctor);
  const code = insertHerniaCode(db);
  const surgery = db
    .prepare(
      `insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage, payer_id, payer_name, hospital_id, guide_number, billed_amount_cents, receivable_status)
       values (?, ?, ?, ?, 'completed', 'concluido', ?, ?, ?, ?, 250000, 'faturado') returning id`,
    )
    .get(patient, doctor, `Microdiscectomia ${tag}`, Date.now() - 5 * 86_400_000, payer, `Convênio TISS ${tag}`, hospital, `SOL-${tag}`) as { id: number };
  db.prepare("insert into surgery_fee_lines (surgery_id, doctor_id, role, amount_cents, medical_code_id, procedure_percent, urgency_percent) values (?, ?, 'principal', 250000, ?, 100, 0)").run(
    surgery.id,
    doctor,
    code,
  );
  return { payer, surgery: surgery.id };
}

test("an admin gives an insurer its TISS code in Cadastros, then downloads the payer's lote of guides", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const { payer } = billedGuideSurgery(db, tag);
  await signIn(page, "admin");
  const lote = `/financeiro/cirurgias-receber?payer=${payer}&status=faturado`;
  await page.goto(lote);
  await page.getByRole("navigation", { name: "Guias de Honorários TISS" }).getByRole("link").first().click();
  await expectToast(page, `configuração TISS do convênio Convênio TISS ${tag}`);

  await page.goto(`/master-data/payers?q=${tag}`);
  await page.getByRole("row", { name: new RegExp(`Convênio TISS ${tag}`) }).getByRole("link", { name: /Editar/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Versão TISS")).toHaveValue("4.01.00");
  await dialog.getByLabel("Código do prestador na operadora").fill("PREST-77");
  await dialog.getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "atualizado");

  await page.goto(lote);
  const download = page.waitForEvent("download");
  await page.getByRole("navigation", { name: "Guias de Honorários TISS" }).getByRole("link").first().click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.xml$/);
  const xml = await new Response((await file.createReadStream()) as unknown as ReadableStream).text();
  expect(xml).toContain("<ans:codigoPrestadorNaOperadora>PREST-77</ans:codigoPrestadorNaOperadora>");
  expect(xml).toContain(`<ans:guiaSolicInternacao>SOL-${tag}</ans:guiaSolicInternacao>`);
});

test("staff reads without controls; a forged 'faturar' gets 403", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const id = realizedSurgery(db, tag, "Laminectomia");
  await signIn(page, "staff");
  await page.goto(`/financeiro/cirurgias-receber?q=${tag}`);
  await expect(row(page, `Laminectomia ${tag}`)).toContainText("Realizado");
  await expect(page.getByRole("button", { name: /Marcar como faturado/ })).toHaveCount(0);
  const response = await forgePost(page, "/financeiro/cirurgias-receber", { intent: "bill", id: String(id) });
  expect(response.status()).toBe(403);
  expect(status(db, id)).toBe("realizado");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin filters, bills and reopens a receivable", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const id = realizedSurgery(db, tag, "Cifoplastia");
    await signIn(page, "admin");
    await page.goto(`/financeiro/cirurgias-receber?q=${tag}&status=realizado`);
    await row(page, `Cifoplastia ${tag}`).getByRole("button", { name: /Marcar como faturado/ }).click();
    await expect(page.getByText("Nenhuma cirurgia a receber")).toBeVisible();
    expect(status(db, id)).toBe("faturado");
    await page.goto(`/financeiro/cirurgias-receber?q=${tag}&view=${id}&acao=reabrir`);
    await page.getByLabel("Por que desfazer o faturamento?").fill("Guia emitida para o convênio errado");
    await page.getByRole("button", { name: "Reabrir como Realizado" }).click();
    await expect(page.getByRole("dialog")).toContainText("Guia emitida para o convênio errado");
    expect(status(db, id)).toBe("realizado");
  });
});
