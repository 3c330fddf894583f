import { describe, expect, it } from "vitest";
import { hrefWithParams } from "~/lib/url";

describe("hrefWithParams", () => {
  it("adds a parameter to a list's URL with or without a query, keeping the others as they were", () => {
    expect(hrefWithParams("/referrers", { view: 8 })).toBe("/referrers?view=8");
    expect(hrefWithParams("/referrers?q=ana+maria&from=2024-02-29", { view: 8 })).toBe("/referrers?q=ana+maria&from=2024-02-29&view=8");
    expect(hrefWithParams("/referrers?view=3&q=x", { view: 8, q: null })).toBe("/referrers?view=8");
    expect(hrefWithParams("/referrers?q=x", { q: null })).toBe("/referrers");
  });
});
