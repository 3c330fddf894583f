/**
 * Runs `work` while a 1 ms timer ticks, as other requests' turns of the event loop would come: how
 * many ticks ran, the longest wait between two, and how long `work` took. Work done in the
 * caller's own thread shows as one gap about as long as itself (and few ticks).
 */
export async function timersDuring<T>(work: () => Promise<T>) {
  let ticks = 0;
  let longestGap = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
    ticks += 1;
  }, 1);
  try {
    const started = performance.now();
    const value = await work();
    const took = performance.now() - started;
    // One more turn, so that a block at the very end is counted too.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { value, ticks, longestGap, took };
  } finally {
    clearInterval(ticker);
  }
}
