#!/usr/bin/env node
// Sinapse's production server: node:http in front of React Router's request handler, with the
// client build's files served from memory. Replaces `react-router-serve` (express, compression,
// morgan); see docs/decisions/0008-performance-budget-and-server.md for why and the measurements.
//
//   PORT           port to listen on (default 3000)
//   HOST           address to listen on (default: every interface)
//   BUILD_DIR      the `react-router build` output (default `build`)
//   LOG_REQUESTS   1 logs one line per page or data request to stdout (default off)
//   TRUST_PROXY    1 takes the client's address for the audit trail from X-Forwarded-For (default off)
//
// Files under <build>/client: hashed /assets/* are cached by browsers for a year (immutable), the
// rest (favicon …) for an hour with an ETag. Text is sent brotli- or gzip-compressed, from the .br
// and .gz files the build writes next to them (vite.config.ts) or compressed once and kept.
// Pages and data are compressed on the fly, flushed as React streams them; a page rendered whole
// (app/entry.server.tsx hands its buffers over) is written at once, with its length when sent as is.
// Requests are started in the order they came in, one per turn of the event loop
// (scripts/arrival-order.mjs), so none waits behind requests that came in after it.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { inArrivalOrder } from "./scripts/arrival-order.mjs";

// React picks its production or development build when first imported: decide before that.
process.env.NODE_ENV ??= "production";

const root = import.meta.dirname;
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const clientDir = path.join(buildDir, "client");
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined;
const logRequests = process.env.LOG_REQUESTS === "1";
const trustProxy = process.env.TRUST_PROXY === "1";

const [{ createRequestHandler }, build] = await Promise.all([
  import("react-router"),
  import(pathToFileURL(path.join(buildDir, "server/index.js")).href),
]);
const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
/** The security headers of every response (CSP, nosniff, framing, HSTS …): one definition, in app/entry.server.tsx. */
const { securityHeaders } = build.entry.module;

/** HTTPS as the app sees it (app/.server/session.ts): a TLS socket, or a proxy's X-Forwarded-Proto. */
function isHttps(req) {
  if (req.socket.encrypted) return true;
  const forwarded = req.headers["x-forwarded-proto"];
  return typeof forwarded === "string" && forwarded.split(",")[0].trim() === "https";
}

/** The security headers for a file of the build (no HSTS: that one depends on the request). */
const STATIC_SECURITY = (() => {
  const headers = new Headers();
  securityHeaders(headers, { https: false, dynamic: false });
  return [...headers].flatMap(([name, value]) => (name === "x-content-type-options" ? [] : [name, value]));
})();
const HSTS = (() => {
  const headers = new Headers();
  securityHeaders(headers, { https: true, dynamic: false });
  return ["strict-transport-security", headers.get("strict-transport-security")];
})();

/** A plain-text answer the server gives itself (400, 500), with the same security headers. */
function plainAnswer(req, res, status, text) {
  const headers = new Headers({ "Content-Type": "text/plain; charset=utf-8" });
  securityHeaders(headers, { https: isHttps(req), dynamic: true });
  res.writeHead(status, [...headers].flat()).end(text);
}

// --- static files -------------------------------------------------------------------------------

const TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".xml": "application/xml",
};
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".json", ".map", ".svg", ".ico", ".txt", ".html", ".webmanifest", ".xml"]);
/** Below this many bytes compression saves less than its headers cost. */
const MIN_COMPRESS = 1024;

/**
 * URL path → what to send. Built once at start from a directory listing (a few dozen files);
 * contents are read on first request and kept, with the header lists ready-made per encoding.
 */
const files = new Map();

function indexClientFiles(dir, urlPrefix) {
  for (const dirent of fs.readdirSync(dir, { withFileTypes: true })) {
    if (dirent.name.startsWith(".")) continue; // .vite/ and other build bookkeeping
    const file = path.join(dir, dirent.name);
    const url = `${urlPrefix}/${dirent.name}`;
    if (dirent.isDirectory()) {
      indexClientFiles(file, url);
      continue;
    }
    if (dirent.name.endsWith(".gz") || dirent.name.endsWith(".br") || dirent.name === "bundle-stats.json") continue;
    const stat = fs.statSync(file);
    const ext = path.extname(dirent.name).toLowerCase();
    const hashed = url.startsWith("/assets/");
    const compressible = COMPRESSIBLE.has(ext) && stat.size >= MIN_COMPRESS;
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const base = [
      "Content-Type",
      TYPES[ext] ?? "application/octet-stream",
      "Cache-Control",
      hashed ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      "ETag",
      etag,
      "Last-Modified",
      stat.mtime.toUTCString(),
      "X-Content-Type-Options",
      "nosniff",
      ...STATIC_SECURITY,
      ...(compressible ? ["Vary", "Accept-Encoding"] : []),
    ];
    files.set(url, {
      file,
      etag,
      compressible,
      cacheControl: base[3],
      base,
      // Filled on first request: { body: Buffer, headers: [...] } per encoding.
      identity: null,
      br: null,
      gzip: null,
      pending: {},
    });
  }
}
if (fs.existsSync(clientDir)) indexClientFiles(clientDir, "");

const BROTLI_FILE = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } };
const compressFile = (raw, encoding) =>
  new Promise((resolve, reject) => {
    const done = (error, out) => (error ? reject(error) : resolve(out));
    if (encoding === "br") zlib.brotliCompress(raw, BROTLI_FILE, done);
    else zlib.gzip(raw, { level: 9 }, done);
  });

async function load(entry, encoding) {
  if (encoding === "identity") {
    const body = await fs.promises.readFile(entry.file);
    return { body, headers: [...entry.base, "Content-Length", String(body.length)] };
  }
  const plain = entry.identity ?? (await variant(entry, "identity"));
  // The build's own .br/.gz next to the file (best compression, done once at build time), else ours.
  const body = await fs.promises
    .readFile(`${entry.file}.${encoding === "br" ? "br" : "gz"}`)
    .catch(() => compressFile(plain.body, encoding));
  if (body.length >= plain.body.length) return plain; // already-compressed formats: send as is
  return { body, headers: [...entry.base, "Content-Length", String(body.length), "Content-Encoding", encoding] };
}

/** The file's bytes and headers in `encoding` ("identity" | "br" | "gzip"), loaded once and kept. */
function variant(entry, encoding) {
  let pending = entry.pending[encoding];
  if (!pending) {
    pending = entry.pending[encoding] = load(entry, encoding).then((value) => (entry[encoding] = value));
    pending.catch(() => delete entry.pending[encoding]); // try again on the next request
  }
  return pending;
}

const REFUSES_BR = /(?:^|,)\s*br\s*;\s*q=0(?:\.0*)?\s*(?:,|$)/i;
const REFUSES_GZIP = /(?:^|,)\s*gzip\s*;\s*q=0(?:\.0*)?\s*(?:,|$)/i;

/** "br", "gzip" or "identity", from an Accept-Encoding header (a q=0 refusal is honoured). */
function pickEncoding(accept) {
  if (!accept) return "identity";
  if (accept.includes("br") && !REFUSES_BR.test(accept)) return "br";
  if (accept.includes("gzip") && !REFUSES_GZIP.test(accept)) return "gzip";
  return "identity";
}

async function sendFile(req, res, entry) {
  if (req.headers["if-none-match"] === entry.etag) {
    res.writeHead(304, ["ETag", entry.etag, "Cache-Control", entry.cacheControl]);
    res.end();
    return;
  }
  const encoding = entry.compressible ? pickEncoding(req.headers["accept-encoding"]) : "identity";
  const { body, headers } = entry[encoding] ?? (await variant(entry, encoding));
  res.writeHead(200, isHttps(req) ? [...headers, ...HSTS] : headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

// --- pages and data -----------------------------------------------------------------------------

/** Where app/entry.server.tsx hands a page's buffers over. */
const PAGE_PARTS = Symbol.for("sinapse.pageParts");
/** Tells app/entry.server.tsx that this request's page is written from its buffers (no body stream is made). */
const TAKES_PAGE_PARTS = Symbol.for("sinapse.takesPageParts");

const COMPRESSIBLE_TYPE = /^(?:text\/|application\/(?:json|javascript|xml|x-ndjson|manifest\+json)|image\/svg\+xml)/;

/** The socket's address, or the first X-Forwarded-For hop behind a trusted proxy (TRUST_PROXY=1). */
function clientAddressOf(req) {
  const forwarded = trustProxy ? String(req.headers["x-forwarded-for"] ?? "").split(",")[0].trim() : "";
  return (forwarded || req.socket.remoteAddress || "").replace(/^::ffff:/, "").slice(0, 64);
}

function createRequest(req, res) {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  // The client's address for the audit trail (app/.server/audit.ts): ours, never the client's word.
  headers.set("x-sinapse-client-address", clientAddressOf(req));
  const origin = `http://${req.headers.host || "localhost"}`;
  // Always relative to our own origin: a request line like `//other.host/x` stays a path.
  const url = new URL(req.url.startsWith("/") ? origin + req.url : req.url, origin);
  const init = { method: req.method, headers };
  if (req.method !== "GET" && req.method !== "HEAD") {
    // A form or an upload is aborted when the browser goes away. A GET's work is a few milliseconds
    // of reading and rendering (an export stops when its stream is cancelled, below); a signal of
    // ours, which undici follows with one of its own, cost ~12 µs per request.
    const controller = new AbortController();
    res.once("close", () => controller.abort());
    init.signal = controller.signal;
    init.body = new ReadableStream({
      start(stream) {
        req.on("data", (chunk) => stream.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
        req.on("end", () => stream.close());
        req.on("error", (error) => stream.error(error));
      },
    });
    init.duplex = "half";
  }
  const request = new Request(url, init);
  request[TAKES_PAGE_PARTS] = true;
  return request;
}

/** Writes `chunk` to `out`, waiting when it asks us to slow down (or until it is gone). */
function write(out, chunk) {
  if (out.write(chunk) || out.destroyed) return;
  return new Promise((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      resolve();
    };
    out.on("drain", done);
    out.on("close", done);
  });
}

async function sendResponse(req, res, response) {
  const rawHeaders = [];
  // Pages already carry their CSP with the request's nonce (entry.server.tsx); the rest get theirs here.
  const responseHeaders = new Headers(response.headers);
  securityHeaders(responseHeaders, { https: isHttps(req), dynamic: true });
  for (const [name, value] of responseHeaders) {
    // As express did: text without a charset is UTF-8 (React Router's pages say "text/html").
    rawHeaders.push(name, name === "content-type" && value.startsWith("text/") && !value.includes("charset") ? `${value}; charset=utf-8` : value);
  }
  const bodyless = req.method === "HEAD" || response.status === 204 || response.status === 304;
  // A page's buffers, all ready (app/entry.server.tsx): written at once. Its Response has no body.
  const parts = bodyless ? undefined : response[PAGE_PARTS];
  const body = bodyless || parts ? null : response.body;
  const encoding =
    (parts || body) && !responseHeaders.has("content-encoding") && COMPRESSIBLE_TYPE.test(responseHeaders.get("content-type") ?? "")
      ? pickEncoding(req.headers["accept-encoding"])
      : "identity";

  if (encoding === "identity") {
    if (parts && !responseHeaders.has("content-length")) rawHeaders.push("content-length", String(parts.reduce((sum, part) => sum + part.length, 0)));
    res.writeHead(response.status, rawHeaders);
    if (parts) {
      res.cork();
      for (const part of parts) res.write(part);
    } else if (body) {
      // Data, exports and the rest: what the stream has ready leaves in one write to the socket.
      let corked = false;
      const uncork = () => {
        if (!corked) return;
        corked = false;
        res.uncork();
      };
      for await (const chunk of body) {
        if (res.destroyed) break; // the browser went away: stop rendering
        if (!corked) {
          corked = true;
          res.cork();
          setImmediate(uncork);
        }
        await write(res, chunk);
      }
      corked = false; // end() sends what is held
    }
    res.end();
    return;
  }

  const headers = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i] !== "content-length") headers.push(rawHeaders[i], rawHeaders[i + 1]);
  }
  const vary = responseHeaders.get("vary");
  headers.push("content-encoding", encoding);
  if (!vary) headers.push("vary", "Accept-Encoding");
  else if (!/accept-encoding/i.test(vary)) headers[headers.indexOf("vary", 0) + 1] = `${vary}, Accept-Encoding`;
  res.writeHead(response.status, headers);

  // The fastest settings (nginx's own gzip default): the page is compressed on every request, and
  // on the board (213 KB) gzip 6 cost 1.6-1.9 ms and brotli 4 1.3 ms of CPU against 0.9 and 0.4 ms,
  // for 22 and 20 KB against 27 and 23 KB: little on a clinic's network (ADR 0008). Output is
  // flushed once React pauses (the next chunk is not ready yet), so streamed pages and CSV exports
  // still arrive as they go.
  const compressor =
    encoding === "br"
      ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
      : zlib.createGzip({ level: 1 });
  compressor.on("error", () => res.destroy());
  res.once("close", () => compressor.destroy());
  compressor.pipe(res);
  if (parts) {
    for (const part of parts) compressor.write(part);
    compressor.end();
    return;
  }
  let flushScheduled = false;
  const flush = () => {
    flushScheduled = false;
    if (!compressor.destroyed && !compressor.writableEnded) compressor.flush();
  };
  try {
    for await (const chunk of body) {
      if (compressor.destroyed) break; // the browser went away: stop rendering
      await write(compressor, chunk);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    }
  } finally {
    compressor.end();
  }
}

function log(req, res, start) {
  const ms = (performance.now() - start).toFixed(1);
  process.stdout.write(`${req.method} ${req.url} ${res.statusCode} ${ms} ms\n`);
}

/** One request: a file of the build, or a page or data through React Router. */
async function handle(req, res) {
  try {
    if (req.method === "GET" || req.method === "HEAD") {
      const q = req.url.indexOf("?");
      const entry = files.get(q === -1 ? req.url : req.url.slice(0, q));
      if (entry) return await sendFile(req, res, entry);
    }
    const start = logRequests ? performance.now() : 0;
    if (logRequests) res.once("finish", () => log(req, res, start));
    let request;
    try {
      request = createRequest(req, res);
    } catch {
      plainAnswer(req, res, 400, "Bad Request");
      return;
    }
    let response;
    try {
      response = await handleRequest(request);
    } catch (error) {
      console.error(error);
      response = new Response("Internal Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
    }
    await sendResponse(req, res, response);
  } catch (error) {
    // The browser went away mid-response (the request was aborted), or writing failed.
    if (!res.headersSent) plainAnswer(req, res, 500, "Internal Server Error");
    else res.destroy();
    if (!req.destroyed && error?.name !== "AbortError") console.error(error);
  }
}

// Started in the order the requests came in, one per turn of the event loop (scripts/arrival-order.mjs).
const server = http.createServer(inArrivalOrder(handle));

server.keepAliveTimeout = 65_000;
server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === "object" && address ? `${host ?? "localhost"}:${address.port}` : String(address);
  console.log(`Sinapse: http://${shown}`);
});

// Stop taking new connections, let requests in flight finish (up to 10 s), then leave.
let stopping = false;
function shutdown(signal) {
  if (stopping) process.exit(1); // a second Ctrl-C: leave now
  stopping = true;
  console.log(`${signal}: finishing requests in flight`);
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
