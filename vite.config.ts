import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes x.js.br and x.js.gz next to every text file of the client build, at the highest levels
 * (done once here instead of on each request); server.mjs sends them to browsers that accept them.
 */
function precompress(): Plugin {
  return {
    name: "sinapse-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      if (this.environment?.name !== "client" || !options.dir) return;
      const outDir = options.dir;
      const text = /\.(?:js|css|svg|json|html|txt|ico)$/;
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => text.test(name) && name !== "bundle-stats.json")
          .map(async (name) => {
            const file = path.join(outDir, name);
            const raw = await fs.promises.readFile(file);
            if (raw.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
              gzip(raw, { level: 9 }),
            ]);
            await Promise.all([fs.promises.writeFile(`${file}.br`, br), fs.promises.writeFile(`${file}.gz`, gz)]);
          }),
      );
    },
  };
}

/**
 * BUNDLE_STATS=1 writes <build>/client/bundle-stats.json: for every client chunk, the modules in it
 * with their minified size, so `node scripts/check-js-budget.mjs --modules` can say what a page's
 * JavaScript is made of.
 */
function bundleStats(): Plugin {
  return {
    name: "sinapse-bundle-stats",
    apply: "build",
    generateBundle(options, bundle) {
      if (!process.env.BUNDLE_STATS || this.environment?.name !== "client") return;
      const stats: Record<string, Record<string, number>> = {};
      for (const file of Object.values(bundle)) {
        if (file.type !== "chunk") continue;
        stats[file.fileName] = Object.fromEntries(
          Object.entries(file.modules).map(([id, m]) => [path.relative(import.meta.dirname, id), m.renderedLength]),
        );
      }
      this.emitFile({ type: "asset", fileName: "bundle-stats.json", source: JSON.stringify(stats) });
    },
  };
}

/**
 * The server's worker threads (app/.server/*.worker.ts: an export's query, the WAL's checkpoint), each
 * an entry of its own in the server build; and the module naming each one's URL
 * (app/.server/*-worker-url.ts, which in the tests and in development points at a loader of the
 * TypeScript source) as the bundled file's URL.
 */
function serverWorkers(): Plugin {
  const workers = [
    { name: "exportRowsWorkerUrl", urlModule: "export-rows-worker-url.ts", worker: "export-rows.worker" },
    { name: "walCheckpointWorkerUrl", urlModule: "wal-checkpoint-worker-url.ts", worker: "wal-checkpoint.worker" },
  ].map((entry) => ({
    ...entry,
    urlModule: path.resolve(import.meta.dirname, "app/.server", entry.urlModule),
    source: path.resolve(import.meta.dirname, "app/.server", `${entry.worker}.ts`),
  }));
  return {
    name: "sinapse-server-workers",
    apply: "build",
    load(id) {
      const entry = workers.find((candidate) => candidate.urlModule === id);
      if (!entry || this.environment?.name !== "ssr") return null;
      const ref = this.emitFile({ type: "chunk", id: entry.source, fileName: `${entry.worker}.js` });
      return `export const ${entry.name} = new URL(import.meta.ROLLUP_FILE_URL_${ref});`;
    },
  };
}

/**
 * Modules every screen's first load needs: the ui primitives, the shell (sidebar, page header,
 * dialogs, error page) and their small helpers, with React and React Router.
 */
const KIT_MODULES = new RegExp(
  [
    String.raw`/app/components/ui/(?!tabs-nav)`,
    String.raw`/app/components/(page-header|dialog|route-error|empty-state|row-actions|confirm-dialog|sidebar)\.tsx$`,
    String.raw`/app/lib/(utils|enums|dates|money|list-params|navigation|theme|permissions|url|text|packed-rows)\.ts$`,
    String.raw`/node_modules/(clsx|tailwind-merge|class-variance-authority|react|react-router)/`,
    String.raw`^\0vite/preload-helper`, // dynamic import()'s helper: the root's lazy toaster uses it
  ].join("|"),
);

/**
 * The form kit: Conform and our field components, for the screens with a form on the page from the
 * start and for every form dialog (zod and the schemas stay out: they load after hydration).
 */
const FORM_KIT_MODULES = new RegExp(
  [String.raw`/node_modules/@conform-to/(dom|react)/`, String.raw`/app/components/form-field\.tsx$`, String.raw`/app/lib/use-lazy-validation\.ts$`].join("|"),
);

/** The list kit (table, filters, toolbar, list declarations): every list screen, but not the forms, sign-in or error pages. */
const LIST_KIT_MODULES = new RegExp(
  [
    String.raw`/app/components/(data-table|filter-bar|list-toolbar|delete-dialog|export-link)\.tsx$`,
    String.raw`/app/lib/(lists|pipeline)\.ts$`,
  ].join("|"),
);

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter(), bundleStats(), precompress(), serverWorkers()],
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "~db": path.resolve(import.meta.dirname, "db"),
    },
  },
  server: { port: 3000 },
  build: {
    // Terser makes the browser's JavaScript ≈3 KB (gzipped) smaller per page than esbuild (ADR 0008); the
    // server build stays unminified, as Vite leaves it by default.
    minify: isSsrBuild ? false : "terser",
    rollupOptions: {
      output: {
        // The kit every screen is made of, in one cached file instead of ~40 tiny chunks (each
        // gzipped alone, with its own import lines): ≈4 KB less per list page (ADR 0008). The list
        // kit is a second file, so the screens without a list (sign-in, settings forms, the
        // honorários of a surgery, error pages) do not download it. The server build is left to
        // Rollup: grouped so, the export worker's one helper would have loaded the kit with React.
        manualChunks: isSsrBuild
          ? undefined
          : (id) => {
              if (KIT_MODULES.test(id)) return "kit";
              if (LIST_KIT_MODULES.test(id)) return "list-kit";
              if (FORM_KIT_MODULES.test(id)) return "form-kit";
              return undefined;
            },
      },
      treeshake: {
        // @date-fns/tz declares no `sideEffects`, and its TZDate module patches its own class's
        // prototype at load, so Rollup kept the whole package (≈2.4 KB gzipped) in every page
        // that formats a date, although pages only use app/lib/dates.ts' formatters, which need
        // no TZDate. Treated as side-effect free, it is bundled only where TZDate is really used.
        moduleSideEffects: (id) => !id.includes("/node_modules/@date-fns/tz/"),
      },
    },
  },
  ssr: {
    // better-sqlite3 and argon2 are native modules; never bundle them into the server build.
    external: ["better-sqlite3", "@node-rs/argon2"],
    // Bundled (tree-shaken) into the production server instead of loaded from node_modules at
    // start: importing every date-fns locale took a large part of each server start. (Bundling
    // zod, drizzle, conform and the rest as well saved nothing measurable.) Not in development.
    noExternal: command === "build" ? ["date-fns", "@date-fns/tz"] : [],
  },
}));
