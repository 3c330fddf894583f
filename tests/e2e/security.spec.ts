import { expect, test } from "@playwright/test";
import { ACCOUNTS, PASSWORD } from "./accounts";
import { loginAs } from "./helpers";

test("a flood of 80 000 repeated fields is refused fast while the server keeps answering others", async ({ request, baseURL }) => {
  const flood = "a=b&".repeat(80_000);
  const started = Date.now();
  const [refused, other] = await Promise.all([
    fetch(`${baseURL}/auth`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: flood,
    }).then(async (response) => ({ status: response.status, ms: Date.now() - started, body: await response.text() })),
    (async () => {
      const response = await request.get("/auth");
      return { status: response.status(), ms: Date.now() - started };
    })(),
  ]);
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.status).toBeLessThan(500);
  expect(refused.ms).toBeLessThan(2000);
  expect(refused.body.length).toBeLessThan(50_000);
  expect(other.status).toBe(200);
  expect(other.ms).toBeLessThan(2000);

  // Under the size cap, the field count still refuses it before parsing.
  const fields = await fetch(`${baseURL}/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "a&".repeat(80_000),
  });
  expect(fields.status).toBe(400);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("redirectTo=/%09/evil.example after login stays on this site", async ({ page }) => {
    await page.goto("/auth?redirectTo=/%09/evil.example");
    await page.getByLabel("Email").fill(ACCOUNTS.staff.email);
    await page.getByLabel("Senha").fill(PASSWORD);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/);
  });

  test("GET /logout asks to confirm and keeps the session until the POST", async ({ page }) => {
    await loginAs(page, "doctor");
    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: "Sair do Sinapse?" })).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/logout");
    await page.getByRole("button", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth/);
  });
});
