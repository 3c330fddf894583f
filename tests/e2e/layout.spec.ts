import { type Page, expect, test } from "@playwright/test";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { loginAs } from "./helpers";

/** Every built screen (and one 'em construção' page), as a signed-in admin sees it. */
const SCREENS = [
  "/dashboard",
  "/patients",
  "/doctors",
  "/appointments",
  "/schedule?view=day",
  "/schedule?view=week",
  "/schedule?view=month",
  "/surgeries",
  "/pipeline",
  "/files",
  "/files?dialog=upload",
  "/settings",
  "/settings?tab=usuarios",
  "/settings/audit",
  "/settings/backups",
  "/settings/holidays",
  "/settings/checklists",
  "/tasks",
  "/communication",
  "/communication?tab=automacao",
  "/communication?tab=whatsapp&template=new",
  "/communication/messages",
  "/master-data/payers",
  "/master-data/codes",
  "/sops",
  "/orders",
  "/referrers",
  "/financial",
  "/procedures",
  "/surgical-groups",
  "/cirurgico/grupos/neurocirurgia",
  "/financeiro/cirurgias-receber",
  "/financeiro/cirurgias-pagas",
];

const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The patient of the long line, whose record is checked too. */
let longNamePatient = 0;

/** A long appointment line today, so the lists and the schedule have content that could overflow. */
test.beforeAll(() => {
  const tag = uniqueTag();
  const db = openTestDb("app");
  try {
    const patient = insertPatient(db, `Maria da Conceição Gonçalves de Albuquerque ${tag}`, { email: `conceicao.${tag}@exemplo.com.br` });
    longNamePatient = patient;
    const doctor = insertDoctor(db, `Dr. Layout Responsivo ${tag}`);
    const start = Date.now() + 60 * 60 * 1000;
    db.prepare(
      "insert into appointments (patient_id, doctor_id, start_time, end_time, status, type, location) values (?, ?, ?, ?, 'cancelled', 'Primeira consulta', 'Consultório 3')",
    ).run(patient, doctor, start, start + 30 * 60 * 1000);
  } finally {
    db.close();
  }
});

async function horizontalOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

for (const [name, viewport] of [["desktop 1366×800", DESKTOP], ["phone 390×844", PHONE]] as const) {
  test.describe(`no screen scrolls sideways on ${name}`, () => {
    test.use({ viewport });

    for (const path of SCREENS) {
      test(path, async ({ page }) => {
        await loginAs(page, "admin");
        await page.goto(path);
        await expect(page.locator("main")).toBeVisible();
        expect(await horizontalOverflow(page), `${path} is wider than the window`).toBeLessThanOrEqual(0);
      });
    }

    test("/patients/:id (the patient's record)", async ({ page }) => {
      await loginAs(page, "admin");
      await page.goto(`/patients/${longNamePatient}`);
      await expect(page.getByTestId("timeline-item").first()).toBeVisible();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    });

    test("/auth", async ({ page }) => {
      await page.goto("/auth");
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page.goto("/auth?tab=signup");
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    });
  });
}

test("an error under one field of a row leaves the field beside it where it was", async ({ page }) => {
  await loginAs(page, "staff");
  await page.goto("/patients?dialog=new");
  const dialog = page.getByRole("dialog");
  const cpf = dialog.getByLabel("CPF");
  const birth = dialog.getByLabel("Data de nascimento");
  await dialog.getByLabel("Nome").fill("Paciente Alinhado");
  await cpf.fill("123");
  await dialog.getByRole("button", { name: "Cadastrar paciente" }).click();
  await expect(dialog.getByText("CPF inválido")).toBeVisible();
  // Labels and inputs of the row stay on one line; the error only adds height below the CPF box.
  const top = async (locator: typeof cpf) => (await locator.boundingBox())?.y;
  expect(await top(dialog.locator("label", { hasText: "Data de nascimento" }))).toBe(await top(dialog.locator("label", { hasText: "CPF" })));
  expect(await top(birth)).toBe(await top(cpf));
  expect((await birth.boundingBox())?.height).toBe((await cpf.boundingBox())?.height);
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("pagination fits: 'Próxima' is inside the window", async ({ page }) => {
    await loginAs(page, "admin");
    for (const path of ["/patients", "/appointments", "/doctors", "/surgeries"]) {
      await page.goto(path);
      const next = page.getByRole("navigation", { name: "Paginação" }).getByText("Próxima");
      await expect(next).toBeVisible();
      const box = await next.boundingBox();
      expect(box && box.x + box.width, `${path}: 'Próxima' is cut off`).toBeLessThanOrEqual(PHONE.width);
    }
  });

  test("the sidebar is a drawer: menu button opens it, close button, Escape, backdrop and links close it", async ({ page }) => {
    await loginAs(page, "admin");
    await page.goto("/patients");
    const sidebar = page.getByRole("complementary", { name: "Menu principal" });
    const menuButton = page.getByRole("button", { name: "Abrir menu" });
    await expect(sidebar).toBeHidden();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");

    await menuButton.click();
    await expect(sidebar).toBeVisible();
    await expect(menuButton).toHaveAttribute("aria-expanded", "true");
    // Labels, not just icons; focus starts in the drawer.
    await expect(sidebar.getByRole("link", { name: "Pacientes" }).first()).toBeVisible();
    await expect(sidebar.getByRole("link", { name: "Pacientes" }).first()).toContainText("Pacientes");
    await expect(sidebar.getByRole("button", { name: "Fechar menu" })).toBeFocused();
    await sidebar.getByRole("button", { name: "Fechar menu" }).click();
    await expect(sidebar).toBeHidden();
    await expect(menuButton).toBeFocused();

    await menuButton.click();
    await expect(sidebar).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(sidebar).toBeHidden();

    await menuButton.click();
    await expect(sidebar).toBeVisible();
    // The backdrop covers the page to the right of the drawer.
    await page.mouse.click(PHONE.width - 20, PHONE.height / 2);
    await expect(sidebar).toBeHidden();

    await menuButton.click();
    await sidebar.getByRole("link", { name: "Médicos" }).click();
    await expect(page).toHaveURL(/\/doctors$/);
    await expect(sidebar).toBeHidden();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("narrowing the window turns the sidebar into the drawer, widening it back restores the column", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await loginAs(page, "admin");
    const sidebar = page.getByRole("complementary", { name: "Menu principal" });
    await expect(sidebar).toBeVisible();
    await expect(sidebar).toHaveCSS("width", "256px");
    await expect(page.getByRole("button", { name: "Abrir menu" })).toBeHidden();

    await page.setViewportSize(PHONE);
    await expect(sidebar).toBeHidden();
    await page.getByRole("button", { name: "Abrir menu" }).click();
    await expect(sidebar).toBeVisible();

    // Growing wide with the drawer open: the drawer is gone, the column is back, the page usable.
    await page.setViewportSize(DESKTOP);
    await expect(sidebar).toHaveCSS("width", "256px");
    await expect(page.getByRole("button", { name: "Abrir menu" })).toBeHidden();
    await expect(page.getByTestId("drawer-backdrop")).toHaveCount(0);
    await sidebar.getByRole("link", { name: "Médicos" }).click();
    await expect(page).toHaveURL(/\/doctors$/);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the sidebar is part of the page and its links work, with nothing wider than the window", async ({ page }) => {
      await loginAs(page, "staff");
      await page.goto("/doctors");
      const sidebar = page.getByRole("complementary", { name: "Menu principal" });
      await expect(sidebar).toBeVisible();
      await expect(page.getByRole("button", { name: "Abrir menu" })).toBeHidden();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await sidebar.locator('details[data-group-id="pacientes"] summary').click();
      await sidebar.getByRole("link", { name: "Consultas" }).click();
      await expect(page).toHaveURL(/\/appointments$/);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    });
  });
});
