/**
 * The app's SVG sprite (app/assets/icons.svg) holds exactly the icons of ICON_NAMES
 * (app/components/icons.tsx), drawn as lucide-react draws them. So are the icons app.css draws with
 * CSS masks (app/assets/mask-icons/, one file per icon its `.ico-*` classes name), the sidebar's
 * (NAV_ICONS) among them. `UPDATE_ICONS=1 npx vitest run tests/unit/icons.test.ts` rewrites both
 * after a change to the lists, to app.css's masks or a lucide-react upgrade.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import * as icons from "~/components/icons";
import { ICON_NAMES, maskIconClass } from "~/components/icons";
import { NAVIGATION, NAV_ICONS, isSubgroup } from "~/lib/navigation";

const root = path.resolve(import.meta.dirname, "../..");
const spriteFile = path.join(root, "app/assets/icons.svg");
const lucideDir = path.join(root, "node_modules/lucide-react/dist/esm");

type IconNode = [string, Record<string, string | number>][];

/** lucide-react's drawing of the icon exported as `name` (aliases included). */
async function iconNode(name: string): Promise<IconNode> {
  const index = fs.readFileSync(path.join(lucideDir, "lucide-react.mjs"), "utf8");
  const line = index.split("\n").find((l) => new RegExp(`default as ${name}[,\\s}]`).test(l));
  const file = line?.match(/from '(\.\/icons\/[^']+)'/)?.[1];
  if (!file) throw new Error(`lucide-react has no icon ${name}`);
  const mod = (await import(pathToFileURL(path.join(lucideDir, file)).href)) as { __iconData: { node: IconNode } };
  return mod.__iconData.node;
}

const escape = (value: string | number) => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

const STROKE = ' fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';

/** An icon's shapes as SVG elements, the way lucide-react draws them. */
async function shapes(name: string): Promise<string> {
  return (await iconNode(name))
    .map(([tag, attrs]) => {
      const list = Object.entries(attrs)
        .filter(([key]) => key !== "key")
        .map(([key, value]) => ` ${key}="${escape(value)}"`)
        .join("");
      return `<${tag}${list}/>`;
    })
    .join("");
}

async function renderSprite(): Promise<string> {
  const symbols: string[] = [];
  for (const name of [...ICON_NAMES].sort()) {
    // Lucide's stroke style on each symbol: what <use> clones is the symbol, not the sprite's root.
    symbols.push(`<symbol id="${name}" viewBox="0 0 24 24"${STROKE}>${await shapes(name)}</symbol>`);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg">\n` +
    symbols.join("\n") +
    "\n</svg>\n"
  );
}

const maskDir = path.join(root, "app/assets/mask-icons");

/** The icons app.css draws as CSS masks (its `.ico-*` classes): every `mask-icons/<Name>.svg` it names. */
function maskIconNames(): string[] {
  const css = fs.readFileSync(path.join(root, "app/app.css"), "utf8");
  return [...new Set([...css.matchAll(/mask-icons\/(\w+)\.svg/g)].map((match) => match[1]))].sort();
}

test("the sprite draws every ICON_NAMES icon as lucide-react does, and nothing else", async () => {
  const expected = await renderSprite();
  if (process.env.UPDATE_ICONS) fs.writeFileSync(spriteFile, expected);
  expect(fs.existsSync(spriteFile) ? fs.readFileSync(spriteFile, "utf8") : "(missing)").toBe(expected);
});

test("every icon the sidebar shows is in NAV_ICONS, and every NAV_ICONS entry is used", () => {
  const used = new Set<string>();
  for (const section of NAVIGATION) {
    const items = section.kind === "items" ? section.items : [section.group, ...section.group.entries.flatMap((e) => (isSubgroup(e) ? [e, ...e.items] : [e]))];
    for (const item of items) used.add(item.icon);
  }
  expect([...used].sort()).toEqual([...NAV_ICONS].sort());
});

test("every name of ICON_NAMES is exported as an icon component, and every icon exported is listed", () => {
  const exported = Object.keys(icons).filter((key) => /^[A-Z]/.test(key) && !key.startsWith("ICON_"));
  expect(exported.sort()).toEqual([...ICON_NAMES].sort());
});

test("no module of the app imports lucide-react: icons come from the sprite", () => {
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(ts|tsx)$/.test(entry.name) && /from ["']lucide-react["']/.test(fs.readFileSync(file, "utf8"))) offenders.push(path.relative(root, file));
    }
  };
  walk(path.join(root, "app"));
  expect(offenders).toEqual([]);
});

test("each icon app.css draws as a mask is lucide-react's drawing, and the folder holds nothing else", async () => {
  const names = maskIconNames();
  expect(names).toContain("Clock");
  for (const name of names) {
    // A mask reads only the drawing's opacity: the stroke's colour is the element's `currentColor`.
    const expected = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"${STROKE.replace("currentColor", "black")}>${await shapes(name)}</svg>\n`;
    const file = path.join(maskDir, `${name}.svg`);
    if (process.env.UPDATE_ICONS) {
      fs.mkdirSync(maskDir, { recursive: true });
      fs.writeFileSync(file, expected);
    }
    expect(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "(missing)").toBe(expected);
  }
  expect(fs.readdirSync(maskDir).sort()).toEqual(names.map((name) => `${name}.svg`));
});

test("app.css draws every sidebar icon under the class maskIconClass names", () => {
  const css = fs.readFileSync(path.join(root, "app/app.css"), "utf8");
  expect(maskIconClass("Trash2")).toBe("ico-trash-2");
  expect(maskIconClass("BarChart3")).toBe("ico-bar-chart-3");
  expect(maskIconClass("LayoutDashboard")).toBe("ico-layout-dashboard");
  for (const name of NAV_ICONS) {
    expect(css, name).toContain(`.${maskIconClass(name)}::before {\n    --ico: url("./assets/mask-icons/${name}.svg");\n  }`);
  }
});
