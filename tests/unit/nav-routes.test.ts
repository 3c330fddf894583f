import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { SCREEN_TITLES } from "~/lib/navigation";

/** Every path app/routes.ts serves, with its parents' segments. */
function routedPaths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent}/${entry.path}` : parent;
    return [path, ...routedPaths(entry.children ?? [], path)];
  });
}

describe("navigation", () => {
  it("every screen the sidebar or SPEC §2 names has its own route (no link leads to the 404)", () => {
    const routed = new Set(routedPaths(routes as RouteConfigEntry[]));
    const missing = [...SCREEN_TITLES.keys()].filter((path) => !routed.has(path));
    expect(missing).toEqual([]);
    expect(SCREEN_TITLES.size).toBeGreaterThan(40);
  });
});
