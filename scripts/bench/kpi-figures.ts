/**
 * `npm run bench:figures`: what the dashboard, KPI and honorários figures, the schedule's entries,
 * the pipeline's board, the cash book's and paid surgeries' totals, the surgical groups' counts and
 * the main lists' pages cost when nothing is cached (the first view after a write to what they
 * read), on the database at DATABASE_PATH.
 *
 * Each report is computed through the same model function its screen calls, bypassing the
 * `cachedUntilWrite` cache, for the periods a user can pick (this month, this year, ten years:
 * the longest custom range) with and without the busiest doctor's or payer's filter. A report is
 * timed RUNS times after one warm-up and its median is kept; a first view after a write is timed
 * from the write's commit on (the write, its triggers and its commit, is not the read's cost). The
 * issue's budget is 20 ms per figure: a report's cost is divided by the figures and tables it
 * shows (each KPI report also computes its previous period); a report within 20 ms in total meets
 * it for every figure.
 *
 * Output: a Markdown table on stdout, or with `--json-out=<file>` the raw rows written to that file
 * (scripts/bench/index.ts runs it that way after the load test, with the server stopped, and adds
 * the table to docs/performance.md).
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";

export interface FigureTiming {
  screen: string;
  period: string;
  filter: string;
  /** Median over RUNS of the whole report, in ms. */
  ms: number;
  /** Figures and tables the report shows (the budget's unit). */
  items: number;
  /** False for a cost shown without a target: a search's term as it is typed. */
  target?: false;
}

export const FIGURE_BUDGET_MS = 20;

/**
 * Terms as a user types them: a name and the start of a surname ('ana p' to 'ana pau': 'pau' is also
 * in São Paulo's hospitals), a common name with a rare letter, a hospital's and a payer's names with
 * a second word begun.
 */
const SEARCH_TERMS_TYPED = ["ana p", "ana pa", "ana pau", "maria x", "pedro h", "santa au", "unimed b"];
const RUNS = Number(process.env.BENCH_FIGURE_RUNS ?? 5);

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const url = (page: string) => new URL(page, "http://localhost");

/** The median time of `run`. `before`, when given, runs untimed ahead of each run (the write a first view follows). */
function time(run: () => unknown, before?: () => unknown): number {
  before?.();
  run(); // warm-up: statement preparation, page cache
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    before?.();
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** The busiest doctor and payer (by surgeries), read once with a throwaway connection. */
function busiest(file: string): { doctorId: number | null; payerId: number | null } {
  const conn = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const pick = (sql: string) => (conn.prepare(sql).pluck().get() as number | undefined) ?? null;
    return {
      doctorId: pick("select doctor_id from surgeries where doctor_id is not null group by doctor_id order by count(*) desc limit 1"),
      payerId: pick("select payer_id from surgeries where payer_id is not null group by payer_id order by count(*) desc limit 1"),
    };
  } finally {
    conn.close();
  }
}

export async function measureFigures(): Promise<FigureTiming[]> {
  const file = path.resolve(process.env.DATABASE_PATH ?? "db/clinic.sqlite");
  process.env.DATABASE_PATH = file;
  const { doctorId, payerId } = busiest(file);
  // Imported after DATABASE_PATH is fixed: the models open the database on import.
  const { parseKpiPeriod } = await import("../../app/lib/kpi-period.ts");
  const { operationalKpis } = await import("../../app/models/kpi-operacionais.server.ts");
  const { surgicalKpis } = await import("../../app/models/kpi-surgical.server.ts");
  const { financialKpis } = await import("../../app/models/kpi-financial.server.ts");
  const { opmeKpis } = await import("../../app/models/kpi-opme.server.ts");
  const { metricsKpis } = await import("../../app/models/kpi-metricas.server.ts");
  const { getDashboardStats } = await import("../../app/models/dashboard.server.ts");
  const { computeFeesByDoctor, computePayerSummary } = await import("../../app/models/honorarios.server.ts");
  const schedule = await import("../../app/models/schedule.server.ts");
  const { loadBoard, loadColumn } = await import("../../app/models/pipeline.server.ts");
  const { computeTransactionSummary } = await import("../../app/models/transaction.server.ts");
  const { paidBilledCents, paidWhere } = await import("../../app/models/receivable.server.ts");
  const { countSurgeriesByDoctor } = await import("../../app/models/surgical-group.server.ts");
  const { todayIsoInClinic } = await import("../../app/lib/dates.ts");
  const { sqlite } = await import("../../app/.server/db.ts");
  const { PAGE_SIZE, parseListState } = await import("../../app/lib/list-params.ts");
  const lists = await import("../../app/lib/lists.ts");
  const { listPatients } = await import("../../app/models/patient.server.ts");
  const { listAppointments } = await import("../../app/models/appointment.server.ts");
  const { listSurgeries } = await import("../../app/models/surgery.server.ts");
  const { listTasks } = await import("../../app/models/task.server.ts");
  const { listMessages } = await import("../../app/models/message.server.ts");
  const { listDocuments } = await import("../../app/models/document.server.ts");
  const { commsKpis } = await import("../../app/models/comms.server.ts");

  const now = new Date();
  const tenYearsAgo = new Date(now);
  tenYearsAgo.setUTCFullYear(now.getUTCFullYear() - 10);
  tenYearsAgo.setUTCDate(tenYearsAgo.getUTCDate() + 2);
  const periods = [
    { label: "this month", params: new URLSearchParams({ periodo: "mes" }) },
    { label: "this year", params: new URLSearchParams({ periodo: "ano" }) },
    {
      label: "10 years",
      params: new URLSearchParams({ periodo: "personalizado", de: tenYearsAgo.toISOString().slice(0, 10), ate: now.toISOString().slice(0, 10) }),
    },
  ];

  const rows: FigureTiming[] = [];
  const kpiItems = (report: { figures: unknown[]; tables: unknown[] }) => report.figures.length + report.tables.length;
  type Filters = { doctorId: number | null; payerId: number | null };
  const all: Filters = { doctorId: null, payerId: null };
  const byDoctor = { doctorId, payerId: null };
  const byPayer = { doctorId: null, payerId };
  const kpiScreens: Array<{ screen: string; filters: Array<[string, Filters]>; build: (q: ReturnType<typeof parseKpiPeriod>, f: Filters) => { figures: unknown[]; tables: unknown[] } }> = [
    { screen: "/kpis/operacionais", filters: [["all", all], ["one doctor", byDoctor]], build: (q, f) => operationalKpis(q, f, now) },
    { screen: "/kpis/cirurgicos", filters: [["all", all], ["one doctor", byDoctor], ["one payer", byPayer]], build: (q, f) => surgicalKpis(q, f, now) },
    { screen: "/kpis/financeiros", filters: [["all", all], ["one payer", byPayer]], build: (q, f) => financialKpis(q, f, now) },
    { screen: "/kpis/opme", filters: [["all", all], ["one doctor", byDoctor]], build: (q, f) => opmeKpis(q, f) },
    { screen: "/kpis/metricas", filters: [["all", all]], build: (q) => metricsKpis(q) },
  ];
  for (const { screen, filters, build } of kpiScreens) {
    for (const period of periods) {
      const query = parseKpiPeriod(period.params, now);
      for (const [filter, value] of filters) {
        let items = 0;
        const ms = time(() => (items = kpiItems(build(query, value))));
        rows.push({ screen, period: period.label, filter, ms, items });
      }
    }
  }

  // The dashboard's eight figures (revenue included, as an admin sees them).
  rows.push({ screen: "/dashboard", period: "now", filter: "all", ms: time(() => getDashboardStats({ now, includeRevenue: true })), items: 8 });

  // Honorários reports: one row per doctor / payer, so each report is one figure per row shown.
  // Without dates (the screens' first view) they sum every line.
  const everyDate = { label: "all", range: { from: null, to: null } };
  for (const { label, range } of [...periods.map((p) => ({ label: p.label, range: parseKpiPeriod(p.params, now).period })), everyDate]) {
    let n = 0;
    const doctorsMs = time(() => (n = computeFeesByDoctor({ from: range.from, to: range.to, doctorId: null }, { ownDoctorOnly: false, doctorId: null }).length));
    rows.push({ screen: "/honorarios/medicos", period: label, filter: "all", ms: doctorsMs, items: Math.max(1, n) });
    const payersMs = time(() => (n = computePayerSummary({ from: range.from, to: range.to, payerId: null }).length));
    rows.push({ screen: "/honorarios/pagador", period: label, filter: "all", ms: payersMs, items: Math.max(1, n) });
  }
  // The schedule's entries of this day, week and month (kept until the next write, like the
  // reports): one view of up to 100, 140 or 126 entries.
  for (const view of ["day", "week", "month"] as const) {
    const { days } = schedule.schedulePeriod(view, todayIsoInClinic());
    const ms = time(() => schedule.readScheduleEntries(days, schedule.scheduleEntryOptions(view, null)));
    rows.push({ screen: `/schedule?view=${view}`, period: `this ${view}`, filter: "all", ms, items: 1 });
  }
  // The pipeline's board (kept until the next write and for a minute): ten columns' counts and cards.
  const board = { doctorId: null, payerId: null, hospitalId: null, ans: null };
  rows.push({ screen: "/pipeline", period: "now", filter: "all", ms: time(() => loadBoard(board, now)), items: 1 });
  rows.push({ screen: "/pipeline", period: "now", filter: "one doctor", ms: time(() => loadBoard({ ...board, doctorId }, now)), items: 1 });
  // The cash book's three cards (Total Revenue, Total Expenses, Balance), over its filters.
  for (const period of periods) {
    const { period: range } = parseKpiPeriod(period.params, now);
    const filters = { type: null, category: null, from: range.from, to: range.to };
    rows.push({ screen: "/financial", period: period.label, filter: "all", ms: time(() => computeTransactionSummary(filters)), items: 3 });
  }
  const everything = { type: null, category: null, from: null, to: null };
  rows.push({ screen: "/financial", period: "all", filter: "all", ms: time(() => computeTransactionSummary(everything)), items: 3 });
  rows.push({ screen: "/financial", period: "all", filter: "one category", ms: time(() => computeTransactionSummary({ ...everything, category: "Cirurgias" })), items: 3 });
  // Cirurgias pagas' 'Valor faturado': every paid surgery's billed amount.
  const paid = { from: null, to: null, payerId: null };
  rows.push({ screen: "/financeiro/cirurgias-pagas", period: "all", filter: "all", ms: time(() => paidBilledCents(paidWhere(paid, "all"))), items: 1 });
  rows.push({ screen: "/financeiro/cirurgias-pagas", period: "all", filter: "one payer", ms: time(() => paidBilledCents(paidWhere({ ...paid, payerId }, "all"))), items: 1 });
  // Grupos cirúrgicos: every doctor's number of surgeries.
  rows.push({ screen: "/surgical-groups", period: "all", filter: "all", ms: time(() => countSurgeriesByDoctor()), items: 1 });
  // A list's page (kept with its search's plan until a table it reads is written): the first view
  // after a write to the patients, which every list reads, made so by a patient's name set to
  // itself before each read (the data is left as it was; only the patients' version moves).
  const write = sqlite.prepare("update patients set name = name where id = (select min(id) from patients)");
  const patientsPage = (page: string) => listPatients(parseListState(url(page), lists.PATIENT_LIST));
  const appointmentsPage = (page: string) => {
    const { filters, ...state } = parseListState(url(page), lists.APPOINTMENT_LIST);
    return listAppointments(state, filters);
  };
  const surgeriesPage = (page: string) => {
    const { filters, ...state } = parseListState(url(page), lists.SURGERY_LIST);
    return listSurgeries(state, filters);
  };
  const documentsPage = (page: string) => {
    const { filters, ...state } = parseListState(url(page), lists.DOCUMENT_LIST);
    return listDocuments(state, filters);
  };
  const tasksPage = (page: string) => {
    const { filters, ...state } = parseListState(url(page), lists.TASK_LIST);
    return listTasks(state, { q: state.q, filters, userId: 1, today: todayIsoInClinic() });
  };
  // The next page of a filter that holds most rows ('Próxima' from page 1: its cursor), as the list
  // and the board's column read it: past a cursor, SQLite once sorted every row after it (280 ms).
  const nextOf = (page: string, next: string | null) => (next ? `${page}&page=2&after=${encodeURIComponent(next)}` : page);
  const concluded = "/surgeries?stage=concluido";
  const completed = "/appointments?status=completed";
  const column = { doctorId: null, payerId: null, hospitalId: null, ans: null };
  const columnFirst = loadColumn("concluido", { q: "", page: 1, sort: "scheduledDate", dir: "asc" }, column, now);
  const { filters: _columnFilters, ...columnNext } = parseListState(url(nextOf("/pipeline?coluna=concluido", columnFirst.next)), lists.PIPELINE_LIST);
  const surgeriesNext = nextOf(concluded, surgeriesPage(concluded).next);
  const appointmentsNext = nextOf(completed, appointmentsPage(completed).next);
  const listPages: Array<[string, () => unknown]> = [
    ...["/patients", "/patients?q=silva"].map((page): [string, () => unknown] => [page, () => patientsPage(page)]),
    ...["/appointments", "/appointments?page=20000", "/appointments?q=silva"].map((page): [string, () => unknown] => [page, () => appointmentsPage(page)]),
    ...["/surgeries", "/surgeries?stage=aprovado", "/surgeries?q=silva"].map((page): [string, () => unknown] => [page, () => surgeriesPage(page)]),
    ...["/tasks", "/tasks?q=silva"].map((page): [string, () => unknown] => [page, () => tasksPage(page)]),
    // A name in a few thousand documents ('renato'), alone and among the exams: the search's middle ground.
    ...["/files", "/files?q=silva", "/files?q=renato", "/files?category=exame", "/files?q=renato&category=exame"].map((page): [string, () => unknown] => [page, () => documentsPage(page)]),
    [`${concluded}, next page`, () => surgeriesPage(surgeriesNext)],
    [`${completed}, next page`, () => appointmentsPage(appointmentsNext)],
    ["/pipeline?coluna=concluido, next page", () => loadColumn("concluido", columnNext, column, now)],
  ];
  for (const [page, read] of listPages) {
    rows.push({ screen: page, period: "now", filter: "a page of rows, after a write to the patients", ms: time(read, () => write.run()), items: 1 });
  }
  // The message log's pages, kept until a message is written (a status the provider moves): the
  // first view after such a write. Its middle page is a typed one, found in the date index.
  const touchMessage = sqlite.prepare("update messages set status = status where id = (select max(id) from messages)");
  const messagesPage = (page: string) => {
    const state = parseListState(url(page), lists.MESSAGE_LIST);
    return listMessages(state);
  };
  const messagePages = Math.max(1, Math.ceil(messagesPage("/communication/messages").total / PAGE_SIZE));
  for (const page of ["/communication/messages", "/communication/messages?status=read", `/communication/messages?page=${Math.ceil(messagePages / 2)}`]) {
    rows.push({ screen: page, period: "now", filter: "a page of rows, after a write to the messages", ms: time(() => messagesPage(page), () => touchMessage.run()), items: 1 });
  }
  // The communication centre's four figures (consenting patients, messages sent in 30 days, Drive folders, active rules).
  rows.push({ screen: "/communication", period: "30 days", filter: "all", ms: time(() => commsKpis(new Date()), () => write.run()), items: 4 });
  // A search's terms as they are typed: each is a first view (its plan is kept only once viewed),
  // so this is what every keystroke costs. No target: shown so a change's effect on them is seen.
  const searched: Array<[string, (page: string) => unknown]> = [
    ["/patients", patientsPage],
    ["/appointments", appointmentsPage],
    ["/surgeries", surgeriesPage],
  ];
  for (const [list, read] of searched) {
    for (const term of SEARCH_TERMS_TYPED) {
      const page = `${list}?q=${encodeURIComponent(term)}`;
      rows.push({ screen: `${list}?q=${term}`, period: "now", filter: "a term as typed, after a write to the patients", ms: time(() => read(page), () => write.run()), items: 1, target: false });
    }
  }
  return rows;
}

const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function figuresMarkdown(rows: FigureTiming[]): { markdown: string; failed: FigureTiming[] } {
  const failed = rows.filter((r) => r.target !== false && r.ms / r.items > FIGURE_BUDGET_MS);
  const lines = [
    `| screen | period | filter | report, uncached | figures and tables | per figure (≤ ${FIGURE_BUDGET_MS} ms) |`,
    "|---|---|---|--:|--:|--:|",
    ...rows.map(
      (r) =>
        `| ${r.screen} | ${r.period} | ${r.filter} | ${fmt(r.ms)} ms | ${r.items} | ${fmt(r.ms / r.items)} ms ${r.target === false ? "(no target)" : r.ms / r.items <= FIGURE_BUDGET_MS ? "PASS" : "FAIL"} |`,
    ),
  ];
  return { markdown: lines.join("\n"), failed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  measureFigures().then(
    (rows) => {
      const out = process.argv.find((arg) => arg.startsWith("--json-out="))?.slice("--json-out=".length);
      if (out) fs.writeFileSync(out, JSON.stringify(rows));
      else console.log(figuresMarkdown(rows).markdown);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
