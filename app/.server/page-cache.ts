/**
 * How much memory a SQLite connection's page cache may hold, in KiB (`PRAGMA cache_size = -N`).
 *
 * better-sqlite3 builds SQLite with a 16 MB cache per connection. The server's connection filled
 * it under a day's load, and each export's connection filled its own while it read a whole table,
 * memory the process kept after the worker ended. The pages are in the operating system's cache
 * anyway, so a miss costs a read from memory, not from the disk. Measured on the scale database
 * (docs/decisions/0008-performance-budget-and-server.md): the screens cost the same CPU per
 * request, the reports without the cache the same within the runs' noise, the exports took as long,
 * and the server's memory after the bench's load and exports was 25-30 MB lower.
 */
export const PAGE_CACHE_KIB = 4096;

/**
 * A worker's connection (app/.server/export-rows.worker.ts): an export's query, a backup's
 * VACUUM INTO and integrity check, the audit chain's check. Each reads its pages once, in order: a
 * small cache holds the upper levels of the b-trees it passes through, and nothing else is read
 * again.
 */
export const STREAM_PAGE_CACHE_KIB = 1024;
