// patches/react-router+7.18.4.patch (applied by `patch-package` after every install): React Router
// keeps a build's server routes and their data routes instead of making them on every render, and
// the outcome of matching a path against a router's branches. Each caller still gets matches of its
// own. Its turbo-stream encoder prints a repeated value's index without making an array for it, and
// reads the clock only when it is consulted, and sends a value the app serialised once
// (`sentAsJson`) as that JSON text. A page's own data goes to its script as text, and that script is
// made once per text; a build's route modules are made once.
// docs/decisions/0008-performance-budget-and-server.md, 'React Router's work kept per build', 'The
// encoding of loader data, patched' and 'A page's data script made once per text'.
import { createElement } from "react";
import { renderToReadableStream } from "react-dom/server";
import {
  type EntryContext,
  Outlet,
  type RouteObject,
  Scripts,
  type ServerBuild,
  ServerRouter,
  UNSAFE_decodeViaTurboStream as decodeViaTurboStream,
  createRequestHandler,
  createStaticHandler,
  createStaticRouter,
} from "react-router";
import { describe, expect, it, vi } from "vitest";
import { sentAsJson } from "~/.server/sent-as-json";

const routes: RouteObject[] = [
  {
    id: "root",
    path: "/",
    loader: () => null,
    children: [
      { id: "patients", path: "patients", loader: () => "list" },
      { id: "patient", path: "patients/:patientId", loader: ({ params }) => params.patientId },
      { id: "auth", path: "auth", loader: () => "auth" },
    ],
  },
];

async function contextFor(handler: ReturnType<typeof createStaticHandler>, path: string) {
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path}: a response (${context.status})`);
  return context;
}

/**
 * A build of two routes, a root and `/items` under it, with what a request reads of a build: the
 * entry module, the route modules and the manifest's routes.
 */
function oneRouteBuild(parts: { entry: object; root: object; items: object; manifestRoutes: Record<string, object> }) {
  return {
    entry: { module: parts.entry },
    routes: {
      root: { id: "root", path: "", module: parts.root },
      "routes/items": { id: "routes/items", parentId: "root", path: "items", module: parts.items },
    },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: parts.manifestRoutes, url: "/manifest.js", version: "1" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild; // only what a request reads
}

describe("React Router, patched", () => {
  it("makes a routes array's data routes once", async () => {
    const handler = createStaticHandler(routes);
    const first = createStaticRouter(handler.dataRoutes, await contextFor(handler, "/patients"));
    const second = createStaticRouter(handler.dataRoutes, await contextFor(handler, "/patients/7"));
    expect(second.routes).toBe(first.routes);
    // Each router still has its own request's matches.
    expect(first.state.matches.map((m) => m.route.id)).toEqual(["root", "patients"]);
    expect(second.state.matches.map((m) => m.route.id)).toEqual(["root", "patient"]);
    expect(second.state.matches[1].params).toEqual({ patientId: "7" });
  });

  it("answers a path matched before with matches of the caller's own", async () => {
    const handler = createStaticHandler(routes);
    const first = await contextFor(handler, "/patients/7");
    expect(first.loaderData).toEqual({ root: null, patient: "7" });
    // A caller that changes its matches changes nothing for the next request of the same path.
    (first.matches[1].params as Record<string, string>).patientId = "8";
    (first.matches[1] as { pathname: string }).pathname = "/elsewhere";
    const again = await contextFor(handler, "/patients/7");
    expect(again.matches).not.toBe(first.matches);
    expect(again.matches.map((m) => [m.route.id, m.pathname, m.params])).toEqual([
      ["root", "/", { patientId: "7" }],
      ["patient", "/patients/7", { patientId: "7" }],
    ]);
    expect(again.loaderData).toEqual({ root: null, patient: "7" });
    // Other paths still match as they should, and an unknown one is a 404.
    expect((await contextFor(handler, "/patients/12")).loaderData).toEqual({ root: null, patient: "12" });
    expect((await contextFor(handler, "/auth")).loaderData).toEqual({ root: null, auth: "auth" });
    expect((await contextFor(handler, "/nowhere")).statusCode).toBe(404);
    expect((await contextFor(handler, "/nowhere")).statusCode).toBe(404);
  });

  it("still matches correctly once more paths were seen than it keeps", async () => {
    const handler = createStaticHandler(routes);
    for (let id = 0; id < 2_100; id++) {
      const context = await contextFor(handler, `/patients/${id}`);
      expect(context.loaderData.patient).toBe(String(id));
    }
    expect((await contextFor(handler, "/patients/5")).loaderData).toEqual({ root: null, patient: "5" });
  });
});

describe("React Router's encoding of loader data, patched", () => {
  /** A request handler for a one-route app whose loader answers `value`. */
  function handlerAnswering(value: unknown) {
    const build = oneRouteBuild({
      entry: { default: () => new Response("page") },
      root: { default: () => null },
      items: { loader: () => value, default: () => null },
      manifestRoutes: {},
    });
    return createRequestHandler(build, "production");
  }

  async function dataOf(value: unknown) {
    const response = await handlerAnswering(value)(new Request("http://localhost/items.data?_routes=routes/items"));
    expect(response.status).toBe(200);
    const decoded = await decodeViaTurboStream(response.body!, globalThis);
    await decoded.done;
    return (decoded.value as Record<string, { data: unknown }>)["routes/items"].data;
  }

  it("answers the loader's data as it was, repeated keys, values and objects included", async () => {
    const doctor = { id: 3, name: "Dra. Sofia Ribeiro Miranda" };
    const cards = Array.from({ length: 300 }, (_, id) => ({
      id,
      patientName: `Paciente ${id % 7}`,
      doctor,
      hospital: id % 3 ? "Hospital Santa Aurora" : null,
      tags: ["urgente", id % 2 ? "SUS" : "Particular", undefined],
      opme: id % 5 ? undefined : { suppliers: id % 4 },
    }));
    const value = { cards, seen: new Set(["a", "b"]), byId: new Map([[1, doctor]]), when: new Date(0), nothing: null, nan: Number.NaN, minusZero: -0 };
    const data = (await dataOf(value)) as typeof value;
    expect(data).toEqual(value);
    expect(Object.is(data.minusZero, -0)).toBe(true);
    // Shared objects stay shared, as they were encoded once.
    expect(data.cards[1].doctor).toBe(data.byId.get(1));
  });

  it("reads the clock only every few thousand values, not once per value", async () => {
    const rows = Array.from({ length: 2_000 }, (_, id) => ({ id, name: `Paciente ${id}` }));
    const now = vi.spyOn(Date, "now");
    try {
      const data = await dataOf({ rows });
      expect(data).toEqual({ rows });
      // 6 000 values and more are encoded here: the pristine encoder read the clock for each.
      expect(now.mock.calls.length).toBeLessThan(20);
    } finally {
      now.mockRestore();
    }
  });

  it("sends a value marked by sentAsJson as its JSON text, made once, and the browser gets the same value", async () => {
    const board = sentAsJson({
      fields: ["id", "patientName", "ans", "opme"],
      columns: [
        { stage: "aprovado", total: 2, cards: [[1, 'Ana "A" <b> \\ ção', true, null], [2, "Bruno\n", false, { suppliers: 2 }]] },
        { stage: "agendado", total: 0, cards: [] },
      ],
    });
    const stringify = vi.spyOn(JSON, "stringify");
    let data: unknown;
    try {
      data = await dataOf({ board, other: { kept: board.columns[0].stage } });
      // Not serialised again for the request, and not value by value: one value in the stream.
      expect(stringify.mock.calls.some(([value]) => value === board)).toBe(false);
    } finally {
      stringify.mockRestore();
    }
    expect(data).toEqual({ board: JSON.parse(JSON.stringify(board)), other: { kept: "aprovado" } });
    const response = await handlerAnswering({ board })(new Request("http://localhost/items.data?_routes=routes/items"));
    const text = await response.text();
    expect(text).toContain('["J",');
    expect(text.split("Ana").length).toBe(2);
  });

  it("sends a list's rows with Dates as JSON text, and the browser gets Dates back under the same names only", async () => {
    const rows = sentAsJson([
      { id: 1, startTime: new Date(Date.UTC(2026, 10, 30, 10)), endTime: new Date(Date.UTC(2026, 10, 30, 10, 20)), patient: { id: 7, lastVisit: new Date(0) }, minutes: 20 },
      { id: 2, startTime: new Date(Date.UTC(2026, 11, 1, 13)), endTime: null, patient: { id: 8, lastVisit: null }, minutes: 30, notes: "startTime" },
    ]);
    const data = (await dataOf({ rows, total: 2 })) as { rows: typeof rows; total: number };
    expect(data).toEqual({ rows, total: 2 });
    expect(data.rows[0].startTime).toBeInstanceOf(Date);
    expect(data.rows[0].patient.lastVisit).toBeInstanceOf(Date);
    expect(data.rows[1].endTime).toBeNull();
    const text = await (await handlerAnswering({ rows })(new Request("http://localhost/items.data?_routes=routes/items"))).text();
    expect(text).toContain('["J",');
  });

  it("sentAsJson refuses, in development and tests, what JSON would not give back as it is", () => {
    expect(() => sentAsJson({ when: [new Date(0)] })).toThrow(/value.when\[0\] is a Date in an array/);
    expect(() => sentAsJson(new Date(0))).toThrow(/value is a Date/);
    expect(() => sentAsJson({ when: new Date(Number.NaN) })).toThrow(/value.when is an invalid Date/);
    // The browser would make a Date of the number too.
    expect(() => sentAsJson([{ at: new Date(0) }, { at: 5 }])).toThrow(/'at' holds a Date and a number/);
    expect(() => sentAsJson({ 0: new Date(0), list: [3] })).toThrow(/'0' holds a Date and a number/);
    expect(() => sentAsJson({ rows: [[1, undefined]] })).toThrow(/value.rows\[0\]\[1\] is missing/);
    expect(() => sentAsJson({ n: Number.NaN })).toThrow(/value.n is NaN/);
    expect(() => sentAsJson({ set: new Set([1]) })).toThrow(/value.set is a Set/);
    // A key whose value is undefined reads the same in the browser, where it is missing.
    const loose = { a: 1, b: undefined, c: [null, "x"], d: Object.create(null) as object };
    expect(sentAsJson(loose)).toBe(loose);
  });
});

describe("A page's data script, patched", () => {
  /** A request handler for a one-route app that renders whole pages, whose loader answers `value()`. */
  function pageHandler(value: () => unknown, contexts: EntryContext[] = []) {
    const route = (id: string, parentId: string | undefined, path: string, hasLoader: boolean) => ({
      id,
      parentId,
      path,
      module: `/${id}.js`,
      imports: [],
      hasAction: false,
      hasLoader,
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: false,
    });
    const build = oneRouteBuild({
      entry: {
        default: async (request: Request, status: number, headers: Headers, context: EntryContext) => {
          contexts.push(context);
          const stream = await renderToReadableStream(createElement(ServerRouter, { context, url: request.url }));
          await stream.allReady;
          return new Response(stream, { status, headers });
        },
      },
      root: { default: () => createElement("main", null, createElement(Outlet), createElement(Scripts)) },
      items: { loader: value, default: () => createElement("p", null, "Itens") },
      manifestRoutes: { root: route("root", undefined, "", false), "routes/items": route("routes/items", "root", "items", true) },
    });
    return createRequestHandler(build, "production");
  }

  /** The page's data script, as the browser runs it: the text it enqueues, and that text decoded. */
  async function pageData(handler: ReturnType<typeof pageHandler>) {
    const encode = vi.spyOn(TextEncoder.prototype, "encode");
    let html: string;
    let encoded: unknown[];
    try {
      html = await (await handler(new Request("http://localhost/items"))).text();
      encoded = encode.mock.calls.map(([input]) => input);
    } finally {
      encode.mockRestore();
    }
    expect(html).toContain("<p>Itens</p>");
    const scripts = [...html.matchAll(/streamController\.enqueue\((.*?)\);<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    // A JavaScript string literal that no HTML parser ends early: JSON's, with <, > and & escaped.
    expect(scripts[0]).not.toMatch(/[<>&\u2028\u2029]/);
    const text = JSON.parse(scripts[0]) as string;
    const decoded = await decodeViaTurboStream(new Blob([text]).stream(), globalThis);
    await decoded.done;
    return { script: scripts[0], text, encoded, data: (decoded.value as { loaderData: Record<string, unknown> }).loaderData["routes/items"] };
  }

  it("writes the loader's data into the page as the browser reads it, escaped for a script", async () => {
    const value = { name: 'Ana "A" </script><!-- & ção \u2028 \u2029 \\', when: new Date(0), rows: [{ id: 1 }, { id: 2 }] };
    const { data, text, encoded } = await pageData(pageHandler(() => value));
    expect(data).toEqual(value);
    expect(text).toContain("</script>");
    // Handed to the page's script as text, not encoded to bytes to be decoded again.
    expect(encoded).not.toContain(text);
  });

  it("makes a page's script once for the same data, and afresh when the data changes", async () => {
    let count = 3;
    let digit = 1;
    const handler = pageHandler(() => ({ digit, rows: Array.from({ length: count }, (_, id) => ({ id, name: `Paciente ${id} <b>` })) }));
    const first = await pageData(handler);
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      const again = await pageData(handler);
      expect(again.script).toBe(first.script);
      // The page's text was not escaped again (the test's own calls are on other values).
      expect(stringify.mock.calls.some(([value]) => value === first.text)).toBe(false);
      count = 4;
      const changed = await pageData(handler);
      expect(changed.data).toEqual({ digit: 1, rows: Array.from({ length: 4 }, (_, id) => ({ id, name: `Paciente ${id} <b>` })) });
      expect(stringify.mock.calls.some(([value]) => value === changed.text)).toBe(true);
      // Text of the same length, one character apart, is another page's.
      digit = 2;
      const sameLength = await pageData(handler);
      expect(sameLength.text).toHaveLength(changed.text.length);
      expect(sameLength.data).toEqual({ digit: 2, rows: Array.from({ length: 4 }, (_, id) => ({ id, name: `Paciente ${id} <b>` })) });
    } finally {
      stringify.mockRestore();
    }
  });

  it("gives every page of a build the same route modules, made once", async () => {
    const contexts: EntryContext[] = [];
    const handler = pageHandler(() => ({ n: 1 }), contexts);
    await pageData(handler);
    await pageData(handler);
    expect(contexts).toHaveLength(2);
    expect(contexts[1].routeModules).toBe(contexts[0].routeModules);
    expect(Object.keys(contexts[0].routeModules).sort()).toEqual(["root", "routes/items"]);
  });
});
