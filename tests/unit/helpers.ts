/**
 * Requests, sessions and rows for tests that call loaders and actions directly: all of it lives
 * in tests/support/fixtures.ts, shared by every test file; this module keeps the short import path.
 */
export * from "../support/fixtures";
