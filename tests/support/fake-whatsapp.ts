/**
 * A fake WhatsApp Cloud API (Graph API) on 127.0.0.1, for the tests: it records every request and
 * answers with what the test scripted (default: 200 with a new wamid). The app reaches it through
 * WHATSAPP_API_URL, so the real client code runs; only the far end is ours.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeWhatsApp {
  url: string;
  port: number;
  requests: FakeRequest[];
  /** Answers for the next requests, in order (status and body); afterwards the default success. */
  script: { status: number; body?: unknown }[];
  close(): Promise<void>;
}

export async function startFakeWhatsApp(port = 0): Promise<FakeWhatsApp> {
  const requests: FakeRequest[] = [];
  const script: FakeWhatsApp["script"] = [];
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        body = {};
      }
      requests.push({ method: req.method ?? "", path: req.url ?? "", authorization: req.headers.authorization, body });
      const next = script.shift();
      counter += 1;
      const status = next?.status ?? 200;
      const answer =
        next?.body ??
        (status === 200
          ? { messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.fake${counter}` }] }
          : { error: { message: "Internal error", code: 1 } });
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/v25.0`,
    port: actual,
    requests,
    script,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
