#!/usr/bin/env node
// Compares servers on the same page: requests over keep-alive connections, `concurrency` at a
// time, as a browser asks (Accept-Encoding: br, gzip). With several targets it alternates short
// bursts between them for `rounds` rounds, so a shared machine's changing load falls on all of
// them alike. Used for docs/decisions/0008-performance-budget-and-server.md.
//
// A target is a URL, optionally followed by @<server pid>: then the server's own CPU time per
// request is reported too (from /proc), which other people's load disturbs far less than req/s.
//
// Usage: node scripts/bench-server.mjs <url[@pid]>... [--requests=200] [--rounds=10]
//          [--concurrency=8] [--cookie="name=value"]
import fs from "node:fs";
import http from "node:http";

const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const perBurst = Number(option("requests", 200));
const rounds = Number(option("rounds", 10));
const concurrency = Number(option("concurrency", 8));
const cookie = option("cookie", "");
const headers = { "accept-encoding": "br, gzip", accept: "text/html", ...(cookie ? { cookie } : {}) };
const targets = process.argv
  .slice(2)
  .filter((a) => !a.startsWith("--"))
  .map((arg) => {
    const [url, pid] = arg.split("@");
    return { url: new URL(url), pid, agent: new http.Agent({ keepAlive: true, maxSockets: concurrency }), times: [], seconds: 0, cpu: 0, bytes: 0, bad: 0 };
  });
if (targets.length === 0) {
  console.error("usage: node scripts/bench-server.mjs <url[@pid]>... [--requests=200] [--rounds=10]");
  process.exit(1);
}

/** The process's user + system CPU time so far, in ms (Linux clock ticks are 10 ms). */
function cpuMs(pid) {
  if (!pid) return 0;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function once(target) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = http.get(target.url, { agent: target.agent, headers }, (res) => {
      let bytes = 0;
      res.on("data", (chunk) => (bytes += chunk.length));
      res.on("end", () => resolve({ ms: performance.now() - start, status: res.statusCode, bytes }));
    });
    req.on("error", reject);
  });
}

async function burst(target, count, record) {
  let next = 0;
  const began = performance.now();
  const cpuBefore = cpuMs(target.pid);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        const result = await once(target);
        if (!record) continue;
        target.times.push(result.ms);
        target.bytes += result.bytes;
        if (result.status !== 200) target.bad++;
      }
    }),
  );
  if (record) {
    target.seconds += (performance.now() - began) / 1000;
    target.cpu += cpuMs(target.pid) - cpuBefore;
  }
}

// Warm up (first renders compile code paths, fill caches), then alternate.
for (const target of targets) await burst(target, 100, false);
for (let round = 0; round < rounds; round++) for (const target of targets) await burst(target, perBurst, true);

for (const target of targets) {
  const n = target.times.length;
  target.times.sort((a, b) => a - b);
  const pct = (p) => target.times[Math.min(n - 1, Math.floor((p / 100) * n))].toFixed(1);
  const cpu = target.pid ? `, server CPU ${(target.cpu / n).toFixed(2)} ms/request` : "";
  console.log(
    `${target.url.host}${target.url.pathname}: ${(n / target.seconds).toFixed(0)} req/s, p50 ${pct(50)} ms, p99 ${pct(99)} ms, ` +
      `${(target.bytes / n).toFixed(0)} B/response, ${target.bad} not 200 (${n} requests, ${concurrency} at a time)${cpu}`,
  );
  target.agent.destroy();
}
