import { type Locator, type Page, expect } from "@playwright/test";
import { ACCOUNTS, type AccountName, PASSWORD } from "./accounts";

/**
 * Signs in through the form and waits until the app has left /auth, so the next navigation carries
 * the session. Only for tests about signing in or out, sessions, second factors and onboarding:
 * every other test takes a shared session with the `signIn` fixture (tests/e2e/fixtures.ts).
 */
export async function loginAs(page: Page, account: AccountName) {
  await login(page, ACCOUNTS[account].email, PASSWORD);
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
}

export async function login(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

export async function logout(page: Page) {
  await page.getByLabel("Menu do usuário").click();
  await page.getByRole("button", { name: "Sair" }).click();
  await expect(page).toHaveURL(/\/auth$/);
}

/** Posts a form to the app with the page's cookies, as a forged request from a crafted page would. */
export async function forgePost(page: Page, path: string, fields: Record<string, string>) {
  return page.request.post(path, { form: fields, maxRedirects: 0, failOnStatusCode: false });
}

/** How many pixels the page is wider than its window (0 or less: nothing scrolls sideways). */
export async function horizontalOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * The newest toast on screen says `text`. Two toasts with the same message can be up at once (the
 * previous save's is still fading), so this looks at sonner's front toast only; without JavaScript,
 * at the notice the server renders in its place.
 */
export async function expectToast(page: Page, text: string | RegExp) {
  const newest = page.locator('[data-sonner-toast][data-front="true"], noscript > [role="status"]');
  await expect(newest.filter({ hasText: text })).toBeVisible();
}

/**
 * Opens a pipeline card's 'Mover' menu without JavaScript: the disclosure holds a link to the same
 * board with that card's menu rendered (`?mover=`), whose stage buttons and links are then in `card`.
 */
export async function openMoveMenuWithoutJs(card: Locator) {
  await card.getByText("Mover").click();
  await card.getByRole("link", { name: /^Escolher a etapa/ }).click();
  await expect(card.getByRole("list", { name: /^Mover .* para$/ })).toBeVisible();
}
