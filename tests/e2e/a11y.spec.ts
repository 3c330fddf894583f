import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, type Page, expect, test } from "@playwright/test";
import { insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { loginAs } from "./helpers";

/**
 * axe-core (WCAG 2.x A and AA rules, plus its best practices) on every built screen, in both
 * themes: no serious or critical violation. Each screen is checked as a signed-in admin sees it.
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
];

const THEMES = ["light", "dark"] as const;

/** A patient of this run, whose delete confirmation (the red 'Excluir' button) is checked too. */
let patientToDelete = 0;

/** Content for the lists and the schedule: a cancelled appointment today shows the red badge. */
test.beforeAll(() => {
  const tag = uniqueTag();
  const db = openTestDb("app");
  try {
    const patient = insertPatient(db, `Paciente Acessível ${tag}`, { phone: "11987654321" });
    patientToDelete = patient;
    const doctor = insertDoctor(db, `Dra. Contraste ${tag}`);
    const appointment = db.prepare(
      "insert into appointments (patient_id, doctor_id, start_time, end_time, status, type, location) values (?, ?, ?, ?, ?, 'Retorno', 'Sala 2')",
    );
    const start = Date.now() + 60 * 60 * 1000;
    for (const [i, status] of ["scheduled", "confirmed", "completed", "cancelled"].entries()) {
      appointment.run(patient, doctor, start + i * 30 * 60 * 1000, start + (i + 1) * 30 * 60 * 1000, status);
    }
  } finally {
    db.close();
  }
});

async function seriousViolations(page: Page) {
  // Let entrance animations (dialogs, toasts) finish: half-transparent text would be misjudged.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ")}`),
    }));
}

for (const theme of THEMES) {
  test.describe(`${theme} theme`, () => {
    // One signed-in context for the theme's screens: a login per screen would only add time.
    let context: BrowserContext;

    test.beforeAll(async ({ browser }, testInfo) => {
      const { baseURL, locale, timezoneId } = testInfo.project.use;
      context = await browser.newContext({ baseURL, locale, timezoneId });
      // The theme boot script reads localStorage before the first paint (app/lib/theme.ts).
      await context.addInitScript((value) => localStorage.setItem("theme", value), theme);
      const page = await context.newPage();
      await loginAs(page, "admin");
      await page.close();
    });

    test.afterAll(async () => {
      await context.close();
    });

    for (const path of SCREENS) {
      test(path, async () => {
        const page = await context.newPage();
        await page.goto(path);
        await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
        await expect(page.locator("main")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.close();
      });
    }

    test("/patients?delete=… (the delete confirmation)", async () => {
      const page = await context.newPage();
      await page.goto(`/patients?delete=${patientToDelete}`);
      await expect(page.getByRole("dialog").getByRole("button", { name: "Excluir" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    });

    test("/patients/:id (the patient's record)", async () => {
      const page = await context.newPage();
      await page.goto(`/patients/${patientToDelete}`);
      await expect(page.getByTestId("timeline-item").first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    });

    test("/auth", async ({ page: signedOut }) => {
      await signedOut.addInitScript((value) => localStorage.setItem("theme", value), theme);
      for (const path of ["/auth", "/auth?tab=signup", "/auth?tab=login&conta=aguardando"]) {
        await signedOut.goto(path);
        await expect(signedOut.getByRole("heading", { name: "Sinapse" })).toBeVisible();
        expect(await seriousViolations(signedOut)).toEqual([]);
      }
    });
  });
}

test("the header's and the page's search landmarks have distinct names", async ({ page }) => {
  await loginAs(page, "staff");
  await page.goto("/patients");
  const searches = page.getByRole("search");
  await expect(searches).toHaveCount(2);
  const names = await searches.evaluateAll((forms) => forms.map((f) => f.getAttribute("aria-label")));
  expect(names.every(Boolean)).toBe(true);
  expect(new Set(names).size).toBe(2);
});
