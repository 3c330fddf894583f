import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const componentsDir = path.resolve(import.meta.dirname, "../../app/components");

function lazyModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return lazyModules(full);
    return entry.name.endsWith(".lazy.tsx") ? [full] : [];
  });
}

/** The static imports of a module, resolved to files under app/ (aliases and relative paths). */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  return [...source.matchAll(/^import\s[^;]*?from\s+"([^"]+)";/gms)]
    .map((m) => m[1])
    .filter((spec) => spec.startsWith("~/") || spec.startsWith("."))
    .map((spec) => (spec.startsWith("~/") ? path.resolve(componentsDir, "..", spec.slice(2)) : path.resolve(path.dirname(file), spec)));
}

describe("lazy dialogs (X.tsx wraps X.lazy.tsx)", () => {
  const modules = lazyModules(componentsDir);

  it("exist", () => {
    expect(modules.length).toBeGreaterThan(10);
  });

  it.each(modules.map((m) => [path.relative(componentsDir, m), m]))(
    "%s does not import the module that loads it (the wrapper's top-level await would wait on itself and the page never hydrate)",
    (_name, file) => {
      const loaders = fs
        .readdirSync(path.dirname(file))
        .map((name) => path.join(path.dirname(file), name))
        .filter((candidate) => /\.tsx?$/.test(candidate) && !candidate.endsWith(".lazy.tsx"))
        .filter((candidate) => fs.readFileSync(candidate, "utf8").includes(`import("./${path.basename(file, ".tsx")}")`))
        .map((candidate) => candidate.replace(/\.tsx?$/, ""));
      expect(loaders.length).toBeGreaterThan(0);
      expect(importsOf(file).filter((target) => loaders.includes(target))).toEqual([]);
    },
  );
});
