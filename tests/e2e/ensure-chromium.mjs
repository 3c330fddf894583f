// Finds Chromium for the browser tests, installing Debian's package when it is missing and we can.
// No browser download from the internet is possible here, so Playwright's own install is never used.
import { execSync } from "node:child_process";
import fs from "node:fs";

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
  return candidates.find((p) => fs.existsSync(p));
}

function ensureChromium() {
  const found = findChromium();
  if (found) {
    console.log(`Chromium: ${found}`);
    return true;
  }

  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  let hasApt = false;
  try {
    execSync("command -v apt-get", { stdio: "ignore", shell: "/bin/sh" });
    hasApt = true;
  } catch {}

  if (!isRoot || !hasApt) {
    console.error(
      "Chromium não encontrado. Instale o pacote 'chromium' (apt-get install chromium) ou defina CHROMIUM_PATH.",
    );
    return false;
  }

  console.log("Chromium não encontrado; instalando o pacote Debian 'chromium'...");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", {
    stdio: "inherit",
    shell: "/bin/sh",
  });
  if (!fs.existsSync("/usr/bin/chromium")) {
    console.error("A instalação do Chromium falhou.");
    return false;
  }
  console.log("Chromium: /usr/bin/chromium");
  return true;
}

process.exitCode = ensureChromium() ? 0 : 1;
