import { expect, test } from "./fixtures";
import { medicalCodeSearchText } from "../../app/lib/master-data-search";
import { insertDoctor, openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

/** /procedures, /surgical-groups and /cirurgico/grupos/neurocirurgia as people use them. */

function insertCode(code: string, type: "cbhpm" | "icd10", description: string) {
  const db = openTestDb();
  db.prepare("insert or ignore into medical_codes (code, type, description, category, active, search_text, created_at, updated_at) values (?, ?, ?, 'Neurocirurgia', 1, ?, ?, ?)").run(
    code,
    type,
    description,
    medicalCodeSearchText({ code, type, description, category: "Neurocirurgia" }),
    Date.now(),
    Date.now(),
  );
  db.close();
}

test("procedures: searched by dotted and undotted code and by description without accents, filtered by type", async ({ page, signIn }) => {
  insertCode("3.07.15.19-9", "cbhpm", "Laminectomia ou laminotomia");
  await signIn(page, "staff");
  await page.goto("/procedures");
  await expect(page.getByRole("heading", { level: 1, name: "Procedimentos" })).toBeVisible();
  const search = page.getByRole("searchbox", { name: "Buscar procedimentos" });
  await search.fill("30715199");
  await expect(page).toHaveURL(/q=30715199/);
  await expect(page.getByRole("cell", { name: "3.07.15.19-9" })).toBeVisible();
  await search.fill("3.07.15.19-9");
  await expect(page).toHaveURL(/q=3\.07\.15\.19-9/);
  await expect(page.getByRole("cell", { name: "Laminectomia ou laminotomia" })).toBeVisible();
  await page.goto("/procedures?q=laminotomia&type=icd10");
  await expect(page.getByText("Nenhum procedimento encontrado")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("procedures, surgical groups and the neurosurgery catalogue work as plain pages", async ({ page, signIn }) => {
    const tag = uniqueTag();
    insertCode("M51.1", "icd10", "Transtornos de discos lombares com radiculopatia");
    const db = openTestDb();
    insertDoctor(db, `Dra. Grupo ${tag}`, { specialty: `Neurocirurgia ${tag}` });
    db.close();
    await signIn(page, "doctor");

    await page.goto("/procedures");
    await page.getByRole("searchbox", { name: "Buscar procedimentos" }).fill("m511");
    await page.getByRole("searchbox", { name: "Buscar procedimentos" }).press("Enter");
    await expect(page.getByRole("cell", { name: "M51.1", exact: true })).toBeVisible();

    await page.goto("/surgical-groups");
    await expect(page.getByRole("heading", { level: 1, name: "Grupos Cirúrgicos" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Novo Grupo" })).toHaveCount(0);
    // Walk the pages until this test's specialty shows (the list is in specialty order). Other workers add and
    // delete doctors meanwhile, which shifts OFFSET pages by a group; a walk that reaches the last page without
    // the specialty starts again from the first.
    const heading = page.getByRole("heading", { name: `Neurocirurgia ${tag}` });
    for (let walk = 0; walk < 3 && !(await heading.count()); walk++) {
      if (walk > 0) await page.goto("/surgical-groups");
      const next = page.getByRole("link", { name: "Próxima" });
      for (let i = 0; i < 30 && !(await heading.count()) && (await next.count()); i++) await next.click();
    }
    const group = page.locator("[aria-labelledby]", { has: page.getByRole("heading", { name: `Neurocirurgia ${tag}` }) });
    await expect(group.getByText("1 médico · 0 cirurgias")).toBeVisible();
    await expect(group.getByRole("cell", { name: `Dra. Grupo ${tag}` })).toBeVisible();

    await page.goto("/cirurgico/grupos/neurocirurgia");
    await expect(page.getByRole("list", { name: "Grupos de neurocirurgia" }).getByRole("listitem")).toHaveCount(12);
    await page.getByLabel("Área", { exact: true }).selectOption("Crânio");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/area=Cr%C3%A2nio/);
    await expect(page.getByRole("list", { name: "Grupos de neurocirurgia" }).getByRole("listitem")).toHaveCount(5);
    await expect(page.getByText("Microcirurgia para tumores intracranianos")).toBeVisible();
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Relatório" }).click();
    expect((await download).suggestedFilename()).toMatch(/^neurocirurgia-grupos-\d{4}-\d{2}-\d{2}\.csv$/);
  });
});

test("the catalogue's report toasts 'Relatório exportado com sucesso'; an account without a role is refused", async ({ page, signIn }) => {
  await signIn(page, "admin");
  await page.goto("/cirurgico/grupos/neurocirurgia?q=coluna");
  await expect(page.getByRole("list", { name: "Grupos de neurocirurgia" }).getByRole("listitem")).toHaveCount(7);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Relatório" }).click();
  await download;
  await expectToast(page, "Relatório exportado com sucesso");

  await page.context().clearCookies();
  await signIn(page, "pending");
  for (const path of ["/procedures", "/surgical-groups", "/cirurgico/grupos/neurocirurgia"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
  }
});
