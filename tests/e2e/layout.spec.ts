import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { horizontalOverflow } from "./helpers";

/**
 * Layout rules beyond 'no screen scrolls sideways', which tests/e2e/a11y.spec.ts checks on every
 * screen at desktop and phone sizes in the same load as its accessibility checks.
 */

const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

test("an error under one field of a row leaves the field beside it where it was", async ({ page, signIn }) => {
  await signIn(page, "staff");
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

  test("pagination fits: 'Próxima' is inside the window", async ({ page, signIn }) => {
    await signIn(page, "admin");
    for (const path of ["/patients", "/appointments", "/doctors", "/surgeries"]) {
      await page.goto(path);
      const next = page.getByRole("navigation", { name: "Paginação" }).getByText("Próxima");
      await expect(next).toBeVisible();
      const box = await next.boundingBox();
      expect(box && box.x + box.width, `${path}: 'Próxima' is cut off`).toBeLessThanOrEqual(PHONE.width);
    }
  });

  test("the sidebar is a drawer: menu button opens it, close button, Escape, backdrop and links close it", async ({ page, signIn }) => {
    await signIn(page, "admin");
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

  test("narrowing the window turns the sidebar into the drawer, widening it back restores the column", async ({ page, signIn }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, "admin");
    await page.goto("/dashboard");
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

    test("the sidebar is part of the page and its links work, with nothing wider than the window", async ({ page, signIn }) => {
      await signIn(page, "staff");
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
