import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Libraries only a few requests need are loaded by the first of them, not when the server starts
 * (app/.server/on-first-use.ts): a process that imports the modules using them has loaded none,
 * and each is loaded once it is used. Measured in a process of its own, which records every
 * package imported as an ES module (tests/support/record-imports.mjs) and reads CommonJS ones from
 * `require.cache`.
 */
const LAZY = ["google-auth-library", "googleapis", "unified", "remark-parse", "rehype-sanitize", "file-type", "otplib", "qrcode"];

const CHILD = `
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
const loaded = () => {
  const esm = readFileSync(process.env.RECORD_IMPORTS, "utf8").split("\\n").filter(Boolean);
  const cjs = Object.keys(createRequire(process.cwd() + "/").cache).flatMap((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1] ?? []);
  return [...new Set([...esm, ...cjs])];
};
const { googleLibrary } = await import("./app/.server/google.ts");
await import("./app/.server/google-calendar.ts");
await import("./app/.server/google-drive.ts");
await import("./app/.server/google-forms.ts");
await import("./app/.server/google-calendar-push.ts");
const { renderMarkdown } = await import("./app/models/sop-markdown.server.ts");
await import("./app/models/sop.server.ts");
const { sniff } = await import("./app/.server/uploads.ts");
const { startEnrolment, enrolmentDetails } = await import("./app/.server/mfa.ts");
const { sqlite } = await import("./app/.server/db.ts");
const atStart = loaded();

googleLibrary.auth();
googleLibrary.calendar();
const html = await renderMarkdown("# Jejum");
const type = await sniff(Buffer.from("%PDF-1.4\\n%âãÏÓ\\n"));
const userId = Number(sqlite.prepare("insert into users (email, password_hash) values ('lazy@clinica.test', 'x')").run().lastInsertRowid);
await startEnrolment(userId);
const details = await enrolmentDetails(userId, "lazy@clinica.test");
console.log(JSON.stringify({ atStart, afterUse: loaded(), html, type, qr: details?.svg.startsWith("<svg") }));
`;

describe("libraries loaded on first use", () => {
  it("are not loaded by importing the modules that use them, and are once those are used", () => {
    const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-imports-")), "imports.txt");
    fs.writeFileSync(record, "");
    try {
      const output = execFileSync(process.execPath, ["--import", "tsx", "--import", "./tests/support/record-imports.mjs", "--input-type=module", "-e", CHILD], {
        env: { ...process.env, RECORD_IMPORTS: record, NODE_ENV: "test" },
        encoding: "utf8",
      });
      const { atStart, afterUse, html, type, qr } = JSON.parse(output.trim().split("\n").at(-1)!) as {
        atStart: string[];
        afterUse: string[];
        html: string;
        type: string | null;
        qr: boolean;
      };
      const lazyIn = (names: string[]) => LAZY.filter((lib) => names.some((name) => name === lib || name.startsWith(`${lib}/`)));
      // The modules themselves were imported (their own packages are there), none of the libraries.
      expect(atStart).toContain("drizzle-orm");
      expect(lazyIn(atStart)).toEqual([]);
      expect(lazyIn(afterUse)).toEqual(LAZY);
      expect(html).toBe("<h1>Jejum</h1>");
      expect(type).toBe("application/pdf");
      expect(qr).toBe(true);
    } finally {
      fs.rmSync(path.dirname(record), { recursive: true, force: true });
    }
  }, 60_000);

  it("are imported nowhere in the app at the top of a module, but for their types", () => {
    const files = fs.readdirSync("app", { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file));
    const statics = files.flatMap((file) =>
      [...fs.readFileSync(path.join("app", file), "utf8").matchAll(/^(?:import|export)\s+(?!type\s)(?:[^;]*?\bfrom\s+)?"([^"]+)"/gm)]
        .map((match) => match[1])
        .filter((source) => LAZY.some((lib) => source === lib || source.startsWith(`${lib}/`)))
        .map((source) => `${file}: ${source}`),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(statics).toEqual([]);
  });
});
