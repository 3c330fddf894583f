import { randomFillSync } from "node:crypto";
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type HandleErrorFunction, ServerRouter, isRouteErrorResponse } from "react-router";
import { markupStoreForPage } from "~/.server/markup-cache";
import { isHttps } from "~/.server/session";
import { MarkupStoreContext } from "~/lib/markup-cache";
import { NonceContext } from "~/lib/nonce";

export const streamTimeout = 5_000;

/**
 * The security headers of every response (docs/decisions/0010-login-throttling-sessions-and-mfa.md).
 * Pages get a CSP whose scripts must carry this request's nonce (no 'unsafe-inline' script);
 * everything else (data, JSON, CSV, files) a CSP that allows nothing to run. server.mjs calls
 * this for every response it sends, static files included; React Router calls it here for pages.
 */
export function securityHeaders(headers: Headers, options: { https: boolean; nonce?: string; dynamic: boolean }) {
  const common = "object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
  if (!headers.has("Content-Security-Policy")) {
    headers.set(
      "Content-Security-Policy",
      options.nonce
        ? [
            "default-src 'self'",
            `script-src 'self' 'nonce-${options.nonce}'`,
            // Inline style attributes (and the toaster's <style>) are not scripts.
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "connect-src 'self'",
            "form-action 'self'",
            common,
            ...(options.https ? ["upgrade-insecure-requests"] : []),
          ].join("; ")
        : `default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; ${common}`,
    );
  }
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=()");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  if (options.https) headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  // Pages, data and APIs carry patient data: never kept by the browser or a proxy.
  if (options.dynamic) headers.set("Cache-Control", "no-store");
}

/**
 * A page's CSP nonce: 16 bytes from the system's secure random source, never used twice. They are
 * drawn 256 nonces at a time (one call instead of one per page, as Node does for randomUUID).
 */
function nextNonce() {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  return noncePool.toString("base64", nonceOffset, (nonceOffset += 16));
}
const noncePool = Buffer.alloc(16 * 256);
let nonceOffset = noncePool.length;

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
  const nonce = nextNonce();
  securityHeaders(responseHeaders, { https: isHttps(request), nonce, dynamic: true });

  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const markup = markupStoreForPage();
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    // The page is sent once everything is rendered, browsers and bots alike. No page streams
    // anything slow (loaders return plain data, no deferred promises), so the whole page is ready
    // in the same moment as its first part. React's small chunks are joined into a few buffers,
    // but markup kept between requests (ADR 0025) goes out as the bytes kept with it: encoding it
    // again, or copying it into a fresh page-sized buffer, was the costliest part of sending a
    // board, since new memory is slow to touch the first time
    // (docs/decisions/0008-performance-budget-and-server.md).
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <MarkupStoreContext.Provider value={markup}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </MarkupStoreContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const parts: Buffer[] = [];
          /** React's chunks since the last kept markup, joined when the next one comes. */
          let run: Buffer[] = [];
          const endRun = () => {
            if (run.length) parts.push(run.length === 1 ? run[0] : Buffer.concat(run));
            run = [];
          };
          const html = new Writable({
            // React writes long strings as they are: kept markup is one, sent as its kept bytes.
            decodeStrings: false,
            write(chunk: Buffer | string, _encoding, callback) {
              if (typeof chunk !== "string") run.push(chunk);
              else {
                const bytes = markup.bytesOf(chunk);
                if (bytes === undefined) run.push(Buffer.from(chunk));
                else {
                  endRun();
                  parts.push(bytes);
                }
              }
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              endRun();
              responseHeaders.set("Content-Type", "text/html");
              // A page that renders markup to keep is joined into one buffer, to cut it out of.
              const page = markup.capturing ? [Buffer.concat(parts)] : parts;
              resolve(pageResponse(request, page, { headers: responseHeaders, status: responseStatusCode }));
              // Markup is kept from a page that rendered without a fault (after the answer is on its way).
              if (responseStatusCode === 200 && markup.capturing) markup.keep(page[0]);
              callback();
            },
          });
          pipe(html);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/**
 * The finished page's buffers, as a Response that also hands them to our server as they are
 * (server.mjs writes them to the socket at once, without reading the stream chunk by chunk).
 * A request from server.mjs says it takes the buffers, and its Response has no stream to build:
 * making one cost ~2 % of a list page's time. Anything else (tests, the bench's in-process part)
 * reads the body as usual.
 */
function pageResponse(request: Request, parts: Buffer[], init: ResponseInit) {
  const takesParts = (request as Request & { [TAKES_PAGE_PARTS]?: boolean })[TAKES_PAGE_PARTS] === true;
  const response = new Response(takesParts ? null : streamOf(parts), init);
  Object.defineProperty(response, PAGE_PARTS, { value: parts });
  return response;
}

/** server.mjs reads a page's buffers under this key. */
const PAGE_PARTS = Symbol.for("sinapse.pageParts");
/** server.mjs marks its requests with this key: it writes a page from its buffers, never its body. */
const TAKES_PAGE_PARTS = Symbol.for("sinapse.takesPageParts");

/**
 * A stream of the finished page's buffers. `new Response(buffer)` would copy the whole buffer first
 * (undici takes a private copy of any byte array it is given), which on a 200 KB page cost more
 * than joining React's chunks did.
 */
function streamOf(parts: Buffer[]) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/**
 * Errors worth a stack trace in the log. A thrown response (403 for a forged request, 404, a
 * redirect) is an answer, not a fault: the code that refused logged its own line if needed.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) || error instanceof Response) return;
  console.error(error);
};
