import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { supplierSearchText } from "../../app/lib/master-data-search";
import { type TestDb, insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast, openMoveMenuWithoutJs } from "./helpers";

/** OPME of a surgery in 'OPME em Cotação': items, quotes, the comparison and the approval rule. */

function insertSupplier(db: TestDb, name: string): number {
  return (
    db
      .prepare("insert into suppliers (name, type, active, search_text) values (?, 'opme', 1, ?) returning id")
      .get(name, supplierSearchText({ name, cnpj: null, contactEmail: null, type: "opme" })) as { id: number }
  ).id;
}

function insertSurgeryInQuotes(db: TestDb, doctor: number, patientName: string): number {
  const patient = insertPatient(db, patientName);
  const id = Number(
    db
      .prepare(
        `insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage)
         values (?, ?, 'Artrodese lombar', ?, 'scheduled', 'opme_cotacao')`,
      )
      .run(patient, doctor, Date.UTC(2026, 5, 10, 12)).lastInsertRowid,
  );
  db.prepare("insert into pipeline_stages (surgery_id, stage, created_at) values (?, 'opme_cotacao', ?)").run(id, Date.now());
  return id;
}

const card = (page: Page, name: string) => page.locator("article", { has: page.getByRole("link", { name, exact: true }) });

async function addQuote(page: Page, supplier: string, prices: string[]) {
  const form = page.getByRole("form", { name: "Registrar cotação" });
  await form.getByLabel("Fornecedor").selectOption({ label: supplier });
  await form.getByLabel("Válida até").fill("2026-12-31");
  const inputs = form.getByRole("group", { name: "Preço unitário por item (R$)" }).getByRole("textbox");
  for (let i = 0; i < prices.length; i++) await inputs.nth(i).fill(prices[i]);
  await form.getByRole("button", { name: "Registrar cotação" }).click();
  await expect(page.getByRole("form", { name: "Registrar cotação" })).toBeVisible();
}

test.describe.configure({ timeout: 90_000 });

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("staff quote the OPME; two quotes from one supplier stay 1/3, and approval asks for a justification", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const doctor = insertDoctor(db, `Dr. OPME ${tag}`);
    const supplierA = `Fornecedor A ${tag}`;
    const supplierB = `Fornecedor B ${tag}`;
    insertSupplier(db, supplierA);
    insertSupplier(db, supplierB);
    const name = `Paciente OPME ${tag}`;
    const id = insertSurgeryInQuotes(db, doctor, name);

    await signIn(page, "staff");
    await page.goto(`/pipeline?doctor=${doctor}`);
    await expect(card(page, name)).toContainText("OPME: 0/3 cotações");
    await card(page, name).getByRole("link", { name: /OPME: 0\/3 cotações/ }).click();
    await expect(page).toHaveURL(new RegExp(`/pipeline/${id}/opme$`));

    const itemForm = page.getByRole("form", { name: "Adicionar item" });
    await itemForm.getByLabel("Descrição do item").fill("Parafuso pedicular");
    await itemForm.getByLabel("Quantidade").fill("4");
    await itemForm.getByLabel("Registro ANVISA (opcional)").fill("8010251-1234");
    await itemForm.getByRole("button", { name: "Adicionar item" }).click();
    await expect(page.getByRole("table", { name: "Itens da OPME" })).toContainText("80102511234");

    await addQuote(page, supplierA, ["1.200,00"]);
    await addQuote(page, supplierA, ["1.100,00"]);
    await expect(page.getByText("OPME: 1/3 cotações")).toBeVisible();
    await addQuote(page, supplierB, ["1.150,00"]);
    await expect(page.getByText("OPME: 2/3 cotações")).toBeVisible();
    const comparison = page.getByRole("table", { name: /Comparação das cotações/ });
    await expect(comparison.getByRole("cell", { name: /R\$ 1\.100,00\s*Menor preço/ })).toBeVisible();

    const choose = page.getByRole("form", { name: "Escolher cotação" });
    await choose.getByLabel("Cotação escolhida").selectOption({ index: 2 });
    await choose.getByLabel("Motivo da escolha").fill("Menor preço e entrega no hospital");
    await choose.getByRole("button", { name: "Escolher cotação" }).click();
    await expect(page.getByText(`Escolhida: ${supplierA}`)).toBeVisible();

    await page.goto(`/pipeline?doctor=${doctor}`);
    await expect(card(page, name)).toContainText("OPME: 2/3 cotações");
    await openMoveMenuWithoutJs(card(page, name));
    await card(page, name).getByRole("link", { name: "Aprovado" }).click();
    await expect(page).toHaveURL(new RegExp(`/pipeline/${id}/aprovar`));
    await page.getByLabel("Justificativa").fill("Terceiro fornecedor sem o material em estoque");
    await page.getByRole("button", { name: "Mover para Aprovado" }).click();
    await expect(page).toHaveURL(new RegExp(`/pipeline\\?doctor=${doctor}$`));
    expect(db.prepare("select current_stage from surgeries where id = ?").get(id)).toEqual({ current_stage: "aprovado" });
    expect(db.prepare("select stage, from_stage, note from pipeline_stages where surgery_id = ? order by id desc limit 1").get(id)).toEqual({
      stage: "aprovado",
      from_stage: "opme_cotacao",
      note: "Terceiro fornecedor sem o material em estoque",
    });
    db.close();
  });
});

test("with JavaScript, a doctor reads the comparison but has no forms; a forged approval is refused", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const doctor = insertDoctor(db, `Dr. OPME JS ${tag}`);
  const id = insertSurgeryInQuotes(db, doctor, `Paciente OPME JS ${tag}`);
  db.close();

  await signIn(page, "doctor");
  await page.goto(`/pipeline/${id}/opme`);
  await expect(page.getByText("OPME: 0/3 cotações")).toBeVisible();
  await expect(page.getByRole("form", { name: "Adicionar item" })).toHaveCount(0);
  const forged = await page.request.post(`/pipeline/${id}/opme`, { form: { intent: "add-item", description: "X", quantity: "1" }, maxRedirects: 0, failOnStatusCode: false });
  expect(forged.status()).toBe(403);

  await page.context().clearCookies();
  await signIn(page, "staff");
  const refused = await page.request.post("/pipeline", { form: { intent: "move", id: String(id), to: "aprovado" }, maxRedirects: 0, failOnStatusCode: false });
  expect(refused.status()).toBe(400);
  await page.goto(`/pipeline/${id}/aprovar`);
  await page.getByLabel("Justificativa").fill("Urgência clínica documentada");
  await page.getByRole("button", { name: "Mover para Aprovado" }).click();
  await expect(page).toHaveURL(/\/pipeline$/);
  await expectToast(page, "Status atualizado");
});
