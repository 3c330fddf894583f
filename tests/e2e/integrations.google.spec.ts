import { expect as baseExpect } from "@playwright/test";
import { test } from "./fixtures";
import { GOOGLE_FAKE_PORT } from "../../playwright.config";
import { type FakeGoogle, startFakeGoogle } from "../support/fake-google";
import { expectToast } from "./helpers";

/**
 * The Google integrations against the fake Google (GOOGLE_API_ROOT_URL points at GOOGLE_FAKE_PORT):
 * the browser really goes to the fake's consent page and comes back through the callback.
 * The tests share the server's one connection, so they run in order.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

let fake: FakeGoogle;

test.beforeAll(async () => {
  fake = await startFakeGoogle(GOOGLE_FAKE_PORT);
});

test.afterAll(async () => {
  await fake?.close();
});

test("an administrator connects, sees the calendars, uploads to Drive, creates a form and disconnects", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto("/google-calendar");
  await expect(page.getByText("Não conectado")).toBeVisible();
  await page.getByRole("link", { name: "Conectar com Google" }).click();

  // The fake consents at once; the callback shows the result and returns after 2 s.
  await expect(page.getByRole("heading", { name: "Google Calendar conectado com sucesso!" })).toBeVisible();
  await expect(page).toHaveURL(/\/google-calendar$/, { timeout: 10_000 });
  await expect(page.getByText("Conectado", { exact: true })).toBeVisible();
  await expect(page.getByText("clinica@example.com").first()).toBeVisible();
  const calendars = page.getByRole("table", { name: "Calendários" });
  await expect(calendars.getByRole("row", { name: /Clínica Sinapse/ })).toContainText("America/Sao_Paulo");
  await expect(calendars.getByRole("row", { name: /Cirurgias/ })).toBeVisible();
  // The token exchange carried the PKCE verifier (the fake refuses it otherwise).
  expect(fake.count("POST", "/token")).toBe(1);

  // Where appointments and surgeries go: one calendar of the account for the clinic, full names.
  const push = page.locator("form#calendar-settings");
  await push.getByLabel("Enviar para").selectOption({ label: "Um calendário para a clínica" });
  await push.getByRole("button", { name: "Salvar envio" }).click();
  await expect(push.getByText("Escolha o calendário da clínica")).toBeVisible();
  await push.getByLabel("Calendário da clínica").selectOption({ label: "Cirurgias" });
  await push.getByLabel("Paciente nos eventos").selectOption({ label: "Nome completo" });
  await push.getByRole("button", { name: "Salvar envio" }).click();
  await expectToast(page, "Envio para o Google Calendar salvo");
  await page.reload();
  await expect(push.getByLabel("Calendário da clínica")).toHaveValue("cirurgias@group.calendar.google.com");
  await expect(push.getByLabel("Paciente nos eventos")).toHaveValue("full");

  // Drive: the limit and types are shown; the file travels to the fake and is listed newest first.
  await page.goto("/google-drive");
  await expect(page.getByText("No files uploaded yet")).toBeVisible();
  await expect(page.getByText("PDF, JPG, PNG, WEBP, HEIC até 20 MB")).toBeVisible();
  await page.getByLabel("Arquivo", { exact: true }).setInputFiles({ name: "laudo-e2e.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await page.getByRole("button", { name: "Enviar ao Drive" }).click();
  await expectToast(page, "File uploaded successfully");
  await expect(page.getByRole("table", { name: "Arquivos no Google Drive" }).getByRole("row", { name: /laudo-e2e\.pdf/ })).toBeVisible();
  expect(fake.files.map((f) => f.name)).toEqual(["laudo-e2e.pdf"]);

  // Forms: Create Form makes it through the Forms API; Open goes to its responder link.
  await page.goto("/google-forms");
  await page.getByRole("link", { name: "Create Form" }).click();
  await page.getByRole("dialog").getByLabel("Título").fill("Triagem de coluna");
  await page.getByRole("dialog").getByRole("button", { name: "Criar formulário" }).click();
  await expect(page.getByRole("row", { name: /Triagem de coluna/ }).getByRole("link", { name: /Open/ })).toHaveAttribute("href", /docs\.google\.com\/forms/);
  expect(fake.forms.map((f) => f.title)).toEqual(["Triagem de coluna"]);

  await page.goto("/google-calendar");

  await page.getByRole("link", { name: "Desconectar" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Desconectar" }).click();
  await expect(page.getByText("Não conectado")).toBeVisible();
  await expect(page.getByRole("table", { name: "Calendários" })).toHaveCount(0);
  expect(fake.count("POST", "/revoke")).toBe(1);
  expect(fake.refreshTokens.size).toBe(0);
});

test("a forged or replayed state is refused, with JavaScript off", async ({ browser, signIn }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "admin");
  await page.goto("/google/oauth/callback?code=4/forjado&state=estado-forjado");
  await expect(page.getByRole("heading", { name: "Sessão não encontrada" })).toBeVisible();

  // A real round trip, then the same callback URL again: used once, refused the second time.
  await page.goto("/google-calendar");
  await page.getByRole("link", { name: "Conectar com Google" }).click();
  await expect(page.getByRole("heading", { name: "Google Calendar conectado com sucesso!" })).toBeVisible();
  const callbackUrl = page.url();
  await page.goto(callbackUrl);
  await expect(page.getByRole("heading", { name: "Sessão não encontrada" })).toBeVisible();
  // Without JavaScript the page still goes back by itself (meta refresh, 3 s after an error).
  await expect(page).toHaveURL(/\/google-calendar$/, { timeout: 10_000 });
  await expect(page.getByText("Conectado", { exact: true })).toBeVisible();

  // The push settings save with a plain POST: one calendar per doctor, no patient names.
  const push = page.locator("form#calendar-settings");
  await push.getByLabel("Enviar para").selectOption({ label: "Um calendário por médico" });
  await push.getByLabel("Paciente nos eventos").selectOption({ label: "Sem o nome do paciente" });
  await push.getByRole("button", { name: "Salvar envio" }).click();
  await expect(push.getByLabel("Enviar para")).toHaveValue("doctor");
  await expect(push.getByLabel("Paciente nos eventos")).toHaveValue("none");
  await expect(page.getByRole("heading", { name: "Calendário de cada médico" })).toBeVisible();

  // Staff see the connection and the push settings but cannot change them.
  const staff = await browser.newContext({ javaScriptEnabled: false });
  const staffPage = await staff.newPage();
  await signIn(staffPage, "staff");
  await staffPage.goto("/google-calendar");
  await expect(staffPage.getByRole("table", { name: "Calendários" })).toBeVisible();
  await expect(staffPage.getByRole("link", { name: "Desconectar" })).toHaveCount(0);
  await expect(staffPage.getByText("Sem o nome do paciente")).toBeVisible();
  await expect(staffPage.getByRole("button", { name: /Salvar/ })).toHaveCount(0);
  await staff.close();

  await page.goto("/google-calendar?disconnect=1");
  await page.getByRole("dialog").getByRole("button", { name: "Desconectar" }).click();
  await expect(page.getByText("Não conectado")).toBeVisible();
  await context.close();
});
