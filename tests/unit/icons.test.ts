/**
 * The app's SVG sprite (app/assets/icons.svg) holds exactly the icons of ICON_NAMES
 * (app/components/icons.tsx) and NAV_ICONS (the sidebar's), drawn as lucide-react draws them.
 * `UPDATE_ICONS=1 npx vitest run tests/unit/icons.test.ts` rewrites it after a change to either
 * list or a lucide-react upgrade.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import * as icons from "~/components/icons";
import { ICON_NAMES } from "~/components/icons";
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

async function renderSprite(): Promise<string> {
  const symbols: string[] = [];
  for (const name of [...new Set<string>([...ICON_NAMES, ...NAV_ICONS])].sort()) {
    const children = (await iconNode(name))
      .map(([tag, attrs]) => {
        const list = Object.entries(attrs)
          .filter(([key]) => key !== "key")
          .map(([key, value]) => ` ${key}="${escape(value)}"`)
          .join("");
        return `<${tag}${list}/>`;
      })
      .join("");
    // Lucide's stroke style on each symbol: what <use> clones is the symbol, not the sprite's root.
    symbols.push(`<symbol id="${name}" viewBox="0 0 24 24"${STROKE}>${children}</symbol>`);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg">\n` +
    symbols.join("\n") +
    "\n</svg>\n"
  );
}

test("the sprite draws every ICON_NAMES and NAV_ICONS icon as lucide-react does, and nothing else", async () => {
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
  const exported = Object.keys(icons).filter((key) => /^[A-Z]/.test(key) && !key.startsWith("ICON_") && key !== "SpriteIcon");
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
