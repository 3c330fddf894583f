/**
 * The production server takes requests in the order they arrive (scripts/arrival-order.mjs): a
 * request that came in while the server was busy is started before one that came in after it, even
 * when that later one is from a connection just served.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { inArrivalOrder } from "../../scripts/arrival-order.mjs";

const ARRIVAL_ORDER = pathToFileURL(path.resolve(import.meta.dirname, "../../scripts/arrival-order.mjs")).href;

/**
 * A server in a process of its own (its sockets are read only between its requests, as the real
 * server's are), whose every request is synchronous work of BUSY_MS, like a page's render. It prints
 * `started <path>` as it begins each one, and answers with the path.
 */
const BUSY_MS = 150;
const SERVER = `
import fs from "node:fs";
import http from "node:http";
import { inArrivalOrder } from ${JSON.stringify(ARRIVAL_ORDER)};
const server = http.createServer(inArrivalOrder((req, res) => {
  if (req.url === "/ready") return res.end(req.url); // the connection is taken: see connect()
  fs.writeSync(1, "started " + req.url + "\\n"); // at once, not after the work (stdout to a pipe is asynchronous)
  const until = Date.now() + ${BUSY_MS};
  while (Date.now() < until);
  res.end(req.url);
}));
server.listen(0, "127.0.0.1", () => process.stdout.write("listening " + server.address().port + "\\n"));
`;

let child: ChildProcessWithoutNullStreams | undefined;
const sockets: net.Socket[] = [];

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  child?.kill();
  child = undefined;
});

/** Starts the server; `started` lists the paths in the order it began them, `onStart` hears each. */
async function startServer() {
  const started: string[] = [];
  const listeners: ((path: string) => void)[] = [];
  child = spawn(process.execPath, ["--input-type=module", "-e", SERVER]);
  let buffered = "";
  const port = await new Promise<number>((resolve, reject) => {
    child!.once("error", reject);
    child!.stdout.on("data", (data: Buffer) => {
      buffered += data.toString();
      let end: number;
      while ((end = buffered.indexOf("\n")) !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.startsWith("listening ")) resolve(Number(line.slice("listening ".length)));
        if (line.startsWith("started ")) {
          const path = line.slice("started ".length);
          started.push(path);
          for (const listener of listeners) listener(path);
        }
      }
    });
  });
  return { port, started, onStart: (listener: (path: string) => void) => listeners.push(listener) };
}

/** A keep-alive connection the server has accepted, that sends GETs as told and hears each answer. */
async function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  sockets.push(socket);
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.setNoDelay(true);
  const answered: ((body: string) => void)[] = [];
  let received = "";
  socket.on("data", (data) => {
    received += data.toString();
    // Each answer: its head, then its body (the path), Content-Length bytes long.
    let headEnd: number;
    while ((headEnd = received.indexOf("\r\n\r\n")) !== -1) {
      const length = Number(/content-length: (\d+)/i.exec(received.slice(0, headEnd))?.[1] ?? 0);
      const bodyStart = headEnd + 4;
      if (received.length < bodyStart + length) break;
      const body = received.slice(bodyStart, bodyStart + length);
      received = received.slice(bodyStart + length);
      for (const listener of answered.splice(0)) listener(body);
    }
  });
  const connection = {
    socket,
    get: (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`),
    answer: () => new Promise<string>((resolve) => answered.push(resolve)),
  };
  // Once answered, the server has accepted the connection: a request on one it has not accepted yet
  // is read a turn later than the others, whatever the order it came in.
  const ready = connection.answer();
  connection.get("/ready");
  await ready;
  return connection;
}

describe("the server's requests in the order they arrive", () => {
  it("starts a request that came in while it was busy before one that came in later from a connection just served", async () => {
    const { port, started, onStart } = await startServer();
    const [blocker, a, b, c] = await Promise.all([connect(port), connect(port), connect(port), connect(port)]);
    const done = Promise.all([a.answer().then(() => a.answer()), b.answer(), c.answer()]);

    // While /z keeps the server busy, /a1 and /b1 come in. While /a1 runs, /c1 comes in; while /b1
    // runs, /a1's connection, already answered, asks for /a2. /c1 came in first and is started first.
    onStart((path) => {
      if (path === "/z") {
        a.get("/a1");
        b.get("/b1");
      }
      if (path === "/a1") c.get("/c1");
      if (path === "/b1") a.get("/a2");
    });
    blocker.get("/z");
    await done;

    expect(started).toEqual(["/z", "/a1", "/b1", "/c1", "/a2"]);
  });

  it("does not serve a request whose client went away before its turn", async () => {
    const { port, started, onStart } = await startServer();
    const [blocker, gone, after] = await Promise.all([connect(port), connect(port), connect(port)]);
    onStart((path) => {
      if (path !== "/z") return;
      gone.get("/gone");
      gone.socket.resetAndDestroy();
      setTimeout(() => after.get("/after"), 10);
    });
    const answered = after.answer();
    blocker.get("/z");
    expect(await answered).toBe("/after");

    expect(started).toEqual(["/z", "/after"]);
  });

  it("starts the next request while one waits for something", async () => {
    const server = http.createServer(
      inArrivalOrder(async (req, res) => {
        if (req.url === "/slow") await new Promise((resolve) => setTimeout(resolve, 300));
        res.end(req.url);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const finished: string[] = [];
      const fetchText = (path: string) =>
        fetch(`http://127.0.0.1:${port}${path}`)
          .then((response) => response.text())
          .then((text) => void finished.push(text));
      const slow = fetchText("/slow");
      await new Promise((resolve) => setTimeout(resolve, 20));
      await Promise.all([slow, fetchText("/fast")]);
      expect(finished).toEqual(["/fast", "/slow"]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
