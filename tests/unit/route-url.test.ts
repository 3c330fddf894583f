import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeUrl } from "~/.server/route-url";

const at = (path: string) => routeUrl(new Request(`http://localhost${path}`));
const shown = (url: URL) => url.pathname + url.search;

describe("routeUrl: the page a loader or action answers for", () => {
  it("is the page of a browser's data request, without React Router's marks", () => {
    expect(shown(at("/patients.data?_routes=root%2Croutes%2Fapp-layout%2Croutes%2Fpatients&q=maria+silva&page=2"))).toBe(
      "/patients?q=maria+silva&page=2",
    );
    expect(shown(at("/patients/12.data"))).toBe("/patients/12");
    expect(shown(at("/_root.data?_routes=root"))).toBe("/");
    expect(shown(at("/kpis/financeiros.data?periodo=ano&_routes=routes%2Fkpis%2Ffinanceiros"))).toBe("/kpis/financeiros?periodo=ano");
  });

  it("drops the bare ?index an index route's form posts to, and keeps a valued one", () => {
    expect(shown(at("/tasks?index&dialog=new"))).toBe("/tasks?dialog=new");
    expect(shown(at("/tasks.data?index"))).toBe("/tasks");
    expect(shown(at("/tasks?index=3"))).toBe("/tasks?index=3");
  });

  it("leaves a page's own URL as it is", () => {
    expect(shown(at("/appointments?q=jos%C3%A9&sort=date&dir=desc"))).toBe("/appointments?q=jos%C3%A9&sort=date&dir=desc");
    expect(shown(at("/settings/holidays"))).toBe("/settings/holidays");
    expect(at("/financeiro/cirurgias-receber/tiss.xml?lote=4").pathname).toBe("/financeiro/cirurgias-receber/tiss.xml");
  });
});

describe("reading the page's URL", () => {
  it("goes through routeUrl everywhere under app/ (request.url only for its scheme, host or a copy of the request)", () => {
    const root = path.resolve(import.meta.dirname, "../../app");
    const allowed = [
      /new URL\(request\.url\)\.protocol/, // https or not
      /^\s*const url = new URL\(request\.url\);\s*$/, // assertSameOrigin: the host only (checked below)
      /<ServerRouter context=\{routerContext\} url=\{request\.url\}/, // a document request: never a data URL
      /new Request\(request\.url, /, // the same request with another body
    ];
    const offending: string[] = [];
    for (const file of fs.readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (!/\.tsx?$/.test(file) || file.endsWith("route-url.ts")) continue;
      const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (!line.includes("request.url") || allowed.some((pattern) => pattern.test(line))) return;
        offending.push(`app/${file}:${i + 1}: ${line.trim()}`);
      });
      if (lines.some((line) => allowed[1].test(line))) {
        // The bare copy is only for assertSameOrigin, which reads `url.host` and nothing else.
        expect(file).toBe(path.join(".server", "auth.ts"));
      }
    }
    expect(offending).toEqual([]);
  });
});
