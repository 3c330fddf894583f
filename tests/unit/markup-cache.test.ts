/**
 * Kept markup (app/lib/markup-cache.tsx, docs/decisions/0025-cached-shell-markup.md): the sidebar
 * sent from memory is byte for byte what React renders for that page, and its key tells apart
 * every two pages whose sidebars differ.
 */
import { type ReactNode, createElement } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter, createRoutesStub } from "react-router";
import { describe, expect, test } from "vitest";
import { clearKeptMarkup, innerHtmlOf, keptMarkupSize, markupStoreForPage } from "~/.server/markup-cache";
import { DataTable, type DataTableColumn } from "~/components/data-table";
import { FilterBar } from "~/components/filter-bar";
import { ListToolbar } from "~/components/list-toolbar";
import { PageHeader, type PageHeaderProps } from "~/components/page-header";
import { PatientLink } from "~/components/patient-link";
import { PatientTimeline } from "~/components/patient/patient-timeline";
import { TeamForm } from "~/components/surgery-fees/fee-forms";
import { type BoardColumn, PipelineBoard, useHrefWith } from "~/components/pipeline-board";
import { PipelineColumnPage } from "~/components/pipeline-column";
import { type RowRights, actionsColumn } from "~/components/row-actions";
import { DayView, MonthView, WeekView } from "~/components/schedule/schedule-views";
import { Sidebar } from "~/components/sidebar";
import { MarkupStoreContext, type MarkupStore, cacheKeyOf } from "~/lib/markup-cache";
import type { AppointmentStatus } from "~/lib/enums";
import { NAVIGATION } from "~/lib/navigation";
import { PIPELINE_STAGES } from "~/lib/pipeline";
import type { DashboardStats } from "~/models/dashboard.server";
import type { DoctorFees } from "~/models/honorarios.server";
import type { TimelineItem } from "~/models/patient-record.server";
import Dashboard from "~/routes/dashboard";
import FeesByDoctorPage from "~/routes/honorarios-medicos";
import SurgicalGroupsPage from "~/routes/surgical-groups";
import { scheduleDaysForPage, schedulePeriod } from "~/models/schedule.server";
import SchedulePage from "~/routes/schedule";
import PatientPage from "~/routes/patient";
import SurgeryFeesPage from "~/routes/surgery-fees";

describe("innerHtmlOf", () => {
  test("finds the element by its id, past nested elements of the same tag", () => {
    const html = '<div class="a"><div id="x" data-y="1"><div>one</div><div><div>two</div></div></div><div>after</div></div>';
    expect(innerHtmlOf(html, "div", "x")).toBe("<div>one</div><div><div>two</div></div>");
  });

  test("an empty element, and tags that only start like the one sought", () => {
    expect(innerHtmlOf('<aside id="s"></aside>', "aside", "s")).toBe("");
    expect(innerHtmlOf('<nav id="n"><navx>a</navx><nav>b</nav></nav>', "nav", "n")).toBe("<navx>a</navx><nav>b</nav>");
  });

  test("null when the id is missing, on another tag, or the element is not closed", () => {
    expect(innerHtmlOf("<div>x</div>", "div", "x")).toBeNull();
    expect(innerHtmlOf('<div><span id="x">a</span></div>', "div", "x")).toBeNull();
    expect(innerHtmlOf('<div id="x"><div>a</div>', "div", "x")).toBeNull();
  });
});

const PATHS = [
  ...new Set(NAVIGATION.flatMap((s) => (s.kind === "items" ? s.items : s.group.entries.flatMap((e) => ("items" in e ? e.items : [e])))).map((i) => i.to)),
  "/patients/42",
  "/PATIENTS",
  "/surgeries/7/fees",
  "/settings",
  "/",
];

/** The sidebar of `path` as the server renders it, with `store` (or none, as the browser renders it). */
function renderSidebar(path: string, clinicName: string, store: MarkupStore | null) {
  const sidebar = createElement(Sidebar, { clinicName, narrow: false, drawerOpen: false, onCloseDrawer: () => {} });
  return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(StaticRouter, { location: path }, sidebar)));
}

describe("cacheKeyOf", () => {
  test("is the JSON of the values followed by an id per shared object's content: equal content, equal key; other content, other key", () => {
    const cards = [{ id: 1, name: 'Ana "A" <b>' }];
    const day = { entries: [], total: 0 };
    const board = cacheKeyOf(["board", true, "/pipeline"], cards);
    expect(board.startsWith(JSON.stringify(["board", true, "/pipeline"]))).toBe(true);
    // Short: the 20-30 KB of a board's cards are not in it.
    expect(board.length).toBeLessThan(JSON.stringify(["board", true, "/pipeline"]).length + 10);
    // The same content in another object (a page read again after a write elsewhere) is the same key.
    expect(cacheKeyOf(["board", true, "/pipeline"], structuredClone(cards))).toBe(board);
    // Any change of content, or of order, or of the values, is another key.
    const keys = new Set([
      board,
      cacheKeyOf(["board", true, "/pipeline"], [{ id: 1, name: 'Ana "A" <b> ' }]),
      cacheKeyOf(["board", false, "/pipeline"], cards),
      cacheKeyOf(["board", true, "/pipeline"], cards, day),
      cacheKeyOf(["board", true, "/pipeline"], day, cards),
      cacheKeyOf(["board", true, "/pipeline"], day),
      cacheKeyOf(["board", true, "/pipeline"]),
      cacheKeyOf(["board", true], cards),
    ]);
    expect(keys.size).toBe(8);
  });

  test("makes a shared object's JSON once, however many pages ask", () => {
    let made = 0;
    const shared = { toJSON: () => (made++, { cards: 100 }) };
    const keys = new Set([cacheKeyOf(["a"], shared), cacheKeyOf(["b"], shared), cacheKeyOf(["a"], shared)]);
    expect(made).toBe(1);
    expect(keys.size).toBe(2);
    // Another object with the same content is made again, and gives the same key.
    expect(cacheKeyOf(["a"], { toJSON: () => (made++, { cards: 100 }) })).toBe(cacheKeyOf(["a"], shared));
    expect(made).toBe(2);
  });
});

describe("the sidebar's kept markup", () => {
  test("a page sent from kept markup is the page React renders, for every section", () => {
    clearKeptMarkup();
    for (const path of PATHS) {
      const rendered = renderSidebar(path, "Clínica Coluna & Cia", null);
      const first = markupStoreForPage();
      const missOrHit = renderSidebar(path, "Clínica Coluna & Cia", first);
      first.keep(Buffer.from(missOrHit));
      const second = markupStoreForPage();
      let captured = false;
      const kept = renderSidebar(path, "Clínica Coluna & Cia", { get: second.get, capture: () => (captured = true) });
      expect(captured, path).toBe(false); // sent from memory
      expect(missOrHit, path).toBe(rendered);
      expect(kept, path).toBe(rendered);
    }
  }, 30_000);

  test("pages with the same key have the same sidebar, and a new clinic name is a new key", () => {
    const byKey = new Map<string, string>();
    for (const clinicName of ["Minha Clínica", "Clínica Neuro Coluna"]) {
      for (const path of PATHS) {
        let key = "";
        renderSidebar(path, clinicName, { get: () => undefined, capture: (k) => (key = k) });
        const rendered = renderSidebar(path, clinicName, null);
        expect(byKey.get(key) ?? rendered, `${clinicName} ${path}`).toBe(rendered);
        byKey.set(key, rendered);
      }
    }
    // Sections share a sidebar, but not every page has the same one.
    expect(byKey.size).toBeGreaterThan(PATHS.length / 2);
  }, 30_000);
});

/** The header of a page titled `title` for `user`, as the server renders it with `store` (or none). */
function renderHeader(user: PageHeaderProps["user"], title: { title: string; subtitle?: string; pageTitle?: string }, store: MarkupStore | null) {
  const { pageTitle, ...handle } = title;
  const Stub = createRoutesStub([
    { path: "/x", handle, loader: () => ({ pageTitle }), HydrateFallback: () => null, Component: () => createElement(PageHeader, { user }) },
  ]);
  return renderToString(
    createElement(MarkupStoreContext.Provider, { value: store }, createElement(Stub, { initialEntries: ["/x"], hydrationData: { loaderData: { "0": { pageTitle } } } })),
  );
}

describe("the header's kept markup", () => {
  const users: PageHeaderProps["user"][] = [
    { name: "Ana Admin", email: "ana@clinica.test", role: "admin" },
    { name: "Ana Admin", email: "ana2@clinica.test", role: "admin" },
    { name: "Ana Admin", email: "ana@clinica.test", role: "staff" },
    { name: "Bruno", email: "bruno@clinica.test", role: "doctor" },
    { name: "", email: "sem-nome@clinica.test", role: null },
  ];
  const titles = [
    { title: "Pacientes", subtitle: "Cadastro e histórico dos pacientes" },
    { title: "Pacientes" },
    { title: "Em construção", pageTitle: "Triagem" },
  ];

  test("is what React renders, and tells every user and page apart", () => {
    clearKeptMarkup();
    const byKey = new Map<string, string>();
    for (const user of users) {
      for (const title of titles) {
        const rendered = renderHeader(user, title, null);
        expect(rendered).toContain(user.email);
        let key = "";
        const first = markupStoreForPage();
        const firstRender = renderHeader(user, title, { get: first.get, capture: (k, tag, id) => ((key = k), first.capture(k, tag, id)) });
        first.keep(Buffer.from(firstRender));
        const kept = renderHeader(user, title, { get: markupStoreForPage().get, capture: () => expect.unreachable("sent from memory") });
        expect(firstRender).toBe(rendered);
        expect(kept).toBe(rendered);
        expect(byKey.has(key), key).toBe(false);
        byKey.set(key, rendered);
      }
    }
  }, 30_000);
});

/** Renders `element` at `path` as the server does with `store`; `captured` reports a capture. */
function renderAt(path: string, element: ReturnType<typeof createElement>, store: MarkupStore | null) {
  return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(StaticRouter, { location: path }, element)));
}

/**
 * Renders `element` three times: without a store (the browser's markup), through a new store (a
 * miss that keeps its markup) and through the next (sent from memory). Returns the three and the key.
 */
function renderKeptTwice(path: string, element: ReturnType<typeof createElement>, keyOfTag?: string) {
  const rendered = renderAt(path, element, null);
  let key: string | null = null;
  const first = markupStoreForPage();
  const firstRender = renderAt(path, element, {
    get: first.get,
    capture: (k, tag, id) => {
      if (keyOfTag === undefined || tag === keyOfTag) key = k;
      first.capture(k, tag, id);
    },
  });
  first.keep(Buffer.from(firstRender));
  let capturedAgain = false;
  const kept = renderAt(path, element, { get: markupStoreForPage().get, capture: () => (capturedAgain = true) });
  return { rendered, firstRender, kept, key, capturedAgain };
}

/**
 * `render` three ways: without a store (the browser's markup), through a new store (a miss that
 * keeps its markup) and through the next (sent from memory, keeping nothing). Expects one page all
 * three times; returns it and the key it was kept under.
 */
function keptThreeWays(render: (store: MarkupStore | null) => string) {
  const rendered = render(null);
  let key: string | null = null;
  const first = markupStoreForPage();
  const firstRender = render({ get: first.get, capture: (k, tag, id) => ((key = k), first.capture(k, tag, id)) });
  first.keep(Buffer.from(firstRender));
  const kept = render({ get: markupStoreForPage().get, capture: () => expect.unreachable("sent from memory") });
  expect(firstRender).toBe(rendered);
  expect(kept).toBe(rendered);
  return { rendered, kept, key: key as string | null };
}

/** A route's page with `loaderData` at `path`: without a store, a first view that keeps it, a view sent from memory; the last key kept. */
function keptPage(path: string, Page: (props: never) => ReactNode, loaderData: unknown, text: string) {
  const render = (store: MarkupStore | null) => {
    // The route's component is the stub's, given its loader data only.
    const Stub = createRoutesStub([{ path: path.split("?")[0], HydrateFallback: () => null, Component: () => Page({ loaderData } as never) }]);
    return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(Stub, { initialEntries: [path] })));
  };
  const { rendered, key } = keptThreeWays(render);
  expect(rendered).toContain(text);
  return key;
}

/** `renderKeptTwice`, expecting the three renders to be one page that shows `text`; its key. */
function keptKeyOf(path: string, element: ReturnType<typeof createElement>, text: string) {
  const { rendered, firstRender, kept, key, capturedAgain } = renderKeptTwice(path, element);
  expect(rendered).toContain(text);
  expect(firstRender).toBe(rendered);
  expect(capturedAgain).toBe(false);
  expect(kept).toBe(rendered);
  return key;
}

interface Row {
  id: number;
  name: string;
}
const ROWS: Row[] = [
  { id: 1, name: "Ana <Souza> & \"Filhos\"" },
  { id: 2, name: "Bruno Lima" },
];

function table(rows: Row[], rights: RowRights, keep: boolean, columns?: DataTableColumn<Row>[]) {
  const Table = () =>
    createElement(DataTable<Row>, {
      caption: "Pacientes",
      rows,
      total: rows.length,
      page: 1,
      pageSize: 25,
      getRowKey: (row) => row.id,
      emptyText: "Nenhum",
      keepRows: keep ? rights : undefined,
      columns: columns ?? [
        { key: "name", header: "Nome", cell: (row) => createElement(PatientLink, { id: row.id, name: row.name }) },
        ...actionsColumn<Row>(rights, (changes) => `/patients?${new URLSearchParams(changes as Record<string, string>)}`, (row) => row.name),
      ],
    });
  return createElement(Table);
}

describe("a list's kept rows", () => {
  const all: RowRights = { edit: true, delete: true };

  test("are what React renders, and are sent from memory the second time", () => {
    clearKeptMarkup();
    const { rendered, firstRender, kept, key, capturedAgain } = renderKeptTwice("/patients?q=ana", table(ROWS, all, true), "tbody");
    expect(rendered).toContain("Excluir Bruno Lima");
    expect(key).not.toBeNull();
    expect(firstRender).toBe(rendered);
    expect(capturedAgain).toBe(false);
    expect(kept).toBe(rendered);
  });

  test("sent from memory, the rows' cells are not made at all", () => {
    clearKeptMarkup();
    let cells = 0;
    const counted = table(ROWS, all, true, [{ key: "name", header: "Nome", cell: (row) => (cells++, row.name) }]);
    const { rendered, kept } = renderKeptTwice("/patients", counted);
    expect(kept).toBe(rendered);
    // The browser's render and the first server render each make both cells; the kept one none.
    expect(cells).toBe(4);
  });

  test("other rows, rights or URL are another key; without keepRows nothing is kept", () => {
    clearKeptMarkup();
    const keys = new Set<string | null>();
    for (const [path, rows, rights] of [
      ["/patients", ROWS, all],
      ["/patients", ROWS, { edit: true, delete: false }],
      ["/patients", ROWS.slice(1), all],
      ["/patients", [{ ...ROWS[1], name: "Bruno Lima Filho" }], all],
      ["/patients?page=2", ROWS, all],
    ] as const) {
      const { rendered, kept, key } = renderKeptTwice(path, table([...rows], rights, true), "tbody");
      expect(kept).toBe(rendered);
      keys.add(key);
    }
    expect(keys.size).toBe(5);
    // The header and the pager are kept either way; the rows only with keepRows.
    const plain = renderKeptTwice("/patients", table(ROWS, all, false), "tbody");
    expect(plain.key).toBeNull();
    expect(plain.kept).toBe(plain.rendered);
  });
});

describe("a list's toolbar, filters, header and pager kept", () => {
  interface Chrome {
    canExport: boolean;
    create: boolean;
    placeholder: string;
    status: string | null;
    doctors: { value: string; label: string }[];
    keep: Record<string, string | null>;
    header: string;
    total: number;
    page: number;
    keyset?: { next: string | null; prev: string | null; totalCapped: boolean };
    /** The order the loader applied (its default), when the URL names none. */
    sort?: { key: string; dir: "asc" | "desc" };
  }
  const base: Chrome = {
    canExport: true,
    create: true,
    placeholder: "Buscar pacientes...",
    status: null,
    doctors: [
      { value: "1", label: "Dra. Ana <Souza>" },
      { value: "2", label: "Dr. Bruno" },
    ],
    keep: { q: null, sort: null, dir: null },
    header: "Nome",
    total: 60,
    page: 1,
  };
  const ListChrome = ({ chrome }: { chrome: Chrome }) =>
    createElement(
      "div",
      null,
      createElement(ListToolbar, {
        search: { placeholder: chrome.placeholder, label: "Buscar pacientes" },
        listHref: "/patients",
        canExport: chrome.canExport,
        create: chrome.create ? { label: "Novo Paciente", href: "/patients?dialog=new" } : null,
      }),
      createElement(FilterBar, {
        label: "Filtrar pacientes",
        keep: chrome.keep,
        fields: [
          { name: "status", label: "Status", all: "Todos", options: [{ value: "ativo", label: "Ativo" }, { value: "inativo", label: "Inativo" }], value: chrome.status },
          { name: "doctor", label: "Médico", all: "Todos", options: chrome.doctors, value: null },
        ],
      }),
      createElement(DataTable<Row>, {
        caption: "Pacientes",
        rows: ROWS,
        total: chrome.total,
        page: chrome.page,
        pageSize: 25,
        keyset: chrome.keyset,
        sort: chrome.sort,
        getRowKey: (row) => row.id,
        emptyText: "Nenhum",
        columns: [{ key: "name", header: chrome.header, sortKey: "name", cell: (row) => row.name }],
      }),
    );
  /** The list at `path` as the server renders it with `store`, or as the browser does without one. */
  const render = (path: string, chrome: Chrome) => (store: MarkupStore | null) => {
    const Stub = createRoutesStub([{ path: path.split("?")[0], HydrateFallback: () => null, Component: () => createElement(ListChrome, { chrome }) }]);
    return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(Stub, { initialEntries: [path] })));
  };

  test("are what React renders, sent from memory; the URL and every prop are in their keys", () => {
    clearKeptMarkup();
    const variants: [string, Chrome][] = [
      ["/patients", base],
      ["/patients?q=ana", base],
      ["/patients?sort=name&dir=desc", base],
      ["/patients?page=2&after=abc", { ...base, page: 2, keyset: { next: "def", prev: "abc", totalCapped: false } }],
      ["/patients?page=2&after=abc", { ...base, page: 2, keyset: { next: null, prev: "abc", totalCapped: true } }],
      ["/doctors", base],
      ["/patients", { ...base, canExport: false }],
      ["/patients", { ...base, create: false }],
      ["/patients", { ...base, placeholder: "Buscar..." }],
      ["/patients?status=ativo", { ...base, status: "ativo" }],
      ["/patients", { ...base, doctors: base.doctors.slice(1) }],
      ["/patients", { ...base, doctors: [{ value: "2", label: "Dr. Bruno Filho" }] }],
      ["/patients", { ...base, keep: { q: "ana", sort: null, dir: null } }],
      ["/patients", { ...base, header: "Paciente" }],
      ["/patients", { ...base, total: 61 }],
      ["/patients", { ...base, sort: { key: "name", dir: "asc" } }],
      ["/patients", { ...base, sort: { key: "name", dir: "desc" } }],
    ];
    // One store for all: a key shared by two different markups would send one's as the other's.
    for (const [path, chrome] of variants) keptThreeWays(render(path, chrome));
    const kept = keptThreeWays(render("/patients?status=ativo", { ...base, status: "ativo" })).rendered;
    expect(kept).toContain('<option value="ativo" selected="">Ativo</option>');
    expect(kept).toContain("Limpar filtros");
    expect(kept).toMatch(/Página (<!-- -->)?1(<!-- -->)? de (<!-- -->)?3/);
  });

  test("a heading that is not text keeps the header from being kept, not the rest", () => {
    clearKeptMarkup();
    const tags: string[] = [];
    const first = markupStoreForPage();
    const view = render("/patients", base);
    const Custom = () =>
      createElement(DataTable<Row>, {
        rows: ROWS,
        total: 2,
        page: 1,
        pageSize: 25,
        getRowKey: (row) => row.id,
        emptyText: "Nenhum",
        columns: [{ key: "name", header: createElement("span", { className: "sr-only" }, "Nome"), cell: (row) => row.name }],
      });
    const html = renderToString(
      createElement(MarkupStoreContext.Provider, { value: { get: first.get, capture: (k, tag, id) => (tags.push(tag), first.capture(k, tag, id)) } }, createElement(StaticRouter, { location: "/patients" }, createElement(Custom))),
    );
    expect(html).toContain('<span class="sr-only">Nome</span>');
    expect(tags).toEqual(["div"]);
    expect(view(null)).toContain("Novo Paciente");
  });
});

function scheduleDays(view: "day" | "week" | "month", statusOfFirst: "scheduled" | "cancelled" = "scheduled") {
  const period = schedulePeriod(view, "2026-11-23", "2026-11-24");
  return period.days.map((day, index) => ({
    ...day,
    total: index % 3 === 0 ? 5 : 1,
    entries: [
      {
        id: 100 + index,
        startTime: day.start + 9 * 3_600_000,
        endTime: day.start + 10 * 3_600_000,
        status: (index === 0 ? statusOfFirst : "confirmed") as AppointmentStatus,
        patientId: 7,
        patientName: `Paciente ${index} <b>`,
        doctorName: "Dr. Rafael",
        type: "Retorno",
        location: "Sala 2",
      },
    ],
  }));
}

describe("the schedule's kept views", () => {
  const dayHref = (doctor: string) => (date: string) => `/schedule?view=day&date=${date}${doctor}`;
  const views = {
    day: (canEdit: boolean, _doctor: string, status?: "cancelled") => createElement(DayView, { day: scheduleDays("day", status)[0], canEdit }),
    week: (canEdit: boolean, doctor: string, status?: "cancelled") => createElement(WeekView, { days: scheduleDays("week", status), canEdit, dayHref: dayHref(doctor) }),
    month: (canEdit: boolean, doctor: string, status?: "cancelled") =>
      createElement(MonthView, { title: "novembro de 2026", days: scheduleDays("month", status), canEdit, dayHref: dayHref(doctor) }),
  };

  test.each(Object.entries(views))("%s: what React renders, sent from memory; rights, filter and entries are in the key", (_view, make) => {
    clearKeptMarkup();
    const keys = new Set<string | null>();
    for (const [path, element] of [
      ["/schedule", make(true, "")],
      ["/schedule", make(false, "")],
      ["/schedule?doctor=3", make(true, "&doctor=3")],
      ["/schedule", make(true, "", "cancelled")],
    ] as const) {
      keys.add(keptKeyOf(path, element, "Paciente 0 &lt;b&gt;"));
    }
    // The day view has no day links: the doctor filter reaches it through the edit links' return address.
    expect(keys.size).toBe(4);
  });
});

/** Ten columns, a card in the first: `daysInStage` and `ans` as the loader computes them. */
function boardColumns(daysInStage: number): BoardColumn[] {
  return PIPELINE_STAGES.map((stage, index) => ({
    stage: stage.id,
    label: stage.label,
    total: index === 0 ? 12 : 0,
    billedCents: index === 0 ? 250_000 : 0,
    cards:
      index === 0
        ? [
            {
              id: 5,
              patientName: "Marta <Souza>",
              doctorName: "Dr. Rafael",
              surgeryType: "Microdiscectomia lombar",
              hospital: null,
              payerName: "Unimed",
              scheduledText: "05/01/2026 09:00",
              ansDueText: null,
              stage: stage.id,
              daysInStage,
              ans: null,
              opme: null,
            },
          ]
        : [],
  }));
}

/** The board at `path` (a data router: the board reads fetchers), as the server renders it with `store`. */
function renderBoard(path: string, columns: BoardColumn[], canMove: boolean, store: MarkupStore | null) {
  const Board = () => {
    const moving = Number(new URLSearchParams(path.split("?")[1] ?? "").get("mover")) || null;
    return createElement(PipelineBoard, { columns, canMove, moving, hrefWith: useHrefWith() });
  };
  const Stub = createRoutesStub([{ path: "/pipeline", HydrateFallback: () => null, Component: Board }]);
  return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(Stub, { initialEntries: [path] })));
}

/**
 * Renders pipeline cards three ways (no store, a first view that keeps them, a view sent from
 * memory) and expects the same page each time; returns the key they were kept under.
 */
function expectCardsKept(path: string, render: (store: MarkupStore | null) => string): string | null {
  const { rendered, key } = keptThreeWays(render);
  expect(rendered).toContain("Marta &lt;Souza&gt;");
  expect(rendered.includes('action="/pipeline')).toBe(path.includes("mover=5"));
  return key;
}

describe("a patient's timeline kept", () => {
  const items: TimelineItem[] = [
    { kind: "appointment", id: 7, at: Date.UTC(2026, 2, 1, 12), title: "Retorno <pós-op>", detail: "Dra. Ana", state: "completed" },
    { kind: "task", id: 3, at: Date.UTC(2026, 0, 15, 10), title: "Pedir exames", detail: "2026-01-20", state: "pending" },
    { kind: "document", id: 9, at: Date.UTC(2026, 0, 10, 9), title: "laudo.pdf", detail: null, state: "laudo" },
  ];
  const counts = { appointment: 1, surgery: 0, message: 0, task: 1, document: 1 };
  const timeline = (patientId: number, rows: TimelineItem[]) => createElement(PatientTimeline, { patientId, counts, timeline: { items: rows, next: null }, fromTop: true });

  test("is what React renders, sent from memory; the patient and the events are in the key", () => {
    clearKeptMarkup();
    const keys = new Set<string | null>();
    for (const [patientId, rows] of [
      [1, items],
      [2, items],
      [1, items.slice(1)],
      [1, [{ ...items[0], state: "cancelled" }, ...items.slice(1)]],
    ] as [number, TimelineItem[]][]) {
      keys.add(keptKeyOf(`/patients/${patientId}`, timeline(patientId, rows), "laudo.pdf"));
    }
    expect(keys.size).toBe(4);
  });
});

describe("a surgery team's selects kept", () => {
  const doctors = [
    { value: "1", label: "Dr. Ana <Souza>" },
    { value: "2", label: "Dr. Bruno" },
    { value: "3", label: "Dra. Carla (inativa)", disabled: true },
  ];
  type LastResult = Parameters<typeof TeamForm>[0]["lastResult"];
  const render = (team: Record<string, number>, options: typeof doctors, lastResult: LastResult, store: MarkupStore | null) => {
    const Stub = createRoutesStub([
      { path: "/surgeries/5/honorarios", HydrateFallback: () => null, Component: () => createElement(TeamForm, { team, doctorOptions: options, lastResult }) },
    ]);
    return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(Stub, { initialEntries: ["/surgeries/5/honorarios"] })));
  };
  /** No store (the browser's markup), a first view that keeps it, a view sent from memory: the same page each time. */
  const keptKey = (team: Record<string, number>, options: typeof doctors, lastResult?: LastResult) => {
    const { rendered, kept, key } = keptThreeWays((store) => render(team, options, lastResult, store));
    expect(rendered).toContain("Dr. Ana &lt;Souza&gt;");
    return { key, kept };
  };

  test("are what React renders, sent from memory; the team and the doctors are in the key; not kept with a submission's errors", () => {
    clearKeptMarkup();
    const keys = new Set<string | null>();
    for (const [team, options] of [
      [{ cirurgiao: 1 }, doctors],
      [{ cirurgiao: 2 }, doctors],
      [{ cirurgiao: 1, anestesista: 2 }, doctors],
      [{ cirurgiao: 1 }, doctors.slice(0, 2)],
    ] as [Record<string, number>, typeof doctors][]) {
      keys.add(keptKey(team, options).key);
    }
    expect(keys.size).toBe(4);
    expect(keys.has(null)).toBe(false);
    const failed = keptKey({ cirurgiao: 1 }, doctors, { status: "error", error: { cirurgiao: ["Escolha o cirurgião"] } });
    expect(failed.key).toBeNull();
    expect(failed.kept).toContain("Escolha o cirurgião");
  });
});

describe("a report kept with the data it shows: the dashboard, honorários by doctor, surgical groups", () => {
  const trend = (thisMonth: number, lastMonth: number) => ({ thisMonth, lastMonth, percent: lastMonth ? Math.round(((thisMonth - lastMonth) / lastMonth) * 1000) / 10 : null });
  const stats = (patients: number, revenue: boolean): DashboardStats => ({
    monthStart: "2026-11-01",
    patients: { total: patients, trend: trend(12, 10) },
    appointments: { total: 5400, trend: trend(300, 280) },
    surgeries: { total: 870, trend: trend(20, 25) },
    revenue: revenue ? { monthCents: 12_345_678, trend: trend(100, 80) } : null,
    successRate: { part: 40, whole: 50, percent: 80 },
    averageWait: { days: 12.5, appointments: 400, windowDays: 90 },
    billingRate: { part: 0, whole: 0, percent: null },
    stageDistribution: PIPELINE_STAGES.map(({ id }, i) => ({ stage: id, label: `Etapa <${id}>`, count: i * 3 })),
  });
  const links = (...areas: string[]) => areas.map((area) => ({ to: `/${area}`, title: `Título ${area}`, description: "Descrição" }));

  test("the dashboard: its figures and the quick links the user may follow are the key; no figures, nothing kept", () => {
    clearKeptMarkup();
    const admin = stats(1234, true);
    const keys = [
      keptPage("/dashboard", Dashboard, { stats: admin, quickLinks: links("patients", "financial") }, "1.234"),
      keptPage("/dashboard", Dashboard, { stats: admin, quickLinks: links("patients") }, "Título patients"),
      keptPage("/dashboard", Dashboard, { stats: stats(1235, true), quickLinks: links("patients", "financial") }, "1.235"),
      keptPage("/dashboard", Dashboard, { stats: stats(1234, false), quickLinks: links("patients", "financial") }, "Etapa &lt;aprovado&gt;"),
    ];
    expect(new Set(keys).size).toBe(4);
    expect(keys).not.toContain(null);
    expect(keptPage("/dashboard", Dashboard, { stats: null, quickLinks: links("patients") }, "Estatísticas indisponíveis")).toBeNull();
  });

  test("honorários by doctor: the rows are the key", () => {
    clearKeptMarkup();
    const row = (id: number, name: string, total: number): DoctorFees => ({ id, name, specialty: "Neurocirurgia", qty: 2, total_principal: total, total_auxiliar: 0, total_anestesista: 0, total });
    const page = (rows: DoctorFees[]) => ({ rows, error: null, filters: { from: null, to: null, doctorId: null }, doctorOptions: [], ownOnly: false });
    const a = keptPage("/honorarios/medicos", FeesByDoctorPage, page([row(1, "Dr. Ana <Souza>", 150_000), row(2, "Dr. Bruno", 90_000)]), "Dr. Ana &lt;Souza&gt;");
    const b = keptPage("/honorarios/medicos?from=2026-01-01", FeesByDoctorPage, page([row(1, "Dr. Ana <Souza>", 160_000), row(2, "Dr. Bruno", 90_000)]), "1.600,00");
    expect(a).not.toBeNull();
    expect(b).not.toBe(a);
  });

  test("surgical groups: the page of groups is the key", () => {
    clearKeptMarkup();
    const group = (specialty: string, active: boolean) => ({
      specialty,
      doctorCount: 1,
      surgeryCount: 7,
      doctors: [{ id: 1, name: "Dra. Carla <C>", specialty, crm: "12345", crmUf: "SP", active, surgeries: 7 }],
    });
    const page = (groups: ReturnType<typeof group>[]) => ({ groups, total: groups.length, page: 1, pageSize: 25 });
    const a = keptPage("/surgical-groups", SurgicalGroupsPage, page([group("Coluna", true)]), "Dra. Carla &lt;C&gt;");
    const b = keptPage("/surgical-groups", SurgicalGroupsPage, page([group("Coluna", false)]), "Inativo");
    expect(a).not.toBeNull();
    expect(b).not.toBe(a);
  });
});

describe("the schedule's controls kept", () => {
  const days = scheduleDaysForPage(scheduleDays("month"), "month");
  const page = (changes: Partial<Record<string, unknown>> = {}) => ({
    view: "month" as const,
    date: "2026-11-23",
    title: "novembro de 2026",
    previousDate: "2026-10-23",
    nextDate: "2026-12-23",
    days,
    doctorId: null,
    doctors: [
      { id: 1, name: "Dra. Ana <Souza>" },
      { id: 2, name: "Dr. Bruno" },
    ],
    permissions: { edit: true, create: true },
    ...changes,
  });

  test("are what React renders, sent from memory; the URL, the period, the doctor, the doctors and the right to create are in their keys", () => {
    clearKeptMarkup();
    // One store for all: a key shared by two different markups would send one's as the other's.
    const variants: [string, ReturnType<typeof page>, string][] = [
      ["/schedule?view=month", page(), "Nova consulta"],
      ["/schedule?view=month&date=2026-11-23", page(), "date%3D2026-11-23"],
      ["/schedule?view=month&date=2026-12-23", page({ date: "2026-12-23", title: "dezembro de 2026", previousDate: "2026-11-23", nextDate: "2027-01-23" }), "dezembro de 2026"],
      ["/schedule?view=month&date=2026-12-23", page({ date: "2026-12-23", title: "dezembro (feriados)", previousDate: "2026-11-23", nextDate: "2027-01-23" }), "dezembro (feriados)"],
      ["/schedule?view=month&doctor=2", page({ doctorId: 2 }), '<option value="2" selected="">'],
      ["/schedule?view=month", page({ doctors: [{ id: 2, name: "Dr. Bruno Filho" }] }), "Dr. Bruno Filho"],
      ["/schedule?view=month", page({ permissions: { edit: true, create: false } }), "Todos os médicos"],
      ["/schedule?view=week&date=2026-11-23", page({ view: "week" }), 'href="/schedule?view=month&amp;date=2026-11-23"'],
    ];
    for (const [path, loaderData, text] of variants) keptPage(path, SchedulePage, loaderData, text);
  });
});

describe("a patient record's head kept", () => {
  const patient = {
    id: 42,
    name: "Maria <Souza>",
    cpf: "12345678909",
    dateOfBirth: "1980-06-15",
    phone: "11987654321",
    email: "maria@example.com",
    address: "Rua A, 1",
    referrerName: "Dr. Indicador",
    insurance: "Unimed",
    insuranceCardNumber: "0001",
    whatsappOptIn: true,
    whatsappOptInAt: new Date(Date.UTC(2026, 0, 2, 12)),
    medicalHistory: null,
    anonymizedAt: null,
    createdAt: new Date(Date.UTC(2025, 4, 1, 12)),
    updatedAt: new Date(Date.UTC(2026, 1, 3, 15)),
  };
  const consents = [
    { purpose: "whatsapp", current: { granted: true, source: "cadastro", at: new Date(Date.UTC(2026, 0, 2, 12)), recordedBy: null } },
    { purpose: "pesquisa", current: null },
  ];
  const actions = { edit: true, appointment: true, surgery: true, message: true, upload: true, drive: false };
  const lgpd = { consents: true, accessReport: true, export: true, anonymise: true };
  const page = (changes: Partial<Record<string, unknown>> = {}) => ({
    pageTitle: patient.name,
    patient,
    counts: { appointment: 0, surgery: 0, message: 0, task: 0, document: 0 },
    timeline: { items: [], next: null },
    documents: [],
    fromTop: true,
    consents,
    consentDialog: null,
    lgpd,
    anonymiseDialog: false,
    actions,
    ...changes,
  });

  test("is what React renders, sent from memory; the patient, the consents and the user's rights are in the key", () => {
    clearKeptMarkup();
    // One store for all: a key shared by two different markups would send one's as the other's.
    const variants: [string, ReturnType<typeof page>, string][] = [
      ["/patients/42", page(), "Agendar consulta"],
      ["/patients/42", page({ patient: { ...patient, phone: "11912345678" } }), "(11) 91234-5678"],
      ["/patients/42", page({ actions: { ...actions, appointment: false } }), "Agendar cirurgia"],
      ["/patients/42", page({ lgpd: { ...lgpd, consents: false } }), "Não registrado"],
      ["/patients/42", page({ consents: [consents[0], { purpose: "pesquisa", current: { granted: false, source: "formulario", at: new Date(Date.UTC(2026, 2, 1)), recordedBy: "Ana" } }] }), "Termo assinado"],
      ["/patients/7", page({ patient: { ...patient, id: 7 } }), "patientId=7"],
    ];
    for (const [path, loaderData, text] of variants) keptPage(path, PatientPage, loaderData, text);
  });
});

describe("a surgery's honorários screen kept", () => {
  const line = {
    id: 11,
    doctorId: 1,
    doctorName: "Dr. Ana <Souza>",
    role: "principal",
    position: null,
    code: "3.07.15.18-0",
    porte: "10A",
    anestheticPorte: null,
    porteValueCents: 185_475,
    procedurePercent: 100,
    sharePercent: null,
    accommodationFactor: 1,
    urgencyPercent: 0,
    contralateral: false,
    computedCents: 185_475,
    amountCents: 185_475,
    overrideReason: null,
    overriddenAt: null,
    overriddenByName: null,
  };
  const screen = {
    surgery: { id: 5, surgeryType: "Artrodese lombar", scheduledDate: new Date(Date.UTC(2026, 5, 3, 13)), estimatedDurationMin: 180, doctorId: 1, patientName: "Maria <Souza>", payerId: 2, payerName: null, hospital: "Hospital Central" },
    payer: { id: 2, name: "Unimed" },
    rules: { assistantPercents: [30, 20, 20, 20], multipleSameRoutePercent: 50, multipleOtherRoutePercent: 70, urgencySurchargePercent: 30 },
    porteTable: { edition: 2022, band: "original" },
    procedures: [{ id: 3, code: "3.07.15.18-0", description: "Artrodese", porte: "10A", assistantsCount: 2, anestheticPorte: 6, accessRoute: "same", bilateral: false }],
    team: { cirurgiao: 1 },
    settings: { accommodation: "enfermaria", urgency: "auto", computedAt: new Date(Date.UTC(2026, 5, 4, 12)) },
    urgency: { derived: { urgent: false, reason: null }, urgent: false },
    lines: [line],
    totalCents: 185_475,
  };
  const doctorOptions = [
    { value: "1", label: "Dr. Ana <Souza>" },
    { value: "2", label: "Dr. Bruno" },
  ];
  const page = (changes: Partial<Record<string, unknown>> = {}) => ({
    screen,
    canEdit: true,
    canTiss: true,
    ownOnly: false,
    confirmRecompute: false,
    adjusting: null,
    doctorOptions,
    closeTo: "/surgeries/5/honorarios",
    ...changes,
  });

  test("is what React renders, sent from memory; the screen, the doctors, the rights and the URL are in the key", () => {
    clearKeptMarkup();
    // One store for all: a key shared by two different markups would send one's as the other's.
    const variants: [string, ReturnType<typeof page>, string][] = [
      ["/surgeries/5/honorarios", page(), "Guia de Honorários TISS (XML)"],
      ["/surgeries/5/honorarios", page({ canTiss: false }), "Recalcular honorários"],
      ["/surgeries/5/honorarios", page({ canEdit: false, canTiss: false }), "profissional(is) na equipe"],
      ["/surgeries/5/honorarios", page({ canEdit: false, canTiss: false, doctorOptions: [] }), "profissional(is) na equipe"],
      ["/surgeries/5/honorarios", page({ canEdit: false, canTiss: false, ownOnly: true, doctorOptions: [] }), "Meus honorários nesta cirurgia"],
      ["/surgeries/5/honorarios", page({ doctorOptions: doctorOptions.slice(0, 1) }), "Escolha o cirurgião"],
      ["/surgeries/5/honorarios", page({ screen: { ...screen, lines: [{ ...line, amountCents: 200_000, overrideReason: "Acordo" }], totalCents: 200_000 } }), "Acordo"],
      ["/surgeries/5/honorarios?recalcular=1", page(), "?recalcular=1"],
    ];
    for (const [path, loaderData, text] of variants) expect(keptPage(path, SurgeryFeesPage, loaderData, text)).not.toBeNull();
  });

  test("is rendered afresh with a refused form's errors", () => {
    clearKeptMarkup();
    const actionData = { intent: "add-procedure", result: { status: "error", initialValue: { code: "9" }, error: { code: ["Código não encontrado"] } } };
    const render = (store: MarkupStore | null) => {
      const Stub = createRoutesStub([
        { path: "/surgeries/5/honorarios", HydrateFallback: () => null, Component: () => SurgeryFeesPage({ loaderData: page(), actionData } as never) },
      ]);
      return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(Stub, { initialEntries: ["/surgeries/5/honorarios"] })));
    };
    // The clean screen is kept first; the refused form's page must not be sent from it.
    keptPage("/surgeries/5/honorarios", SurgeryFeesPage, page(), "Adicionar procedimento");
    // keptThreeWays: the page without a store, with it, and with what it kept are one page.
    expect(keptThreeWays(render).rendered).toContain("Código não encontrado");
  });
});

describe("the pipeline board's kept markup", () => {
  test("is what React renders, sent from memory; cards, rights and the open menu are in the key", () => {
    clearKeptMarkup();
    const keys = new Set<string | null>();
    for (const [path, days, canMove] of [
      ["/pipeline", 3, true],
      ["/pipeline", 3, false],
      ["/pipeline", 4, true],
      ["/pipeline?doctor=2", 3, true],
      ["/pipeline?mover=5", 3, true],
    ] as const) {
      const columns = boardColumns(days);
      keys.add(expectCardsKept(path, (store) => renderBoard(path, columns, canMove, store)));
    }
    expect(keys.size).toBe(5);
  });
});

describe("a pipeline column's kept markup", () => {
  test("is what React renders, sent from memory; cards, rights and the open menu are in the key", () => {
    clearKeptMarkup();
    const renderColumn = (path: string, days: number, canMove: boolean, store: MarkupStore | null) => {
      const [first] = boardColumns(days);
      const column = { stage: first.stage, label: first.label, rows: first.cards, page: 1, pageSize: 25, total: 1, billedCents: first.billedCents, next: null, prev: null };
      const Column = () => {
        const moving = Number(new URLSearchParams(path.split("?")[1] ?? "").get("mover")) || null;
        return createElement(PipelineColumnPage, { column, canMove, moving, hrefWith: useHrefWith() });
      };
      const Stub = createRoutesStub([{ path: "/pipeline", HydrateFallback: () => null, Component: Column }]);
      return renderToString(createElement(MarkupStoreContext.Provider, { value: store }, createElement(Stub, { initialEntries: [path] })));
    };
    const keys = new Set<string | null>();
    for (const [path, days, canMove] of [
      ["/pipeline?coluna=aguarda_docs", 3, true],
      ["/pipeline?coluna=aguarda_docs", 3, false],
      ["/pipeline?coluna=aguarda_docs", 4, true],
      ["/pipeline?coluna=aguarda_docs&mover=5", 3, true],
    ] as const) {
      keys.add(expectCardsKept(path, (store) => renderColumn(path, days, canMove, store)));
    }
    expect(keys.size).toBe(4);
  });
});

describe("the store's budget", () => {
  test("keeps up to about 12 million characters and bytes, forgetting the least recently used first", () => {
    clearKeptMarkup();
    const page = (id: string, size: number) => Buffer.from(`<div id="${id}">${"x".repeat(size)}</div>`);
    const keepOne = (key: string, size: number) => {
      const store = markupStoreForPage();
      store.capture(key, "div", key);
      store.keep(page(key, size));
    };
    // Each entry counts its key, its markup's characters and their UTF-8 bytes.
    keepOne("a", 2_500_000);
    keepOne("b", 2_500_000);
    expect(markupStoreForPage().get("a")).toHaveLength(2_500_000); // 'a' is now the most recent
    keepOne("c", 2_500_000);
    expect(markupStoreForPage().get("b")).toBeUndefined();
    expect(markupStoreForPage().get("a")).toHaveLength(2_500_000);
    expect(keptMarkupSize()).toEqual({ entries: 2, size: 10_000_002 });
    keepOne("huge", 6_000_000); // more than the whole budget: not kept, nothing forgotten for it
    expect(keptMarkupSize().entries).toBe(2);
    keepOne("a", 10); // kept again: replaces its old markup
    expect(keptMarkupSize()).toEqual({ entries: 2, size: 5_000_022 });
  });

  test("a page given kept markup has its bytes, and only for the very markup it was given", () => {
    clearKeptMarkup();
    const first = markupStoreForPage();
    first.capture("k", "div", "k");
    expect(first.capturing).toBe(true);
    first.keep(Buffer.from('<main><div id="k">Olá, <b>Clínica</b></div></main>'));
    const second = markupStoreForPage();
    expect(second.capturing).toBe(false);
    expect(second.bytesOf("Olá, <b>Clínica</b>")).toBeUndefined(); // not given yet
    const html = second.get("k")!;
    expect(html).toBe("Olá, <b>Clínica</b>");
    expect(second.bytesOf(html)?.equals(Buffer.from("Olá, <b>Clínica</b>"))).toBe(true);
    expect(second.bytesOf("outra coisa")).toBeUndefined();
    expect(markupStoreForPage().bytesOf(html)).toBeUndefined(); // another page was not given it
  });
});
