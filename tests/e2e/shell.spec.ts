import { expect, test } from "./fixtures";
import { ACCOUNTS, PASSWORD } from "./accounts";
import { insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast, login, loginAs, logout } from "./helpers";

test("signed-out visitors are sent to /auth", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto("/settings?tab=seguranca");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fsettings%3Ftab%3Dseguranca$/);
  // After signing in, the visitor lands where they were going.
  await page.getByLabel("Email").fill(ACCOUNTS.staff.email);
  await page.getByLabel("Senha").fill(PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/settings\?tab=seguranca$/);
});

test("a session that ends while a page is open: the next link signs in again and returns to its page", async ({ page, signIn }) => {
  await signIn(page, "staff");
  await page.goto("/patients");
  await expect(page.getByRole("heading", { name: "Pacientes", level: 1 })).toBeVisible();
  await page.context().clearCookies();
  // A link followed in the browser asks the server for the page's data, which sends it to sign in.
  await page.getByRole("complementary").getByRole("link", { name: "Consultas" }).click();
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fappointments$/);
  await page.getByLabel("Email").fill(ACCOUNTS.staff.email);
  await page.getByLabel("Senha").fill(PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/appointments$/);
  await expect(page.getByRole("heading", { name: "Consultas", level: 1 })).toBeVisible();
});

test("a wrong password is refused with a message", async ({ page }) => {
  await login(page, ACCOUNTS.admin.email, "senha-errada");
  await expect(page.getByRole("alert").filter({ hasText: "E-mail ou senha incorretos." })).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
});

test("logout destroys the session on the server: the old cookie no longer works", async ({ page, browser }) => {
  await loginAs(page, "admin");
  await expect(page).toHaveURL(/\/dashboard$/);
  const cookies = await page.context().cookies();
  expect(cookies.some((c) => c.name === "sinapse_session" && c.httpOnly && c.sameSite === "Lax")).toBe(true);
  // The sign-in toast is still up; it sits below the page header, so the user menu stays reachable.
  await expectToast(page, "Logged in successfully!");
  const headerBox = await page.getByRole("banner").boundingBox();
  // Polled: the toast slides in from above.
  await expect
    .poll(async () => (await page.locator("[data-sonner-toast]").first().boundingBox())?.y)
    .toBeGreaterThanOrEqual((headerBox?.y ?? 0) + (headerBox?.height ?? Infinity));
  await logout(page);
  await expectToast(page, "Logged out successfully");

  const replay = await browser.newContext();
  await replay.addCookies(cookies.filter((c) => c.name === "sinapse_session"));
  const replayPage = await replay.newPage();
  await replayPage.goto("/dashboard");
  await expect(replayPage).toHaveURL(/\/auth/);
  await replay.close();
});

test("the shell shows the sidebar groups, header and user menu", async ({ page, signIn }) => {
  await signIn(page, "admin");
  const response = await page.goto("/patients");
  expect(response?.headers()["x-frame-options"]).toBe("DENY");
  expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
  await page.goto("/dashboard");
  const sidebar = page.getByRole("complementary");
  for (const group of ["Principal", "Cirúrgico", "Pacientes", "KPIs Detalhados", "Honorários", "Financeiro", "Cadastros", "Integrações", "Assistentes IA"]) {
    await expect(sidebar.locator("summary", { hasText: group }).first()).toBeVisible();
  }
  await expect(sidebar.getByRole("link", { name: "Médicos" })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByPlaceholder("Buscar...")).toBeVisible();
  await expect(page.getByLabel("Menu do usuário")).toHaveText("AA");
  await page.getByLabel("Menu do usuário").click();
  await page.getByTestId("user-menu").getByRole("link", { name: "Configurações" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { name: "Configurações" })).toBeVisible();
});

test("a shell sent from kept markup hydrates, marks the current page, shows its own user and navigates in the browser", async ({ page, browser, signIn }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  // The whole route manifest is one cached file (route discovery "initial"): no page asks the
  // server which routes its links lead to.
  const discoveries: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/__manifest") discoveries.push(request.url());
  });
  // A patient row to follow at the end, whichever specs ran before this one.
  const db = openTestDb();
  insertPatient(db, `Paciente do Menu ${uniqueTag()}`);
  db.close();
  await signIn(page, "staff");
  // The first /patients renders the sidebar (or reuses an earlier test's), /appointments another
  // section's; the second /patients is certainly sent from the markup kept for its section.
  for (const path of ["/patients", "/appointments", "/patients"]) await page.goto(path);
  const sidebar = page.getByRole("complementary");
  await expect(sidebar.getByRole("link", { name: "Pacientes" })).toHaveAttribute("aria-current", "page");
  await expect(sidebar.getByRole("link", { name: "Consultas" })).not.toHaveAttribute("aria-current");
  await expect(sidebar.locator('details[data-group-id="pacientes"]')).toHaveAttribute("open");
  // The header is kept per user and page: another user's page of the same screen shows theirs.
  await expect(page.getByTestId("user-menu")).toContainText(ACCOUNTS.staff.email);
  const other = await browser.newPage();
  await signIn(other, "doctor");
  for (let i = 0; i < 2; i++) await other.goto("/patients");
  await expect(other.getByTestId("user-menu")).toContainText(ACCOUNTS.doctor.email);
  await expect(other.getByTestId("user-menu")).not.toContainText(ACCOUNTS.staff.email);
  await other.close();

  // Hydrated: following a sidebar link is a client-side navigation (the page's state survives it).
  await page.evaluate(() => Object.assign(window, { samePage: true }));
  await sidebar.getByRole("link", { name: "Consultas" }).click();
  await expect(page).toHaveURL(/\/appointments$/);
  await expect(sidebar.getByRole("link", { name: "Consultas" })).toHaveAttribute("aria-current", "page");
  expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);

  // A list's rows and a schedule view are kept too: a second view of the same rows hydrates and
  // navigates in the browser as well.
  for (let i = 0; i < 2; i++) await page.goto("/schedule?view=month");
  await page.evaluate(() => Object.assign(window, { samePage: true }));
  await page.locator('td[data-date] a[aria-current="date"]').click();
  await expect(page).toHaveURL(/\/schedule\?view=day&date=/);
  expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
  for (let i = 0; i < 2; i++) await page.goto("/patients");
  await page.evaluate(() => Object.assign(window, { samePage: true }));
  await page.getByRole("table").locator("a.patient-link").first().click();
  await expect(page).toHaveURL(/\/patients\/\d+/);
  expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
  expect(errors).toEqual([]);
  expect(discoveries).toEqual([]);
});

test("sidebar groups and the theme persist across reloads", async ({ page, signIn }) => {
  await signIn(page, "staff");
  await page.goto("/dashboard");
  const sidebar = page.getByRole("complementary");
  const finance = sidebar.locator('details[data-group-id="financeiro"]');
  await expect(finance).not.toHaveAttribute("open");
  await finance.locator("summary").click();
  await expect(finance).toHaveAttribute("open");
  await expect(sidebar.getByRole("link", { name: "Cirurgias a Receber" })).toBeVisible();
  const stored = await page.evaluate(() => localStorage.getItem("sidebar-expanded-groups"));
  expect(JSON.parse(stored ?? "[]")).toContain("financeiro");

  const wasDark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
  await page.getByTestId("theme-toggle").click();
  const expected = wasDark ? "light" : "dark";
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe(expected);

  await page.reload();
  await expect(page.locator('details[data-group-id="financeiro"]')).toHaveAttribute("open");
  await expect(page.locator("html")).toHaveClass(expected === "dark" ? /dark/ : /^(?!.*dark).*$/);
});

test("the sidebar collapses to icons", async ({ page, signIn }) => {
  await signIn(page, "doctor");
  await page.goto("/dashboard");
  const sidebar = page.getByRole("complementary");
  await expect(sidebar).toHaveCSS("width", "256px");
  await page.getByRole("button", { name: "Recolher menu" }).click();
  await expect(sidebar).toHaveCSS("width", "64px");
  await page.reload();
  await expect(page.getByRole("complementary")).toHaveCSS("width", "64px");
  await page.getByRole("button", { name: "Expandir menu" }).click();
  await expect(page.getByRole("complementary")).toHaveCSS("width", "256px");
});

test("unknown paths show the 404 page", async ({ page }) => {
  const response = await page.goto("/caminho-que-nao-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test("AI assistant pages are marked as under development", async ({ page, signIn }) => {
  await signIn(page, "doctor");
  await page.goto("/ia/opme-copilot");
  await expect(page.getByText("Funcionalidade em Desenvolvimento")).toBeVisible();
  const missing = await page.goto("/ia/nao-existe");
  expect(missing?.status()).toBe(404);
});

test("a user changes their own password and their other sessions end", async ({ page, browser }) => {
  // Five sign-ins and two password changes, each a deliberately slow password hash.
  test.slow();
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await loginAs(otherPage, "rotating");
  await expect(otherPage).toHaveURL(/\/dashboard$/);

  await loginAs(page, "rotating");
  await page.goto("/settings?tab=seguranca");
  await page.getByLabel("Senha atual").fill("errada-errada");
  await page.getByLabel("Nova senha", { exact: true }).fill("nova-senha-forte-1");
  await page.getByLabel("Confirmar nova senha").fill("nova-senha-forte-1");
  await page.getByRole("button", { name: "Alterar senha" }).click();
  await expect(page.getByText("Senha atual incorreta.").first()).toBeVisible();

  await page.getByLabel("Senha atual").fill(PASSWORD);
  await page.getByLabel("Nova senha", { exact: true }).fill("nova-senha-forte-1");
  await page.getByLabel("Confirmar nova senha").fill("nova-senha-forte-1");
  await page.getByRole("button", { name: "Alterar senha" }).click();
  await expectToast(page, "Senha alterada com sucesso");

  // The session that changed the password stays; the other one is gone.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await otherPage.goto("/dashboard");
  await expect(otherPage).toHaveURL(/\/auth/);
  await login(otherPage, ACCOUNTS.rotating.email, PASSWORD);
  await expect(otherPage.getByText("E-mail ou senha incorretos.").first()).toBeVisible();
  await login(otherPage, ACCOUNTS.rotating.email, "nova-senha-forte-1");
  await expect(otherPage).toHaveURL(/\/dashboard$/);
  await other.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("login and logout work", async ({ page }) => {
    await loginAs(page, "staff");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectToast(page, "Logged in successfully!");
    await page.getByLabel("Menu do usuário").click();
    await page.getByRole("button", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth/);
  });

  test("a bad login shows the error", async ({ page }) => {
    await login(page, ACCOUNTS.staff.email, "nada-disso");
    await expect(page.getByText("E-mail ou senha incorretos.")).toBeVisible();
  });
});

test("the header search finds patients, and /config is the settings screen", async ({ page, signIn }) => {
  await signIn(page, "staff");
  await page.goto("/dashboard");
  const quickSearch = page.getByRole("searchbox", { name: "Busca rápida de pacientes" });
  await quickSearch.fill("nome-que-nao-existe");
  await quickSearch.press("Enter");
  await expect(page).toHaveURL(/\/patients\?q=nome-que-nao-existe$/);
  await expect(page.getByText("No patients found")).toBeVisible();
  await page.goto("/config");
  await expect(page.getByRole("heading", { name: "Configurações" })).toBeVisible();
  await expect(page.getByLabel("Fuso horário")).toHaveValue("America/Sao_Paulo");
  await expect(page.getByLabel("Fuso horário")).toBeDisabled();
});

test("the product's icon is served and linked from every page", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect((await ico.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  const svg = await request.get("/favicon.svg");
  expect(svg.status()).toBe(200);
  expect(await svg.text()).toContain("<svg");
  await page.goto("/auth");
  await expect(page.locator('head link[rel="icon"][href="/favicon.svg"]')).toHaveAttribute("type", "image/svg+xml");
  await expect(page.locator('head link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1);
});

