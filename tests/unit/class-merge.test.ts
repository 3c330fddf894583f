import fs from "node:fs";
import path from "node:path";
import { twMerge as fullTwMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { cn } from "~/lib/utils";

/** Every class-looking word in a string literal of app/ (extra words only cost time). */
function classesWrittenInApp(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !full.endsWith(path.join("lib", "utils.ts"))) files.push(full);
    }
  };
  walk(path.resolve(import.meta.dirname, "../../app"));
  const tokens = new Set<string>();
  for (const file of files) {
    for (const match of fs.readFileSync(file, "utf8").matchAll(/["'`]([^"'`\n]{1,600})["'`]/g)) {
      for (const token of match[1].split(/\s+/)) {
        if (token.length < 60 && /[a-z]/.test(token) && /^[!a-z0-9\-[\]:@/.%_#()*&>=,]+$/.test(token)) tokens.add(token);
      }
    }
  }
  return [...tokens];
}

describe("cn (tailwind-merge with the kit's class groups)", () => {
  it("merges every pair of classes written in app/ exactly as tailwind-merge's full configuration does", () => {
    const tokens = classesWrittenInApp();
    // A merger drops a repeated class only when it knows its group; pairs of classes that neither
    // knows are kept by both, so only classes known to one of them need comparing in pairs.
    const known = tokens.filter((t) => fullTwMerge(`${t} ${t}`) === t || cn(`${t} ${t}`) === t);
    console.log(`${known.length} of ${tokens.length} words are classes`);
    expect(known.length).toBeGreaterThan(200);
    // Classes conflict only under the same variants (`hover:`, `sm:` …): compare pairs within each.
    const byVariants = new Map<string, string[]>();
    for (const t of known) {
      const variants = t.slice(0, t.lastIndexOf(":") + 1);
      byVariants.set(variants, [...(byVariants.get(variants) ?? []), t]);
    }
    const differences: string[] = [];
    for (const [a, b] of [...byVariants.values()].flatMap((group) => group.flatMap((x) => group.map((y) => [x, y] as const)))) {
      {
        if (a === b) continue;
        const pair = `${a} ${b}`;
        const expected = fullTwMerge(pair);
        const actual = cn(pair);
        if (actual !== expected) differences.push(`'${pair}': '${actual}' instead of '${expected}'`);
      }
    }
    expect(differences.slice(0, 20)).toEqual([]);
  }, 60_000);

  it("lets a later class override an earlier one of its group and keeps the rest", () => {
    expect(cn("h-9 px-4 text-sm text-primary", "h-8 px-2")).toBe("text-sm text-primary h-8 px-2");
    expect(cn("border border-input", "border-2 border-destructive")).toBe("border-2 border-destructive");
    expect(cn("p-4", "px-2")).toBe("p-4 px-2");
    expect(cn("px-2", "p-4")).toBe("p-4");
    expect(cn("hover:bg-accent", false && "x", "hover:bg-transparent")).toBe("hover:bg-transparent");
  });
});
