import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit and integration tests run without the React Router plugin: they import modules directly.
export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "~db": path.resolve(import.meta.dirname, "db"),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "app/**/*.test.ts"],
    setupFiles: ["tests/unit/setup.ts"],
    environment: "node",
    // One child process per test file (isolate), so each file opens its own fresh database.
    pool: "forks",
    isolate: true,
  },
});
