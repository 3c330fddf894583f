/**
 * The load generator of `npm run bench`, in a process of its own so that it never shares the
 * server's event loop. It takes one job at a time over IPC (a URL, a connection count, a fixed
 * duration) and answers with the measured figures; it exits when its parent goes away.
 */
import autocannon from "autocannon";

export interface LoadJob {
  id: number;
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
}

export interface LoadResult {
  id: number;
  requests: number;
  reqPerSec: number;
  /** Latencies of the 2xx responses, in milliseconds, from every single response (not a histogram). */
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  error?: string;
}

function percentile(sorted: Float64Array, p: number) {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

function run(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve) => {
    let latencies = new Float64Array(1 << 14);
    let n = 0;
    const instance = autocannon(
      { url: job.url, connections: job.connections, duration: job.seconds, headers: job.headers, timeout: 30 },
      (error, result) => {
        const sorted = latencies.subarray(0, n).sort();
        let sum = 0;
        for (const value of sorted) sum += value;
        const statusCodes = Object.fromEntries(Object.entries(result?.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
        const completed = Object.values(statusCodes).reduce((a, b) => a + b, 0);
        resolve({
          id: job.id,
          requests: completed,
          reqPerSec: result ? completed / (result.duration || job.seconds) : 0,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          mean: n ? sum / n : NaN,
          max: n ? sorted[n - 1] : NaN,
          non2xx: result?.non2xx ?? 0,
          errors: result?.errors ?? 0,
          timeouts: result?.timeouts ?? 0,
          statusCodes,
          error: error ? String(error) : undefined,
        });
      },
    );
    instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode < 200 || statusCode >= 300) return;
      if (n === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[n++] = responseTime;
    });
  });
}

process.on("message", (job: LoadJob) => {
  run(job).then((result) => process.send?.(result));
});
// Never outlive the benchmark that started this process.
process.on("disconnect", () => process.exit(0));
