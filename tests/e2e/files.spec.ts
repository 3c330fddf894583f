import { expect, test } from "./fixtures";
import { insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const HTML = Buffer.from("<!doctype html><html><body><h1>Não sou um PDF</h1><script>alert(1)</script></body></html>");

function newPatient() {
  const tag = uniqueTag();
  const db = openTestDb();
  const id = insertPatient(db, `Paciente Arquivo ${tag}`);
  const documentsOf = () =>
    db.prepare("select original_name as name, category, mime_type as mime from documents where patient_id = ?").all(id) as {
      name: string;
      category: string;
      mime: string;
    }[];
  return { tag, id, name: `Paciente Arquivo ${tag}`, documentsOf, close: () => db.close() };
}

test("staff uploads a PDF from the patient's record and downloads it as an attachment", async ({ page, signIn }) => {
  const patient = newPatient();
  await signIn(page, "staff");
  await page.goto(`/patients/${patient.id}`);
  await page.getByRole("link", { name: "Enviar documento" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText(`Paciente: ${patient.name}`)).toBeVisible();
  await dialog.getByLabel("Arquivo").setInputFiles({ name: "Laudo ressonância.pdf", mimeType: "application/pdf", buffer: PDF });
  await dialog.getByLabel("Categoria").selectOption({ label: "Laudo" });
  await dialog.getByLabel("Observação").fill("RM lombar");
  await dialog.getByRole("button", { name: "Enviar documento" }).click();
  await expectToast(page, "File uploaded successfully");
  await expect(page).toHaveURL(new RegExp(`/patients/${patient.id}$`));
  expect(patient.documentsOf()).toEqual([{ name: "Laudo ressonância.pdf", category: "laudo", mime: "application/pdf" }]);

  const card = page.getByRole("list", { name: "Documentos recentes" });
  const downloadPromise = page.waitForEvent("download");
  await card.getByRole("link", { name: "Laudo ressonância.pdf" }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe("Laudo ressonância.pdf");

  const href = await card.getByRole("link", { name: "Laudo ressonância.pdf" }).getAttribute("href");
  const response = await page.request.get(href!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-disposition"]).toMatch(/^attachment;/);
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  expect(Buffer.from(await response.body()).equals(PDF)).toBe(true);
  patient.close();
});

test("an HTML page disguised as a PDF is refused with a clear message and nothing is kept", async ({ page, signIn }) => {
  const patient = newPatient();
  await signIn(page, "staff");
  await page.goto(`/files?dialog=upload&patientId=${patient.id}`);
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Arquivo").setInputFiles({ name: "exame.pdf", mimeType: "application/pdf", buffer: HTML });
  await dialog.getByLabel("Categoria").selectOption({ label: "Exame" });
  await dialog.getByRole("button", { name: "Enviar documento" }).click();
  await expect(dialog.getByText("Apenas arquivos PDF ou imagens são permitidos")).toBeVisible();
  expect(patient.documentsOf()).toEqual([]);
  patient.close();
});

test("an account without a role cannot download; a doctor can list but not upload", async ({ page, browser, signIn }) => {
  const patient = newPatient();
  await signIn(page, "staff");
  await page.goto(`/files?dialog=upload&patientId=${patient.id}`);
  await page.getByRole("dialog").getByLabel("Arquivo").setInputFiles({ name: "termo.pdf", mimeType: "application/pdf", buffer: PDF });
  await page.getByRole("dialog").getByLabel("Categoria").selectOption({ label: "Termo de consentimento" });
  await page.getByRole("dialog").getByRole("button", { name: "Enviar documento" }).click();
  await expectToast(page, "File uploaded successfully");
  const href = await page.getByRole("row", { name: new RegExp(patient.tag) }).getByRole("link", { name: "Baixar termo.pdf" }).getAttribute("href");

  const pendingContext = await browser.newContext();
  const pending = await pendingContext.newPage();
  await signIn(pending, "pending");
  expect((await pending.request.get(href!, { maxRedirects: 0 })).status()).toBe(403);
  await pendingContext.close();

  const doctorContext = await browser.newContext();
  const doctor = await doctorContext.newPage();
  await signIn(doctor, "doctor");
  await doctor.goto(`/files?q=${patient.tag}`);
  await expect(doctor.getByRole("row", { name: new RegExp(patient.tag) })).toContainText("Termo de consentimento");
  await expect(doctor.getByRole("link", { name: "Enviar documento" })).toHaveCount(0);
  expect((await doctor.request.get(href!)).status()).toBe(200);
  await doctorContext.close();
  patient.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("staff picks the patient, uploads a PDF and finds it in /files", async ({ page, signIn }) => {
    const patient = newPatient();
    await signIn(page, "staff");
    await page.goto("/files");
    await page.getByRole("link", { name: "Enviar documento" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Buscar paciente").fill(patient.tag);
    await dialog.getByRole("button", { name: "Buscar" }).click();
    await page.getByRole("dialog").getByRole("combobox", { name: "Paciente" }).selectOption({ label: patient.name });
    await page.getByRole("dialog").getByRole("button", { name: "Continuar" }).click();
    await expect(page.getByRole("dialog").getByText(`Paciente: ${patient.name}`)).toBeVisible();
    await page.getByRole("dialog").getByLabel("Arquivo").setInputFiles({ name: "guia.pdf", mimeType: "application/pdf", buffer: PDF });
    await page.getByRole("dialog").getByLabel("Categoria").selectOption({ label: "Guia" });
    await page.getByRole("dialog").getByRole("button", { name: "Enviar documento" }).click();
    await expect(page.getByRole("row", { name: new RegExp(patient.tag) })).toContainText("guia.pdf");
    expect(patient.documentsOf()).toEqual([{ name: "guia.pdf", category: "guia", mime: "application/pdf" }]);

    // The disguised page is refused without JavaScript too.
    await page.goto(`/files?dialog=upload&patientId=${patient.id}`);
    await page.getByRole("dialog").getByLabel("Arquivo").setInputFiles({ name: "laudo.pdf", mimeType: "application/pdf", buffer: HTML });
    await page.getByRole("dialog").getByLabel("Categoria").selectOption({ label: "Laudo" });
    await page.getByRole("dialog").getByRole("button", { name: "Enviar documento" }).click();
    await expect(page.getByRole("dialog").getByText("Apenas arquivos PDF ou imagens são permitidos")).toBeVisible();
    expect(patient.documentsOf()).toHaveLength(1);
    patient.close();
  });
});
