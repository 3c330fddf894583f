import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // Lets parallel test runs build side by side without overwriting each other's bundle.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // The whole route manifest ships as one immutable, cached asset instead of a partial manifest
  // inlined in every page plus /__manifest requests as links render (ADR 0008).
  routeDiscovery: { mode: "initial" },
  // Loaders and actions get the request as it arrived, not two copies each; app/.server/route-url.ts
  // reads the page's URL from it (ADR 0008).
  future: { v8_passThroughRequests: true },
} satisfies Config;
