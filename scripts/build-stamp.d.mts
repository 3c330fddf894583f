/** A hash of the build inputs, for the build in `buildDir` (scripts/build-stamp.mjs). */
export function sourcesHash(buildDir: string): string;
/** Whether `buildDir` holds a server build made from the sources whose hash is `hash`. */
export function buildIsCurrent(buildDir: string, hash?: string): boolean;
/** Forgets that `buildDir` is current (before a build into it). */
export function unstampBuild(buildDir: string): void;
/** Records that `buildDir` was built from the sources whose hash is `hash`. */
export function stampBuild(buildDir: string, hash: string): void;
