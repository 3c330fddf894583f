import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "../../scripts/server-flags";

const scripts: Record<string, string> = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")).scripts;

describe("the production server's Node options", () => {
  it("are the same for `npm start`, `npm run serve` and the bench", () => {
    expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
    expect(scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(" ")} scripts/start.mjs`);
    expect(scripts.serve).toMatch(new RegExp(` node ${SERVER_NODE_FLAGS.join(" ")} server\\.mjs$`));
    expect(fs.readFileSync(path.resolve(import.meta.dirname, "../../scripts/bench/index.ts"), "utf8")).toContain("[...SERVER_NODE_FLAGS, path.join(ROOT, \"server.mjs\")]");
  });
});
