// patches/react-router+7.18.4.patch (applied by `patch-package` after every install): React Router
// keeps a build's server routes and their data routes instead of making them on every render, and
// the outcome of matching a path against a router's branches. Each caller still gets matches of its
// own. docs/decisions/0008-performance-budget-and-server.md, 'React Router's work kept per build'.
import { type RouteObject, createStaticHandler, createStaticRouter } from "react-router";
import { describe, expect, it } from "vitest";

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
