import path from "node:path";

/**
 * The SQLite file the app reads and writes: `DATABASE_PATH`, else db/clinic.sqlite. On its own, so
 * a script can act on the file (the scale seed's `--force` replaces it) before the app's
 * connection to it opens.
 */
export const databasePath = path.resolve(process.env.DATABASE_PATH ?? "db/clinic.sqlite");
