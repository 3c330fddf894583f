import fs from "node:fs";

/**
 * Debian's Chromium for the browser tests; no browser is downloaded from anywhere.
 *
 * The headless shell (package chromium-headless-shell: Chromium's classic headless mode, the build
 * Playwright itself uses headless) comes first. It is the same engine without the full browser's
 * windowing and UI layers, and costs half the CPU per test on the two-core machine (ADR 0006).
 * The full browser (package chromium) is the fallback; `CHROMIUM_PATH` overrides both.
 */
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CANDIDATES = [HEADLESS_SHELL, "/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** The Chromium binary the browser tests launch, or undefined when none is installed. */
export function findChromium(): string | undefined {
  return [process.env.CHROMIUM_PATH, ...CANDIDATES].find((p): p is string => !!p && fs.existsSync(p));
}
