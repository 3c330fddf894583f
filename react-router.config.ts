import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // Lets parallel test runs build side by side without overwriting each other's bundle.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
