import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ACCOUNTS } from "./accounts";
import { type TestDb, insertDoctor, insertHospital, insertPatient, insertPayer, openTestDb, uniqueTag } from "./db";
import { expectToast, openMoveMenuWithoutJs } from "./helpers";

const DAY = 86_400_000;

/** A doctor of its own per test, so the board filtered by that doctor shows only this test's cards. */
function fixtures(db: TestDb, tag: string) {
  return {
    doctor: insertDoctor(db, `Dr. Pipeline ${tag}`),
    payer: insertPayer(db, `Convênio Pipeline ${tag}`),
    hospital: insertHospital(db, `Hospital Pipeline ${tag}`),
  };
}

function insertSurgery(
  db: TestDb,
  ids: ReturnType<typeof fixtures>,
  patientName: string,
  stage: string,
  extra: { scheduledDate?: number; ansDueOn?: string | null; payer?: boolean } = {},
) {
  const patient = insertPatient(db, patientName);
  const id = Number(
    db
      .prepare(
        `insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage, hospital, hospital_id, payer_name, payer_id, ans_due_on, billed_amount_cents)
         values (?, ?, 'Microdiscectomia lombar', ?, 'scheduled', ?, 'Hospital Pipeline', ?, ?, ?, ?, 250000)`,
      )
      .run(
        patient,
        ids.doctor,
        extra.scheduledDate ?? Date.UTC(2026, 0, 5, 12),
        stage,
        ids.hospital,
        extra.payer === false ? null : "Convênio Pipeline",
        extra.payer === false ? null : ids.payer,
        extra.ansDueOn ?? null,
      ).lastInsertRowid,
  );
  db.prepare("insert into pipeline_stages (surgery_id, stage, created_at) values (?, ?, ?)").run(id, stage, Date.now() - 3 * DAY);
  return id;
}

const column = (page: Page, stage: string) => page.locator(`section[data-stage="${stage}"]`);
const card = (page: Page, name: string) => page.locator("article", { has: page.getByRole("link", { name, exact: true }) });
const userId = (db: TestDb, account: keyof typeof ACCOUNTS) =>
  (db.prepare("select id from users where email = ?").get(ACCOUNTS[account].email) as { id: number }).id;

// Each test walks several pages of the board; give them room on a busy machine.
test.describe.configure({ timeout: 90_000 });

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("staff move a card with its menu, and a denial asks for the reason", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const ids = fixtures(db, tag);
    const name = `Marta Souza ${tag}`;
    const id = insertSurgery(db, ids, name, "aguarda_docs");

    await signIn(page, "staff");
    await page.goto(`/pipeline?doctor=${ids.doctor}`);
    await expect(card(page, name)).toContainText("3 dias nesta etapa");
    await expect(column(page, "aguarda_docs").getByLabel("1 cirurgias")).toBeVisible();
    await expect(column(page, "aguarda_docs")).toContainText("R$ 2.500,00");

    await openMoveMenuWithoutJs(card(page, name));
    await card(page, name).getByRole("button", { name: "Aprovado" }).click();
    await expect(page).toHaveURL(new RegExp(`/pipeline\\?doctor=${ids.doctor}$`));
    await expect(column(page, "aprovado").getByRole("link", { name })).toBeVisible();
    await expect(card(page, name)).toContainText("Nesta etapa desde hoje");
    expect(db.prepare("select current_stage, status from surgeries where id = ?").get(id)).toEqual({ current_stage: "aprovado", status: "scheduled" });
    expect(db.prepare("select from_stage, stage, moved_by from pipeline_stages where surgery_id = ? order by id desc limit 1").get(id)).toEqual({
      from_stage: "aguarda_docs",
      stage: "aprovado",
      moved_by: userId(db, "staff"),
    });

    await openMoveMenuWithoutJs(card(page, name));
    await card(page, name).getByRole("link", { name: "Negado" }).click();
    await expect(page).toHaveURL(new RegExp(`/pipeline/${id}/negar`));
    // The reason is required: the browser says so before anything is sent (no JavaScript needed).
    await expect(page.getByLabel("Motivo da negativa")).toHaveAttribute("required", "");
    await page.getByLabel("Motivo da negativa").fill("Falta laudo de ressonância recente");
    await page.getByLabel("A clínica vai recorrer da negativa").check();
    await page.getByRole("button", { name: "Mover para Negado" }).click();
    await expect(page).toHaveURL(new RegExp(`/pipeline\\?doctor=${ids.doctor}$`));
    await expect(column(page, "negado").getByRole("link", { name })).toBeVisible();
    expect(db.prepare("select current_stage, denial_reason, denial_appeal from surgeries where id = ?").get(id)).toEqual({
      current_stage: "negado",
      denial_reason: "Falta laudo de ressonância recente",
      denial_appeal: 1,
    });

    // The card opens the history: every move with who made it, and the reason of the denial.
    await card(page, name).getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`/pipeline/${id}$`));
    const rows = page.getByRole("table", { name: "Movimentações da cirurgia" }).getByRole("row");
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(2)).toContainText(`Aguarda Docs`);
    await expect(rows.nth(2)).toContainText(ACCOUNTS.staff.name);
    await expect(rows.nth(3)).toContainText("Falta laudo de ressonância recente (a clínica vai recorrer)");
    await expect(page.getByRole("heading", { name: "Tempo em cada etapa" })).toBeVisible();
    db.close();
  });

  test("filters live in the URL; 'Atrasadas ANS' shows only overdue clocks; a doctor has no move menu", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const ids = fixtures(db, tag);
    insertSurgery(db, ids, `Atrasada ${tag}`, "aguardando_parecer", { ansDueOn: "2026-01-02" });
    insertSurgery(db, ids, `Em dia ${tag}`, "aguardando_parecer", { ansDueOn: "2099-12-30" });
    insertSurgery(db, ids, `Sem convênio ${tag}`, "aguarda_docs", { payer: false });

    await signIn(page, "doctor");
    await page.goto(`/pipeline?doctor=${ids.doctor}`);
    await expect(card(page, `Atrasada ${tag}`)).toContainText("ANS: atrasada");
    await expect(page.getByText("Mover")).toHaveCount(0);

    await page.getByLabel("Prazos ANS").selectOption({ label: "Atrasadas ANS" });
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/ans=atrasadas/);
    await expect(card(page, `Atrasada ${tag}`)).toBeVisible();
    await expect(card(page, `Em dia ${tag}`)).toHaveCount(0);
    await expect(card(page, `Sem convênio ${tag}`)).toHaveCount(0);

    await page.goto(`/pipeline?doctor=${ids.doctor}&payer=${ids.payer}`);
    await expect(page.getByLabel("Pagador")).toHaveValue(String(ids.payer));
    await expect(card(page, `Em dia ${tag}`)).toBeVisible();
    await expect(card(page, `Sem convênio ${tag}`)).toHaveCount(0);
    db.close();
  });
});

test("with JavaScript: a card is dragged with the keyboard, and a refused move comes back with 'Erro ao atualizar status'", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const ids = fixtures(db, tag);
  const moving = `Rita Teclado ${tag}`;
  const refused = `Caio Futuro ${tag}`;
  const id = insertSurgery(db, ids, moving, "aguarda_docs");
  const future = insertSurgery(db, ids, refused, "aguarda_docs", { scheduledDate: Date.now() + 40 * DAY });

  await signIn(page, "admin");
  await page.goto(`/pipeline?doctor=${ids.doctor}`);
  const handle = page.getByRole("button", { name: `Arrastar ${moving}` });
  await expect(handle).toBeVisible(); // the drag-and-drop code has loaded
  // Each key waits for what a screen reader hears: dnd-kit measures the columns after the pick-up,
  // and an arrow pressed before that moves nothing.
  const announced = page.locator('[id^="DndLiveRegion"]');
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(announced).toHaveText(`${moving} sobre a etapa Aguarda Docs.`);
  await page.keyboard.press("ArrowRight");
  await expect(announced).toHaveText(`${moving} sobre a etapa Enviado Pré-aut.`);
  await page.keyboard.press("Space");
  await expectToast(page, "Status atualizado");
  await expect(column(page, "enviado_pre_aut").getByRole("link", { name: moving })).toBeVisible();
  await expect.poll(() => db.prepare("select current_stage from surgeries where id = ?").get(id)).toEqual({ current_stage: "enviado_pre_aut" });
  await expect(card(page, moving)).toContainText("ANS: 10 dias úteis");

  // A surgery still to come cannot be 'Concluído': the server refuses and the card goes back.
  await card(page, refused).getByText("Mover").click();
  await card(page, refused).getByRole("button", { name: "Concluído" }).click();
  await expectToast(page, "Erro ao atualizar status");
  await expect(column(page, "aguarda_docs").getByRole("link", { name: refused })).toBeVisible();
  await expect(column(page, "concluido").getByRole("link", { name: refused })).toHaveCount(0);
  expect(db.prepare("select current_stage from surgeries where id = ?").get(future)).toEqual({ current_stage: "aguarda_docs" });
  db.close();
});
