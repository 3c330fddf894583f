import { expect, test } from "./fixtures";
import { type TestDb, insertDoctor, insertPatient, insertPayer, openTestDb, uniqueTag } from "./db";
import { expectToast, forgePost } from "./helpers";

test.describe.configure({ timeout: 120_000 });

const PAGE = "/financeiro/importar-honorarios";
const HEADER = "Guia;Paciente;Código;Data;Valor;Pagador";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** A surgery billed (faturado) at R$ 1.500,00 ten days ago, with its guide number `G-<tag>-<n>`. */
function billedSurgery(db: TestDb, tag: string, n: number) {
  const patient = `Paciente ${n} ${tag}`;
  const payer = `Convênio ${tag}`;
  const when = Date.now() - 10 * 86_400_000;
  const row = db
    .prepare(
      `insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage, payer_id, payer_name, guide_number, billed_amount_cents, billed_at, receivable_status)
       values (?, ?, 'Artrodese lombar', ?, 'completed', 'concluido', ?, ?, ?, 150000, ?, 'faturado') returning id`,
    )
    .get(insertPatient(db, patient), insertDoctor(db, `Dr. Demonstrativo ${n} ${tag}`), when, insertPayer(db, payer), payer, `G-${tag}-${n}`, when) as { id: number };
  const day = new Date(when).toLocaleDateString("pt-BR", { timeZone: "America/Sao_Paulo" });
  return { id: row.id, line: (amount: string) => `G-${tag}-${n};${patient};30715016;${day};${amount};${payer}` };
}

const status = (db: TestDb, id: number) => (db.prepare("select receivable_status as s from surgeries where id = ?").get(id) as { s: string }).s;
const csvFile = (name: string, lines: string[], header = HEADER) => ({ name, mimeType: "text/csv", buffer: Buffer.from(`\uFEFF${[header, ...lines].join("\r\n")}\r\n`) });

test("an admin uploads a PDF statement and applies a CSV after its preview", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const surgery = billedSurgery(db, tag, 1);
  await signIn(page, "admin");
  await page.goto(PAGE);

  await page.getByLabel("Arquivo do demonstrativo").setInputFiles({ name: `folha-${tag}.pdf`, mimeType: "application/pdf", buffer: PDF });
  await page.getByRole("button", { name: "Enviar arquivo" }).click();
  await expectToast(page, "Importação concluída com sucesso!");
  await expect(page.getByRole("row", { name: new RegExp(`folha-${tag}\\.pdf`) })).toContainText("Ana Administradora");

  await page.getByLabel("Arquivo CSV do demonstrativo").setInputFiles(csvFile(`unimed-${tag}.csv`, [surgery.line("1.500,00")]));
  await page.getByRole("button", { name: "Pré-visualizar" }).click();
  await expect(page).toHaveURL(/preview=[0-9a-f]{32}$/);
  await expect(page.getByRole("heading", { name: `Pré-visualização: unimed-${tag}.csv` })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`G-${tag}-1`) })).toContainText("Pago integral");
  await page.getByRole("button", { name: "Aplicar" }).click();
  // The upload's toast may still be on screen: the newest is the last one.
  await expectToast(page, "Importação concluída com sucesso!");
  await expect(page.getByRole("row", { name: new RegExp(`unimed-${tag}\\.csv`) })).toContainText("1 linha · R$ 1.500,00");
  expect(status(db, surgery.id)).toBe("pago");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a CSV with a bad line applies nothing and names it; a good one is previewed and applied", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const first = billedSurgery(db, tag, 1);
    const second = billedSurgery(db, tag, 2);
    await signIn(page, "admin");
    await page.goto(PAGE);
    await page.getByLabel("Arquivo do demonstrativo").setInputFiles(csvFile(`nao-pdf-${tag}.csv`, [first.line("1,00")]));
    await page.getByRole("button", { name: "Enviar arquivo" }).click();
    await expect(page.getByRole("alert")).toContainText("Erro ao processar arquivo: Apenas arquivos PDF ou imagens são permitidos");

    await page.getByLabel("Arquivo CSV do demonstrativo").setInputFiles(csvFile(`erro-${tag}.csv`, [first.line("1.500,00"), second.line("2.000,00")]));
    await page.getByRole("button", { name: "Pré-visualizar" }).click();
    await expect(page.getByText("Linha 3: O valor pago passa do valor em aberto (R$ 1.500,00).")).toBeVisible();
    await expect(page.getByRole("button", { name: "Aplicar" })).toHaveCount(0);
    await page.getByRole("button", { name: "Descartar" }).click();

    await page.getByLabel("Arquivo CSV do demonstrativo").setInputFiles(csvFile(`ok-${tag}.csv`, [`${first.line("1.500,00")};;`, `${second.line("1.200,00")};1705;Nível não autorizado`], `${HEADER};Código da glosa;Motivo da glosa`));
    await page.getByRole("button", { name: "Pré-visualizar" }).click();
    await expect(page.getByText(/Falta|inválid/)).toHaveCount(0);
    await expect(page.getByRole("row", { name: new RegExp(`G-${tag}-2`) })).toContainText("glosa de R$ 300,00");
    expect(status(db, first.id)).toBe("faturado");
    await page.getByRole("button", { name: "Aplicar" }).click();
    await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
    await expect(page.getByRole("row", { name: new RegExp(`ok-${tag}\\.csv`) })).toContainText("2 linhas · R$ 2.700,00");
    expect(status(db, first.id)).toBe("pago");
    expect(status(db, second.id)).toBe("glosa");
  });
});

test("staff read the list without the import forms; doctors are refused", async ({ browser, signIn }) => {
  const staff = await browser.newPage();
  await signIn(staff, "staff");
  await staff.goto(PAGE);
  await expect(staff.getByRole("table", { name: "Demonstrativos recebidos" })).toBeVisible();
  await expect(staff.getByRole("button", { name: "Pré-visualizar" })).toHaveCount(0);
  const forged = await forgePost(staff, PAGE, { intent: "apply", token: "0".repeat(32) });
  expect(forged.status()).toBe(403);

  const doctor = await browser.newPage();
  await signIn(doctor, "doctor");
  const response = await doctor.goto(PAGE);
  expect(response?.status()).toBe(403);
});
