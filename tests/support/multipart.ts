import { TEST_ORIGIN } from "./fixtures";

/** Multipart bodies for upload tests: built whole, or produced on demand counting what the server pulled. */
export type Part = { name: string; value: string } | { name: string; filename: string; type: string; content: Buffer };

export const BOUNDARY = "----sinapse-test-boundary";

export function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ("filename" in part) {
      chunks.push(
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
        ),
        part.content,
        Buffer.from("\r\n"),
      );
    } else {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** A multipart POST to `path`, signed in with `cookie`; `headers` adds to it (X-Requested-With …). */
export function multipartRequest(
  path: string,
  cookie: string,
  body: Buffer | ReadableStream<Uint8Array>,
  { contentLength = true, headers: extra = {} }: { contentLength?: boolean; headers?: Record<string, string> } = {},
) {
  const headers = new Headers({ Cookie: cookie, Origin: TEST_ORIGIN, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`, ...extra });
  if (contentLength && Buffer.isBuffer(body)) headers.set("Content-Length", String(body.length));
  return new Request(new URL(path, TEST_ORIGIN), {
    method: "POST",
    headers,
    body: Buffer.isBuffer(body) ? new Uint8Array(body) : body,
    duplex: "half",
  } as RequestInit);
}

/** A body produced on demand, counting what the server actually pulled. */
export function countingStream(prefix: Buffer, totalFileBytes: number) {
  const counter = { pulled: 0 };
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  let sent = -1;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent < 0) {
          sent = 0;
          controller.enqueue(new Uint8Array(prefix));
          counter.pulled += prefix.length;
          return;
        }
        if (sent >= totalFileBytes) {
          controller.enqueue(new Uint8Array(Buffer.from(`\r\n--${BOUNDARY}--\r\n`)));
          controller.close();
          return;
        }
        sent += chunk.length;
        counter.pulled += chunk.length;
        controller.enqueue(new Uint8Array(chunk));
      },
    },
    // Nothing is produced until the server asks for it.
    { highWaterMark: 0 },
  );
  return { stream, counter };
}
