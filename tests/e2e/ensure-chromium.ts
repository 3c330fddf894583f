// Finds Chromium for the browser tests, installing Debian's headless shell when it is missing and
// we can (tests/e2e/chromium.ts says why that build first). No browser can be downloaded from the
// internet here, so Playwright's own install is never used.
import { execSync } from "node:child_process";
import fs from "node:fs";
import { HEADLESS_SHELL, findChromium } from "./chromium";

function canInstall() {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return false;
  try {
    execSync("command -v apt-get", { stdio: "ignore", shell: "/bin/sh" });
    return true;
  } catch {
    return false;
  }
}

function install(pkg: string) {
  console.log(`Instalando o pacote Debian '${pkg}'...`);
  try {
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`, {
      stdio: "inherit",
      shell: "/bin/sh",
    });
  } catch {
    console.error(`A instalação de '${pkg}' falhou.`);
  }
}

function ensureChromium() {
  const wanted = process.env.CHROMIUM_PATH;
  if (wanted && !fs.existsSync(wanted)) console.error(`CHROMIUM_PATH=${wanted} não existe; procurando o Chromium do Debian.`);
  const found = findChromium();
  if ((wanted && found === wanted) || found === HEADLESS_SHELL) {
    console.log(`Chromium: ${found}`);
    return true;
  }
  // The full browser works too, at twice the CPU per test: install the headless shell beside it.
  if (canInstall()) install("chromium-headless-shell");
  const chosen = findChromium();
  if (!chosen) {
    console.error(
      "Chromium não encontrado. Instale o pacote 'chromium-headless-shell' ou 'chromium' (apt-get install) ou defina CHROMIUM_PATH.",
    );
    return false;
  }
  console.log(`Chromium: ${chosen}`);
  return true;
}

process.exitCode = ensureChromium() ? 0 : 1;
