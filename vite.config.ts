import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "~db": path.resolve(import.meta.dirname, "db"),
    },
  },
  server: { port: 3000 },
  // better-sqlite3 and argon2 are native modules; never bundle them into the server build.
  ssr: { external: ["better-sqlite3", "@node-rs/argon2"] },
});
