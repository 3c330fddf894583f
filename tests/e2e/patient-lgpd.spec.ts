import fs from "node:fs";
import { expect as baseExpect } from "@playwright/test";
import { test } from "./fixtures";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

test.describe.configure({ timeout: 120_000 });
/** The machine running the suite is shared and often busy: generous waits, same assertions. */
const expect = baseExpect.configure({ timeout: 20_000 });

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("'Enviar mensagem' on the record opens the send dialog with the patient chosen, and sends", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const patientId = insertPatient(db, `Envio ${tag}`, { phone: "11987651234" });
    const title = `Retorno ${tag}`;
    db.prepare("insert into message_templates (title, category, status, body, meta_name) values (?, 'agendamento', 'aprovado', ?, ?)").run(
      title,
      "Olá {{paciente.nome}}, tudo bem?",
      `retorno_${tag.replace(/[^a-z0-9]/g, "")}`,
    );
    await signIn(page, "staff");
    await page.goto(`/patients/${patientId}`);
    await page.getByRole("link", { name: "Enviar mensagem" }).click();
    const dialog = page.getByRole("dialog", { name: "Enviar mensagem" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("combobox", { name: "Paciente", exact: true })).toHaveValue(String(patientId));
    await dialog.getByLabel("Template aprovado").selectOption({ label: title });
    await dialog.getByRole("button", { name: "Carregar template e prévia" }).click();
    // The GET round trip keeps the dialog and the patient.
    await expect(page.getByRole("dialog", { name: "Enviar mensagem" }).getByTestId("quick-send-preview")).toContainText(`Olá Envio ${tag}, tudo bem?`);
    const send = page.getByRole("dialog", { name: "Enviar mensagem" }).getByRole("button", { name: "Enviar mensagem" });
    await send.click();
    // Refused without opt-in: the dialog stays, with the reason and the choices.
    await expect(page.getByRole("dialog", { name: "Enviar mensagem" }).getByRole("alert")).toContainText("não autorizou mensagens por WhatsApp");
    db.prepare("update patients set whatsapp_opt_in = 1 where id = ?").run(patientId);
    await send.click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const sent = db.prepare("select body from messages where patient_id = ?").all(patientId) as { body: string }[];
    expect(sent.map((m) => m.body)).toEqual([`Olá Envio ${tag}, tudo bem?`]);
    db.close();
  });

  test("an admin opens the access report from the record and pages it; staff cannot", async ({ page, browser, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const patientId = insertPatient(db, `Acessos ${tag}`);
    db.close();
    await signIn(page, "admin");
    // 26 views of the record (one page and a bit of the report): 25 as plain requests with the
    // admin's session, each audited like a visit, and the last in the browser.
    for (let i = 0; i < 25; i++) expect((await page.request.get(`/patients/${patientId}`)).status()).toBe(200);
    await page.goto(`/patients/${patientId}`);
    await page.getByRole("link", { name: "Relatório de acessos" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Acessos: Acessos ${tag}` })).toBeVisible();
    const rows = page.getByTestId("access-entry");
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toContainText("Visualização");
    await page.getByRole("link", { name: "Mais antigos" }).click();
    await expect(rows).toHaveCount(1);

    const staffContext = await browser.newContext({ javaScriptEnabled: false });
    const staffPage = await staffContext.newPage();
    await signIn(staffPage, "staff");
    await staffPage.goto(`/patients/${patientId}`);
    await expect(staffPage.getByRole("link", { name: "Relatório de acessos" })).toHaveCount(0);
    expect((await staffPage.goto(`/patients/${patientId}/acessos`))?.status()).toBe(403);
    await staffContext.close();
  });
});

test("staff records and revokes a consent on the record; the history keeps both", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const patientId = insertPatient(db, `Consentimento ${tag}`);
  await signIn(page, "staff");
  await page.goto(`/patients/${patientId}`);
  const image = page.getByTestId("consent").filter({ hasText: "Uso de imagem" });
  await expect(image).toContainText("Não registrado");
  await image.getByRole("link", { name: "Registrar: Uso de imagem" }).click();
  let dialog = page.getByRole("dialog", { name: "Consentimento: Uso de imagem" });
  await dialog.getByLabel("Decisão do paciente").selectOption({ label: "Autoriza" });
  await dialog.getByLabel("Origem").selectOption({ label: "Termo assinado" });
  await dialog.getByRole("button", { name: "Registrar" }).click();
  await expectToast(page, "Consentimento registrado");
  await expect(image).toContainText("Autorizado");
  await expect(image).toContainText("Termo assinado");

  await image.getByRole("link", { name: "Registrar: Uso de imagem" }).click();
  dialog = page.getByRole("dialog", { name: "Consentimento: Uso de imagem" });
  await dialog.getByLabel("Decisão do paciente").selectOption({ label: "Revoga / não autoriza" });
  await dialog.getByLabel("Origem").selectOption({ label: "Verbal (registrado pela equipe)" });
  await dialog.getByRole("button", { name: "Registrar" }).click();
  await expect(image).toContainText("Revogado");
  await image.getByRole("link", { name: "Registrar: Uso de imagem" }).click();
  const history = page.getByRole("dialog").getByRole("region", { name: "Histórico do consentimento" }).getByRole("listitem");
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText("Revogado");
  await expect(history.last()).toContainText("Autorizado");
  const rows = db.prepare("select granted, source from patient_consents where patient_id = ? order by id").all(patientId);
  expect(rows).toEqual([
    { granted: 1, source: "formulario" },
    { granted: 0, source: "verbal" },
  ]);
  db.close();
});

test("Configurações: the document size limit is validated", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto("/settings");
  const limit = page.getByLabel("Tamanho máximo de documentos (MB)");
  await expect(limit).toHaveValue(/^\d+$/);
  await limit.fill("500");
  await page.getByRole("button", { name: "Salvar Alterações" }).click();
  await expect(page.getByText("O máximo é 200 MB")).toBeVisible();
});

test.describe("LGPD rights without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin anonymises a patient after confirming: identifiers go, the surgery and its money stay", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const patientId = insertPatient(db, `Apagar ${tag}`, { cpf: null, phone: "11987659999", email: `apagar-${tag}@exemplo.com` });
    const doctorId = insertDoctor(db, `Dr. Anon ${tag}`);
    db.prepare(
      "insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, billed_amount_cents) values (?, ?, 'Microdiscectomia', ?, 987600)",
    ).run(patientId, doctorId, Date.UTC(2025, 5, 1));
    await signIn(page, "admin");
    await page.goto(`/patients/${patientId}`);
    await page.getByRole("link", { name: "Anonimizar paciente" }).click();
    const dialog = page.getByRole("dialog", { name: "Anonimizar paciente" });
    await expect(dialog).toContainText("Lei 13.787/2018");
    await dialog.getByRole("button", { name: "Anonimizar" }).click();
    await expect(page.getByRole("dialog", { name: "Anonimizar paciente" }).getByRole("alert")).toContainText("Marque a confirmação");
    await page.getByRole("dialog", { name: "Anonimizar paciente" }).getByRole("checkbox").check();
    await page.getByRole("dialog", { name: "Anonimizar paciente" }).getByRole("button", { name: "Anonimizar" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Paciente anonimizado nº ${patientId}` })).toBeVisible();
    await expect(page.getByText("(11) 98765-9999")).toHaveCount(0);
    await expect(page.getByTestId("timeline-item").filter({ hasText: "Microdiscectomia" })).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Anonimizar paciente" })).toHaveCount(0);
    const row = db.prepare("select name, phone, email from patients where id = ?").get(patientId);
    expect(row).toEqual({ name: `Paciente anonimizado nº ${patientId}`, phone: null, email: null });
    const surgery = db.prepare("select billed_amount_cents as cents from surgeries where patient_id = ?").get(patientId);
    expect(surgery).toEqual({ cents: 987600 });
    db.close();
  });
});

test("an admin downloads the patient's data as a ZIP from the record", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const patientId = insertPatient(db, `Exportar ${tag}`);
  db.close();
  await signIn(page, "admin");
  await page.goto(`/patients/${patientId}`);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exportar dados (LGPD)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`paciente-${patientId}-dados.zip`);
  const bytes = fs.readFileSync(await download.path());
  // A ZIP (local file header) holding the JSON and the summary.
  expect(bytes.subarray(0, 4).toString("hex")).toBe("504b0304");
  expect(bytes.includes(Buffer.from("paciente.json"))).toBe(true);
  expect(bytes.includes(Buffer.from("resumo.html"))).toBe(true);
});
