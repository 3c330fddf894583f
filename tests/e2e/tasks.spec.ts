import type { Browser, Page } from "@playwright/test";
import { type SignIn, expect, test } from "./fixtures";
import { buildSearchText } from "../../app/lib/search";
import { ACCOUNTS } from "./accounts";
import { type TestDb, insertDoctor, insertPatient, openTestDb, uniqueTag } from "./db";
import { expectToast } from "./helpers";

/** /tasks driven as a person would: cards, stat cards, filters in the URL, the checklist, the report. */

// Each test walks a whole screen's flow (a dozen round trips): more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

function dialog(page: Page) {
  return page.getByRole("dialog");
}

function card(page: Page, title: string) {
  return page.getByRole("article", { name: title, exact: true });
}

/** A task written straight into the server's database (with its search key), and its checklist. */
function insertTask(
  db: TestDb,
  title: string,
  extra: { status?: string; priority?: string; category?: string; dueDate?: string | null; assigneeEmail?: string } = {},
  checklist: string[] = [],
) {
  const assignee = extra.assigneeEmail
    ? (db.prepare("select id from users where email = ?").get(extra.assigneeEmail) as { id: number }).id
    : null;
  const id = Number(
    db
      .prepare("insert into tasks (title, search_text, status, priority, category, due_date, assignee_id) values (?, ?, ?, ?, ?, ?, ?)")
      .run(title, buildSearchText(title), extra.status ?? "pending", extra.priority ?? "medium", extra.category ?? "general", extra.dueDate ?? null, assignee)
      .lastInsertRowid,
  );
  checklist.forEach((name, position) => db.prepare("insert into subtasks (task_id, title, position) values (?, ?, ?)").run(id, name, position));
  return id;
}

function checklistOf(db: TestDb, taskId: number) {
  return db.prepare("select title, completed from subtasks where task_id = ? order by position, id").all(taskId) as { title: string; completed: number }[];
}

/** The São Paulo calendar date `days` from today, 'YYYY-MM-DD'. */
function spDate(days = 0) {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date(Date.now() + days * 86_400_000));
  return parts;
}
const br = (iso: string) => iso.split("-").reverse().join("/");

async function statValue(page: Page, title: string) {
  const heading = page.locator(".card-title", { hasText: new RegExp(`^${title}$`) });
  return page.getByRole("region", { name: "Resumo das tarefas" }).locator(".card").filter({ has: heading }).locator(".text-2xl");
}

test("create with the pickers, edit, duplicate, complete and delete a task", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  const patientName = `Joana Tarefa ${tag}`;
  const patientId = insertPatient(db, patientName);
  const doctorId = insertDoctor(db, `Dr. Tarefa ${tag}`);
  db.prepare("insert into surgeries (patient_id, doctor_id, surgery_type, scheduled_date, status, current_stage) values (?, ?, ?, ?, 'scheduled', 'aguarda_docs')").run(
    patientId,
    doctorId,
    `Artrodese ${tag}`,
    Date.UTC(2031, 6, 15, 11, 0),
  );

  await signIn(page, "staff");
  await page.goto(`/tasks?q=${tag}`);
  await expect(page.getByText("Nenhuma tarefa encontrada")).toBeVisible();
  await page.getByRole("link", { name: "Nova Tarefa" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Nova tarefa" })).toBeVisible();

  // The title is required; what was typed stays.
  await dialog(page).getByLabel("Descrição").fill("Falta o laudo da ressonância.");
  await dialog(page).getByRole("button", { name: "Criar tarefa" }).click();
  await expect(dialog(page).getByText("Informe o título da tarefa")).toBeVisible();

  const title = `Coletar documentos ${tag}`;
  await dialog(page).getByLabel("Título").fill(title);
  await dialog(page).getByLabel("Categoria").selectOption({ label: "Cirurgia" });
  await dialog(page).getByLabel("Prioridade").selectOption({ label: "Alta" });
  await expect(dialog(page).getByLabel("Status")).toHaveValue("pending");
  await dialog(page).getByLabel("Vencimento").fill(spDate(-1));
  // The assignee defaults to whoever creates the task.
  await expect(dialog(page).getByLabel("Responsável")).toHaveValue(String((db.prepare("select id from users where email = ?").get(ACCOUNTS.staff.email) as { id: number }).id));
  const surgery = dialog(page).getByRole("combobox", { name: "Cirurgia", exact: true }).and(dialog(page).locator("input"));
  await surgery.fill(`artrodese ${tag}`);
  await dialog(page).getByRole("option", { name: new RegExp(`Artrodese ${tag}`) }).click();
  await dialog(page).getByRole("button", { name: "Criar tarefa" }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expectToast(page, "Tarefa criada com sucesso");

  const created = card(page, title);
  await expect(created).toContainText("Cirurgia");
  await expect(created).toContainText("Prioridade Alta");
  await expect(created).toContainText("Pendente");
  await expect(created).toContainText("Atrasada");
  await expect(created).toContainText(br(spDate(-1)));
  await expect(created).toContainText(ACCOUNTS.staff.name);
  // The surgery brought its patient; both are links.
  await expect(created.getByRole("link", { name: patientName })).toBeVisible();
  await expect(created.getByRole("link", { name: new RegExp(`Artrodese ${tag} · 15/07/2031`) })).toHaveAttribute("href", /\/surgeries\?edit=\d+/);
  await expect(await statValue(page, "Atrasadas")).toHaveText("1");

  // Edit: 'Normal' priority, no due date any more.
  await created.getByLabel(`Ações da tarefa ${title}`).click();
  await created.getByRole("link", { name: "Editar" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Editar tarefa" })).toBeVisible();
  await dialog(page).getByLabel("Prioridade").selectOption({ label: "Normal" });
  await dialog(page).getByLabel("Vencimento").fill("");
  await dialog(page).getByRole("button", { name: "Salvar alterações" }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(created).toContainText("Prioridade Normal");
  await expect(created).toContainText("Sem vencimento");
  await expect(await statValue(page, "Atrasadas")).toHaveText("0");

  // Duplicate, then complete the copy: its menu no longer offers it.
  await created.getByLabel(`Ações da tarefa ${title}`).click();
  await created.getByRole("button", { name: "Duplicar" }).click();
  const copy = card(page, `${title} (cópia)`);
  await expect(copy).toBeVisible();
  await expect(await statValue(page, "Total")).toHaveText("2");
  await copy.getByLabel(`Ações da tarefa ${title} (cópia)`).click();
  await copy.getByRole("button", { name: "Marcar como concluída" }).click();
  await expect(copy).toContainText("Concluída");
  await expect(await statValue(page, "Concluídas")).toHaveText("1");
  await expect(page.getByText("50% do total")).toBeVisible();
  await copy.getByLabel(`Ações da tarefa ${title} (cópia)`).click();
  await expect(copy.getByRole("button", { name: "Marcar como concluída" })).toHaveCount(0);

  // Delete asks first.
  await copy.getByRole("link", { name: "Excluir" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Excluir tarefa" })).toBeVisible();
  await dialog(page).getByRole("link", { name: "Cancelar" }).click();
  await expect(copy).toBeVisible();
  await copy.getByLabel(`Ações da tarefa ${title} (cópia)`).click();
  await copy.getByRole("link", { name: "Excluir" }).click();
  await dialog(page).getByRole("button", { name: "Excluir" }).click();
  await expect(copy).toHaveCount(0);
  await expect(await statValue(page, "Total")).toHaveText("1");
  expect(db.prepare("select count(*) as n from tasks where title like ?").get(`%${tag}%`)).toEqual({ n: 1 });
  db.close();
});

/** The checklist of the view dialog, driven the same way with or without JavaScript. */
async function editChecklist(page: Page, title: string) {
  await card(page, title).getByRole("link", { name: title }).click();
  const view = page.getByRole("dialog", { name: title });
  await expect(view.getByText("Nenhuma subtarefa ainda.")).toBeVisible();
  for (const name of ["Pedido médico", "Laudo da RM", "Carteirinha"]) {
    await view.getByLabel("Nova subtarefa").fill(name);
    await view.getByRole("button", { name: "Adicionar" }).click();
    await expect(view.getByRole("checkbox", { name })).toBeVisible();
  }
  await view.getByRole("checkbox", { name: "Laudo da RM" }).click();
  await expect(view.getByRole("checkbox", { name: "Laudo da RM" })).toHaveAttribute("aria-checked", "true");
  await expect(view.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "33");

  await view.getByRole("link", { name: "Renomear Pedido médico" }).click();
  await view.getByLabel("Novo nome da subtarefa").fill("Pedido médico assinado");
  await view.getByRole("button", { name: "Salvar" }).click();
  await expect(view.getByRole("checkbox", { name: "Pedido médico assinado" })).toBeVisible();

  await view.getByRole("button", { name: "Mover Carteirinha para cima" }).click();
  await expect(view.getByRole("checkbox")).toHaveText(["Pedido médico assinado", "Carteirinha", "Laudo da RM"]);

  await view.getByRole("link", { name: "Remover Pedido médico assinado" }).click();
  await expect(view.getByText("Remover a subtarefa Pedido médico assinado?")).toBeVisible();
  await view.getByRole("button", { name: "Remover" }).click();
  await expect(view.getByRole("checkbox")).toHaveText(["Carteirinha", "Laudo da RM"]);
  await expect(view.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "50");
  await view.getByRole("link", { name: "Fechar" }).first().click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
}

async function signedInPage(browser: Browser, signIn: SignIn, account: "staff" | "doctor", javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await signIn(page, account);
  return { context, page };
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("subtasks are added, ticked, renamed, reordered and removed, and kept across reloads and browsers", async ({ page, browser, signIn }) => {
      const tag = uniqueTag();
      const db = openTestDb();
      const title = `Pré-autorização ${tag}`;
      const id = insertTask(db, title, { category: "surgery" });
      await signIn(page, "admin");
      await page.goto(`/tasks?q=${tag}`);
      await editChecklist(page, title);

      // On the card: progress and the checklist, ticked from there too.
      const onCard = card(page, title);
      await expect(onCard.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "50");
      await onCard.getByRole("checkbox", { name: "Carteirinha" }).click();
      await expect(onCard.getByRole("checkbox", { name: "Carteirinha" })).toHaveAttribute("aria-checked", "true");
      await expect(onCard.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
      await expect.poll(() => checklistOf(db, id)).toEqual([
        { title: "Carteirinha", completed: 1 },
        { title: "Laudo da RM", completed: 1 },
      ]);

      await page.reload();
      await expect(card(page, title).getByRole("checkbox")).toHaveText(["Carteirinha", "Laudo da RM"]);
      // Another person, in another browser, sees the same checklist.
      const other = await signedInPage(browser, signIn, "doctor", javaScriptEnabled);
      await other.page.goto(`/tasks?q=${tag}`);
      await expect(card(other.page, title).getByRole("checkbox", { name: "Laudo da RM" })).toHaveAttribute("aria-checked", "true");
      await card(other.page, title).getByRole("checkbox", { name: "Laudo da RM" }).click();
      await expect(card(other.page, title).getByRole("checkbox", { name: "Laudo da RM" })).toHaveAttribute("aria-checked", "false");
      await other.context.close();
      await page.reload();
      await expect(card(page, title).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "50");
      db.close();
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a task is created with the server-side pickers, completed and deleted", async ({ page, signIn }) => {
    const tag = uniqueTag();
    const db = openTestDb();
    const patientName = `Mário Sem Script ${tag}`;
    const patientId = insertPatient(db, patientName);
    await signIn(page, "doctor");
    await page.goto(`/tasks?q=${tag}&category=administrative`);
    await page.getByRole("link", { name: "Nova Tarefa" }).click();
    const title = `Cobrar convênio ${tag}`;
    await dialog(page).getByLabel("Título").fill(title);
    await dialog(page).getByLabel("Categoria").selectOption({ label: "Administrativo" });
    await dialog(page).getByRole("searchbox", { name: "Buscar paciente" }).fill(`mario ${tag}`);
    await dialog(page).getByRole("button", { name: "Buscar" }).first().click();
    // The round trip keeps what was typed and the list's filters.
    await expect(dialog(page).getByLabel("Título")).toHaveValue(title);
    await expect(page).toHaveURL(/category=administrative/);
    await dialog(page).getByRole("combobox", { name: "Paciente", exact: true }).selectOption({ label: patientName });
    await dialog(page).getByLabel("Vencimento").fill("2031-03-05");
    await dialog(page).getByRole("button", { name: "Criar tarefa" }).click();
    await expectToast(page, "Tarefa criada com sucesso");
    await expect(page).toHaveURL(new RegExp(`/tasks\\?q=${tag}&category=administrative$`));
    const created = card(page, title);
    await expect(created).toContainText("05/03/2031");
    await expect(created.getByRole("link", { name: patientName })).toBeVisible();
    expect(db.prepare("select patient_id, category, due_date from tasks where title = ?").get(title)).toEqual({
      patient_id: patientId,
      category: "administrative",
      due_date: "2031-03-05",
    });

    // The card's menu is a <details>: it opens without JavaScript.
    await created.getByLabel(`Ações da tarefa ${title}`).click();
    await created.getByRole("button", { name: "Marcar como concluída" }).click();
    await expect(card(page, title)).toContainText("Concluída");
    await card(page, title).getByLabel(`Ações da tarefa ${title}`).click();
    await card(page, title).getByRole("link", { name: "Excluir" }).click();
    await dialog(page).getByRole("button", { name: "Excluir" }).click();
    await expect(page.getByText("Nenhuma tarefa encontrada")).toBeVisible();
    db.close();
  });
});

test("filters live in the URL, 'Minhas tarefas' is one click, and the stat cards follow", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  insertTask(db, `Minha alta ${tag}`, { priority: "high", category: "surgery", assigneeEmail: ACCOUNTS.staff.email, dueDate: spDate(-2) });
  insertTask(db, `Minha concluída ${tag}`, { status: "completed", category: "general", assigneeEmail: ACCOUNTS.staff.email, dueDate: spDate(-2) });
  insertTask(db, `Da admin ${tag}`, { status: "in_progress", category: "scheduling", assigneeEmail: ACCOUNTS.admin.email, dueDate: spDate(3) });
  insertTask(db, `Sem dono ${tag}`, { category: "surgery" });
  await signIn(page, "staff");
  await page.goto(`/tasks?q=${tag}`);
  await expect(await statValue(page, "Total")).toHaveText("4");
  await expect(await statValue(page, "Atrasadas")).toHaveText("1");
  await expect(await statValue(page, "Em Andamento")).toHaveText("1");
  await expect(await statValue(page, "Pendentes")).toHaveText("2");

  await page.getByRole("link", { name: "Minhas tarefas" }).click();
  await expect(page).toHaveURL(/assignee=me/);
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(await statValue(page, "Concluídas")).toHaveText("1");
  await expect(page.getByText("50% do total")).toBeVisible();
  await expect(page.getByRole("link", { name: "Minhas tarefas" })).toHaveAttribute("aria-current", "true");
  await page.getByRole("link", { name: "Minhas tarefas" }).click();
  await expect(page).not.toHaveURL(/assignee=/);
  await expect(page.getByRole("article")).toHaveCount(4);

  await page.getByLabel("Categoria").selectOption({ label: "Cirurgia" });
  await expect(page).toHaveURL(/category=surgery/);
  await expect(page.getByRole("article")).toHaveCount(2);
  await page.getByLabel("Prioridade").selectOption({ label: "Alta" });
  await expect(page).toHaveURL(/priority=high/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(card(page, `Minha alta ${tag}`)).toBeVisible();
  await page.getByRole("link", { name: "Limpar filtros" }).click();
  await page.getByLabel("Status").selectOption({ label: "Atrasada" });
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(card(page, `Minha alta ${tag}`)).toBeVisible();

  // A bookmarked URL opens with its filters applied.
  await page.goto(`/tasks?q=${tag}&dueFrom=${spDate(0)}`);
  await expect(page.getByLabel("Vencimento de")).toHaveValue(spDate(0));
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(card(page, `Da admin ${tag}`)).toBeVisible();
  db.close();
});

test("'Relatório' downloads the filtered tasks as tarefas-{date}.csv and says so", async ({ page, signIn }) => {
  const tag = uniqueTag();
  const db = openTestDb();
  insertTask(db, `Relatório A ${tag}`, { category: "surgery", priority: "high", status: "in_progress", dueDate: "2031-01-20" });
  insertTask(db, `Relatório B ${tag}`, { category: "general" });
  insertTask(db, `Relatório C ${tag}`, { category: "administrative", priority: "low" });
  db.close();
  await signIn(page, "doctor");
  await page.goto(`/tasks?q=${tag}&category=surgery`);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Relatório", exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`tarefas-${spDate(0)}.csv`);
  await expectToast(page, "Relatório exportado com sucesso");
  const text = (await import("node:fs")).readFileSync((await download.path())!, "utf8");
  expect(text.split("\r\n")).toEqual(["\uFEFFTítulo;Categoria;Status;Prioridade;Vencimento", `Relatório A ${tag};Cirurgia;Em andamento;Alta;20/01/2031`, ""]);
});
