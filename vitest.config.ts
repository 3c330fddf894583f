import os from "node:os";
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
    // Vitest's default leaves a core free (cores - 1): one test file at a time on the two-core
    // machine. The files share nothing but the CPU (each has its own database file, and the fake
    // servers listen on a free port), so use every core: 283 -> 190 s for the suite (ADR 0006).
    maxWorkers: os.availableParallelism(),
  },
});
