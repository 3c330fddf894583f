import { expect as baseExpect } from "@playwright/test";
import { test } from "./fixtures";
import { openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

test.describe.configure({ timeout: 120_000 });
/** The machine running the suite is shared and often busy: generous waits, same assertions. */
const expect = baseExpect.configure({ timeout: 20_000 });

/** On a server without WhatsApp configuration the page says so plainly and still works. */
test("without WhatsApp configured the page says so; tabs work without JavaScript", async ({ browser, signIn }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "admin");
  await page.goto("/comunicacao");
  await expect(page.getByText("WhatsApp não configurado")).toBeVisible();
  for (const title of ["Pacientes com opt-in", "Enviadas (30 dias)", "Pastas no Drive", "Regras ativas"]) {
    await expect(page.getByText(title, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "1. Pós-Consulta" })).toBeVisible();
  await page.getByRole("link", { name: "Google Drive" }).first().click();
  await expect(page.getByRole("link", { name: "Abrir Google Drive" })).toHaveAttribute("href", "/google-drive");
  await page.getByRole("link", { name: "Automação" }).click();
  await expect(page.getByRole("heading", { name: "Regras de automação" })).toBeVisible();
  await context.close();
});

/** The page's markup kept between views (ADR 0025) is kept per address: its form and links lead back to the page they are on. */
test("under either address the quick send and the template links stay on that address", async ({ browser, signIn }) => {
  const db = openTestDb("app");
  db.prepare("insert into message_templates (title, category, status, body) values (?, 'encerramento', 'rascunho', 'Até breve, {{paciente.nome}}.')").run(`Despedida ${uniqueTag()}`);
  db.close();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "admin");
  for (const path of ["/comunicacao", "/communication", "/comunicacao"]) {
    for (let view = 0; view < 2; view += 1) {
      await page.goto(`${path}?tab=whatsapp`);
      await expect(page.getByRole("form", { name: "Envio rápido" })).toHaveAttribute("action", `${path}?tab=whatsapp`);
      await expect(page.getByRole("link", { name: /^Editar template / }).first()).toHaveAttribute("href", new RegExp(`^${path}\\?tab=whatsapp&template=`));
    }
  }
  await context.close();
});

test("an admin creates an automation rule and switches it off", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb("app");
  const title = `Pré-operatório ${tag}`;
  db.prepare("insert into message_templates (title, category, status, body, meta_name) values (?, 'procedimentos', 'aprovado', ?, ?)").run(
    title,
    "{{paciente.nome}}, sua cirurgia ({{procedimento}}) será em {{data}} às {{horario}}, {{local}}.",
    `pre_op_${tag.replace(/[^a-z0-9]/g, "")}`,
  );
  await signIn(page, "admin");
  await page.goto("/communication?tab=automacao");
  await page.getByRole("link", { name: "Nova regra" }).click();
  const dialog = page.getByRole("dialog", { name: "Nova regra" });
  await dialog.getByLabel("Nome da regra").fill(`Orientações ${tag}`);
  await dialog.getByLabel("Tipo").selectOption({ label: "Orientações pré-operatórias (dias antes)" });
  await dialog.getByLabel(/Quantidade/).fill("40");
  await dialog.getByLabel("Template aprovado").selectOption({ label: title });
  await dialog.getByRole("button", { name: "Criar regra" }).click();
  await expect(dialog.getByText("Use um valor de 1 a 30")).toBeVisible();
  await dialog.getByLabel(/Quantidade/).fill("2");
  await dialog.getByRole("button", { name: "Criar regra" }).click();
  await expectToast(page, "Regra criada");
  const rule = page.getByRole("list", { name: "Regras de automação" }).getByRole("listitem").filter({ hasText: `Orientações ${tag}` });
  await expect(rule).toContainText("2 dia(s) antes da cirurgia");
  const toggle = rule.getByRole("switch");
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expectToast(page, "Regra desativada");
  await expect(rule.getByRole("switch")).toHaveAttribute("aria-checked", "false");
});
