// Whether a build is current: `<build>/.sources-hash` holds a hash of everything the build read
// (app/, db/schema/, public/, the package files and the build configs) when it was made. Shared by
// `npm start` (scripts/start.mjs), which rebuilds only when it does not match, and `npm run bench`,
// which measures that start on its own build.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** Every file the build reads, besides node_modules (which package-lock.json and patches/ stand for). */
const BUILD_INPUTS = [
  "app",
  "db/schema",
  "public",
  "package.json",
  "package-lock.json",
  "patches",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];

function listFiles(entry, out) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return out; // an optional input that is not there
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(entry).sort()) listFiles(path.join(entry, name), out);
  } else {
    out.push(entry);
  }
  return out;
}

/** A hash of the build inputs' names and contents (a few hundred small files: tens of ms), for the build in `buildDir`. */
export function sourcesHash(buildDir) {
  const hash = crypto.createHash("sha256");
  // The build directory's name is part of what was built (react-router.config.ts reads BUILD_DIR).
  hash.update(`${path.relative(root, path.resolve(root, buildDir))}\0`);
  for (const file of BUILD_INPUTS.flatMap((input) => listFiles(path.join(root, input), []))) {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(fs.readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const stampFile = (buildDir) => path.join(path.resolve(root, buildDir), ".sources-hash");

/** Whether `buildDir` holds a server build made from the sources whose hash is `hash`. */
export function buildIsCurrent(buildDir, hash = sourcesHash(buildDir)) {
  const dir = path.resolve(root, buildDir);
  return fs.existsSync(path.join(dir, "server/index.js")) && fs.existsSync(stampFile(dir)) && fs.readFileSync(stampFile(dir), "utf8").trim() === hash;
}

/** Forgets that `buildDir` is current (before a build into it). */
export function unstampBuild(buildDir) {
  fs.rmSync(stampFile(buildDir), { force: true });
}

/** Records that `buildDir` was built from the sources whose hash is `hash` (after a successful build). */
export function stampBuild(buildDir, hash) {
  fs.writeFileSync(stampFile(buildDir), `${hash}\n`);
}
