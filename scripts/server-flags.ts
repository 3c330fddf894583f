// The Node options the production server runs with: `npm start` and `npm run serve` pass them on
// their command line (package.json), `npm run bench` when it starts the server, and
// tests/unit/server-flags.test.ts keeps the three the same.
//
// --max-old-space-size=1024: V8 grows the heap by a factor it derives from this limit, up to 4×
// for the default limit (a quarter of the machine's memory, 4 GB here) and about 1.6× at 1 GB. Under
// 20 connections the server's memory went from about 280 to 195 MB with it, at the same requests
// per second within the runs' noise (docs/decisions/0008-performance-budget-and-server.md). The
// live heap is about 40 MB idle and 80 MB under load; uploads are buffers, outside this limit.
//
// --max-semi-space-size=8: the young generation is two semi-spaces, 16 MB each by default, and a
// busy server fills them; at 8 MB the server's RSS after loading every bench screen was 184–185 MB
// against 201–202, at the same requests per second within the runs' noise (ADR 0008).
export const SERVER_NODE_FLAGS = ["--max-old-space-size=1024", "--max-semi-space-size=8"];
