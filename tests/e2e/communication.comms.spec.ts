import { type Page, expect as baseExpect } from "@playwright/test";
import { test } from "./fixtures";
import { createHmac } from "node:crypto";
import { COMMS_APP_SECRET, COMMS_FAKE_PORT } from "../../playwright.config";
import { type FakeWhatsApp, startFakeWhatsApp } from "../support/fake-whatsapp";
import { insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

/**
 * The communication centre with WhatsApp configured: the server's Cloud API is the fake started
 * here (WHATSAPP_API_URL points at COMMS_FAKE_PORT), so a quick send really travels to it.
 * The tests build on each other (a template made by the admin is then sent), so they run in order.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });
/** The machine running the suite is shared and often busy: generous waits, same assertions. */
const expect = baseExpect.configure({ timeout: 20_000 });

let fake: FakeWhatsApp;
const tag = uniqueTag();
const TEMPLATE = `Lembrete e2e ${tag}`;
const META_NAME = `lembrete_e2e_${tag.replace(/[^a-z0-9]/g, "")}`;
const PATIENT = `Helena Quintana ${tag}`;
const db = openTestDb("comms");
let patientId: number;

test.beforeAll(async () => {
  fake = await startFakeWhatsApp(COMMS_FAKE_PORT);
  patientId = insertPatient(db, PATIENT, { phone: "11987651234" });
  db.prepare("update patients set whatsapp_opt_in = 1, whatsapp_opt_in_at = ? where id = ?").run(Date.now(), patientId);
});

test.afterAll(async () => {
  await fake?.close();
});

function lastSend() {
  const request = fake.requests.at(-1);
  return request?.body as { to: string; template: { name: string; language: { code: string }; components: { parameters: { text: string }[] }[] } } | undefined;
}

async function openCommunication(page: Page) {
  await page.goto("/comunicacao");
  await expect(page.getByRole("heading", { name: "Envio rápido" })).toBeVisible();
}

test("an admin creates an approved template mapped to Meta; unknown placeholders are refused", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await openCommunication(page);
  await expect(page.getByText("WhatsApp não configurado")).toHaveCount(0);
  await page.getByRole("link", { name: "Novo template" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo template" });
  await dialog.getByLabel("Título").fill(TEMPLATE);
  await dialog.getByLabel("Categoria").selectOption({ label: "Agendamento e Confirmações" });
  await dialog.getByLabel("Status").selectOption({ label: "Aprovado" });
  await dialog.getByLabel("Texto").fill("Olá, {{paciente.nome}}! Consulta em {{data}} às {{horario}} com {{medico.nome}}. CPF {{cpf}}");
  await dialog.getByLabel("Nome do template na Meta").fill(META_NAME);
  await dialog.getByRole("button", { name: "Criar template" }).click();
  await expect(dialog.getByText(/Variável desconhecida: \{\{cpf\}\}/)).toBeVisible();

  await dialog.getByLabel("Texto").fill("Olá, {{paciente.nome}}! Consulta em {{data}} às {{horario}} com {{medico.nome}}.");
  await dialog.getByRole("button", { name: "Criar template" }).click();
  await expectToast(page, "Template criado");
  const section = page.getByRole("region", { name: "2. Agendamento e Confirmações" });
  await expect(section.getByText(TEMPLATE)).toBeVisible();
  await expect(section.getByText(`Meta: ${META_NAME} · pt_BR`)).toBeVisible();

  await section.getByRole("link", { name: `Editar template ${TEMPLATE}` }).click();
  const edit = page.getByRole("dialog", { name: "Editar template" });
  await expect(edit.getByLabel("Título")).toHaveValue(TEMPLATE);
  await edit.getByRole("button", { name: "Salvar alterações" }).click();
  await expectToast(page, "Template atualizado");
});

test("quick send (JavaScript on): picker over all patients, live preview, sent to the Cloud API", async ({ page, signIn }) => {
  await signIn(page, "staff");
  await openCommunication(page);
  const form = page.getByRole("form", { name: "Envio rápido" });
  // The text box appears once the page is hydrated (before, the no-JS select carries the name and
  // the browser's own check of the required select stops the click, so no message would show).
  const combobox = form.getByRole("combobox", { name: "Paciente" }).and(form.locator("input"));
  await expect(combobox).toBeVisible();
  // Nothing chosen: the form says so and sends nothing.
  await form.getByRole("button", { name: "Enviar mensagem" }).click();
  await expect(form.getByText("Selecione um paciente e um template")).toBeVisible();

  await combobox.fill(`Helena Quintana ${tag}`);
  await form.getByRole("option", { name: PATIENT }).click();
  await form.getByLabel("Template aprovado").selectOption({ label: TEMPLATE });
  const preview = form.getByTestId("quick-send-preview");
  await expect(preview).toHaveText(`Olá, ${PATIENT}! Consulta em {{data}} às {{horario}} com {{medico.nome}}.`);
  await form.getByLabel("data", { exact: true }).fill("12/03/2026");
  await form.getByLabel("horario").fill("14:30");
  await form.getByLabel("medico.nome").fill("Dr. Ricardo Lima");
  await expect(preview).toHaveText(`Olá, ${PATIENT}! Consulta em 12/03/2026 às 14:30 com Dr. Ricardo Lima.`);
  await form.getByRole("button", { name: "Enviar mensagem" }).click();
  await expectToast(page, "Mensagem enviada com sucesso!");

  await expect.poll(() => fake.requests.length).toBe(1);
  expect(lastSend()).toMatchObject({
    to: "5511987651234",
    template: { name: META_NAME, language: { code: "pt_BR" } },
  });
  expect(lastSend()!.template.components[0].parameters.map((p) => p.text)).toEqual([PATIENT, "12/03/2026", "14:30", "Dr. Ricardo Lima"]);
  await expect(async () => {
    await page.reload();
    const recent = page.getByRole("list", { name: "Mensagens recentes" }).getByRole("listitem").first();
    await expect(recent).toContainText(PATIENT);
    await expect(recent).toContainText("Enviada");
  }).toPass({ timeout: 15_000 });
});

test("quick send without JavaScript: search, load the template and its preview, send", async ({ browser, signIn }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "staff");
  await page.goto("/communication");
  const form = page.getByRole("form", { name: "Envio rápido" });
  await form.getByRole("searchbox", { name: "Buscar paciente" }).fill(PATIENT);
  await form.getByRole("button", { name: "Buscar" }).click();
  await form.getByRole("combobox", { name: /^Paciente/ }).selectOption({ label: PATIENT });
  await form.getByLabel("Template aprovado").selectOption({ label: TEMPLATE });
  await form.getByRole("button", { name: "Carregar template e prévia" }).click();
  await expect(form.getByTestId("quick-send-preview")).toHaveText(`Olá, ${PATIENT}! Consulta em {{data}} às {{horario}} com {{medico.nome}}.`);
  await expect(form.getByText(/Opt-in do WhatsApp registrado/)).toBeVisible();
  await form.getByLabel("data", { exact: true }).fill("13/03/2026");
  await form.getByLabel("horario").fill("09:00");
  // One variable left empty: refused with the server's text, what was typed is kept.
  await form.getByRole("button", { name: "Enviar mensagem" }).click();
  await expect(form.getByText("Preencha as variáveis: medico.nome.")).toBeVisible();
  await expect(form.getByLabel("horario")).toHaveValue("09:00");
  await form.getByLabel("medico.nome").fill("Dra. Paula Reis");
  await form.getByRole("button", { name: "Enviar mensagem" }).click();
  // Post/redirect/get back to the tab, the form empty again and the message at the top of the list.
  await expect(page).toHaveURL(/\/communication\?tab=whatsapp$/);
  await expect(page.getByRole("list", { name: "Mensagens recentes" }).getByRole("listitem").first()).toContainText("13/03/2026 às 09:00");
  await expect.poll(() => fake.requests.length).toBe(2);
  expect(lastSend()!.template.components[0].parameters.map((p) => p.text)).toEqual([PATIENT, "13/03/2026", "09:00", "Dra. Paula Reis"]);
  await context.close();
});

test("a signed status webhook marks the message read; the log filters by status, patient and template", async ({ page, request, signIn }) => {
  const wamid = (db.prepare("select external_id from messages where patient_id = ? order by id limit 1").get(patientId) as { external_id: string }).external_id;
  const body = JSON.stringify({ entry: [{ changes: [{ value: { statuses: [{ id: wamid, status: "read", timestamp: String(Math.floor(Date.now() / 1000)) }] } }] }] });
  const forged = await request.post("/api/comms/webhook", { data: body, headers: { "Content-Type": "application/json", "X-Hub-Signature-256": `sha256=${"0".repeat(64)}` } });
  expect(forged.status()).toBe(401);
  const signature = `sha256=${createHmac("sha256", COMMS_APP_SECRET).update(body).digest("hex")}`;
  const accepted = await request.post("/api/comms/webhook", { data: body, headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signature } });
  expect(accepted.status()).toBe(200);

  await signIn(page, "doctor");
  await page.goto("/comunicacao/mensagens");
  await page.getByLabel("Status").selectOption({ label: "Lida" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/status=read/);
  const rows = page.getByRole("table", { name: "Mensagens" }).getByRole("row");
  await expect(rows.filter({ hasText: PATIENT })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Enviada" })).toHaveCount(0);

  await page.getByLabel("Status").selectOption({ label: "Todos os status" });
  await page.getByLabel("Template").selectOption({ label: TEMPLATE });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(rows.filter({ hasText: PATIENT })).toHaveCount(2);

  const combobox = page.getByRole("combobox", { name: "Paciente" }).and(page.locator("input"));
  await combobox.fill(PATIENT);
  await page.getByRole("option", { name: PATIENT }).click();
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(new RegExp(`patient=${patientId}`));
  await expect(rows.filter({ hasText: PATIENT })).toHaveCount(2);
  await page.getByRole("link", { name: "Limpar filtros" }).click();
  await expect(page).not.toHaveURL(/template=/);
});
