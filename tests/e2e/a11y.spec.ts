import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { horizontalOverflow } from "./helpers";

/**
 * Every built screen, as a signed-in admin sees it, loaded once and checked four ways:
 * - axe-core (WCAG 2.x A and AA rules, plus its best practices) in the light theme: no serious or
 *   critical violation;
 * - the same in the dark theme for the rules a theme can change (colours): the theme is switched
 *   in place exactly as the header's toggle does, since the DOM is otherwise the same;
 * - nothing scrolls sideways on a 1366×800 desktop, nor on a 390×844 phone (the window is resized:
 *   the layout is CSS media queries, and the drawer follows matchMedia).
 * One load per screen instead of four keeps the browser suite short; a failure names the check.
 */
const SCREENS = [
  "/dashboard",
  "/patients",
  "/patients?dialog=new",
  "/doctors",
  "/appointments",
  "/schedule?view=day",
  "/schedule?view=week",
  "/schedule?view=month",
  // December 2026 opens with 29 and 30 November: outside days of two digits, which axe measures.
  "/schedule?view=month&date=2026-12-15",
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
  "/master-data/payers?dialog=new",
  "/master-data/hospitals",
  "/master-data/codes",
  "/master-data/suppliers",
  "/sops",
  "/sops?dialog=new",
  "/orders",
  "/orders?dialog=new",
  "/referrers",
  "/financial",
  "/financial?dialog=new",
  "/procedures",
  "/surgical-groups",
  "/cirurgico/grupos/neurocirurgia",
  "/financeiro/cirurgias-receber",
  "/financeiro/cirurgias-pagas",
  "/financeiro/folhas-sala",
  "/financeiro/importar-honorarios",
  "/honorarios/medicos",
  "/honorarios/cbhpm",
  "/honorarios/pagador",
  "/honorarios/tabelas",
  "/honorarios/tabelas/importar",
  "/kpis/operacionais",
  "/kpis/cirurgicos",
  "/kpis/financeiros",
  "/kpis/opme",
  "/kpis/metricas",
  // Without Google configured (this server): each page says so plainly.
  "/google-calendar",
  "/google-drive",
  "/google-forms",
];

const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The axe rules whose outcome depends on colours, the only thing the theme changes. */
const THEME_RULES = ["color-contrast", "link-in-text-block"];

/** A patient of this run, whose delete confirmation (the red 'Excluir' button) is checked too. */
let patientToDelete = 0;

/** Content for the lists and the schedule: a cancelled appointment today shows the red badge. */
test.beforeAll(() => {
  const tag = uniqueTag();
  const db = openTestDb("app");
  try {
    // A long name and e-mail: content that could push a table or a card wider than a phone.
    const patient = insertPatient(db, `Maria da Conceição Gonçalves de Albuquerque Acessível ${tag}`, {
      phone: "11987654321",
      email: `conceicao.${tag}@exemplo.com.br`,
    });
    patientToDelete = patient;
    const doctor = insertDoctor(db, `Dra. Contraste Responsivo ${tag}`);
    const appointment = db.prepare(
      "insert into appointments (patient_id, doctor_id, start_time, end_time, status, type, location) values (?, ?, ?, ?, ?, 'Primeira consulta', 'Consultório 3')",
    );
    const start = Date.now() + 60 * 60 * 1000;
    for (const [i, status] of ["scheduled", "confirmed", "completed", "cancelled"].entries()) {
      appointment.run(patient, doctor, start + i * 30 * 60 * 1000, start + (i + 1) * 30 * 60 * 1000, status);
    }
  } finally {
    db.close();
  }
});

/** What the wrapper evaluates before each run in place of axe-core's source, already in the page. */
const AXE_IN_PAGE = "/* axe-core is in the page */";

async function seriousViolations(page: Page, rules?: string[]) {
  // Let entrance animations and colour transitions finish: half-transparent text would be misjudged.
  // Never wait on an endless one (a spinner): at most 2 s.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
  // axe-core's 500 KB script goes into the page once per load: the wrapper would evaluate it twice
  // per run (four times per screen, about 0.4 s each on the loaded machine), and it is the same axe.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  // Legacy mode runs axe in the page itself. The default also opens a blank page to merge the
  // frames' results (for cross-origin iframes, which no screen has): about a second per run here,
  // a third of the whole check.
  const builder = new AxeBuilder({ page, axeSource: AXE_IN_PAGE }).setLegacyMode(true);
  if (rules) builder.withRules(rules);
  else builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ")}`),
    }));
}

/** What the header's theme toggle does (app/lib/theme.ts setTheme), also when a modal makes it inert. */
async function switchTheme(page: Page, theme: "light" | "dark") {
  await page.evaluate((value) => {
    // As themes do on a switch: no colour transitions, so the new colours are final at once.
    if (!document.getElementById("no-transitions")) {
      const style = document.createElement("style");
      style.id = "no-transitions";
      style.textContent = "*,*::before,*::after{transition:none!important}";
      document.head.append(style);
    }
    localStorage.setItem("theme", value);
    document.documentElement.classList.toggle("dark", value === "dark");
    document.documentElement.style.colorScheme = value;
  }, theme);
}

/** The four checks of one loaded screen; `ready` waits for what the screen must show first. */
async function checkScreen(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.setViewportSize(DESKTOP);
  await page.goto(path);
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  await ready(page);
  expect(await seriousViolations(page), `${path}, light theme`).toEqual([]);
  expect(await horizontalOverflow(page), `${path} is wider than a desktop window`).toBeLessThanOrEqual(0);

  await switchTheme(page, "dark");
  expect(await seriousViolations(page, THEME_RULES), `${path}, dark theme`).toEqual([]);
  await switchTheme(page, "light");

  // Charts follow their container's width through a ResizeObserver, a frame after the window shrinks.
  await page.setViewportSize(PHONE);
  await expect(page.locator("main")).toBeVisible();
  await expect.poll(() => horizontalOverflow(page), { message: `${path} is wider than a phone` }).toBeLessThanOrEqual(0);
}

test.describe("every screen", () => {
  // The screens are independent: both workers share them.
  test.describe.configure({ mode: "parallel", timeout: 60_000 });

  // One signed-in context per worker: a login per screen would only add time.
  let context: BrowserContext;

  test.beforeAll(async ({ browser, accountSessions }, testInfo) => {
    const { baseURL, locale, timezoneId } = testInfo.project.use;
    context = await browser.newContext({ baseURL, locale, timezoneId });
    await context.addInitScript(() => {
      if (!localStorage.getItem("theme")) localStorage.setItem("theme", "light");
    });
    await context.addCookies(await accountSessions.cookies("admin"));
  });

  test.afterAll(async () => {
    await context.close();
  });

  const mainVisible = async (page: Page) => expect(page.locator("main")).toBeVisible();

  for (const path of SCREENS) {
    test(path, async () => {
      const page = await context.newPage();
      await checkScreen(page, path, mainVisible);
      await page.close();
    });
  }

  test("/patients?delete=… (the delete confirmation)", async () => {
    const page = await context.newPage();
    await checkScreen(page, `/patients?delete=${patientToDelete}`, (p) =>
      expect(p.getByRole("dialog").getByRole("button", { name: "Excluir" })).toBeVisible(),
    );
    await page.close();
  });

  test("/patients/:id (the patient's record)", async () => {
    const page = await context.newPage();
    await checkScreen(page, `/patients/${patientToDelete}`, (p) => expect(p.getByTestId("timeline-item").first()).toBeVisible());
    await page.close();
  });

  test("/auth, signed out", async ({ page }) => {
    for (const path of ["/auth", "/auth?tab=signup", "/auth?tab=login&conta=aguardando"]) {
      await checkScreen(page, path, (p) => expect(p.getByRole("heading", { name: "Sinapse" })).toBeVisible());
    }
  });
});

test("the header's and the page's search landmarks have distinct names", async ({ page, signIn }) => {
  await signIn(page, "staff");
  await page.goto("/patients");
  const searches = page.getByRole("search");
  await expect(searches).toHaveCount(2);
  const names = await searches.evaluateAll((forms) => forms.map((f) => f.getAttribute("aria-label")));
  expect(names.every(Boolean)).toBe(true);
  expect(new Set(names).size).toBe(2);
});
