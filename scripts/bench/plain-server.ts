/**
 * The ceiling of `npm run bench`: a bare node:http server, in its own process, answering every
 * request with the same bytes and content-type as the app's /auth page. Argument: a JSON file
 * { bodyPath, contentType }. It listens on 127.0.0.1 (a free port), reports the port over IPC and
 * exits when its parent goes away.
 */
import fs from "node:fs";
import http from "node:http";

const { bodyPath, contentType } = JSON.parse(fs.readFileSync(process.argv[2], "utf8")) as { bodyPath: string; contentType: string };
const body = fs.readFileSync(bodyPath);

const server = http.createServer((_request, response) => {
  response.writeHead(200, { "Content-Type": contentType, "Content-Length": body.length });
  response.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
process.on("disconnect", () => process.exit(0));
