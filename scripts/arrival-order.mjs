// Requests started in the order they reached the server, one per turn of the event loop: the
// production server's (server.mjs) way of taking its requests. See
// docs/decisions/0008-performance-budget-and-server.md, 'Requests in the order they arrive'.
//
// Node reads every socket that has a request waiting in one go (one poll of the event loop) and
// would start them all there, one after another; a page takes a millisecond or two and is nearly all
// synchronous, so that whole batch runs before the server looks at its sockets again. The kernel then
// reports the sockets it reported last time first, so a connection just served in the batch, whose
// browser asked again at once, went ahead of one whose request came in earlier but just after the
// poll: under load that one waited for two batches instead of one, and those waits were the slow
// tail of every page (p95 at 20 connections).
//
// Here a request is only queued when it is read, and the queue is started from one request at a
// time, each in a turn of its own, with a poll of the sockets before the next: what came in while one
// request ran joins the queue's end, behind what came in before it. Only requests that came in while
// the same request ran can still be read in the kernel's order rather than theirs. A request that
// waits for something (a file, a worker, another server) lets the next one start as before; a
// client that went away before its turn is not served.

/**
 * The `request` listener for node:http that calls `handle(req, res)` for each request in the order
 * they arrived, one per turn of the event loop (types: ./arrival-order.d.mts).
 */
export function inArrivalOrder(handle) {
  const waiting = [];
  let scheduled = false;

  function startNext() {
    // Scheduled only while a request waits, so there is always one to take.
    const [req, res] = waiting.shift();
    if (waiting.length > 0) setImmediate(startNext);
    else scheduled = false;
    if (res.destroyed || req.socket.destroyed) return; // gone before its turn: nothing to answer
    handle(req, res);
  }

  return (req, res) => {
    waiting.push([req, res]);
    if (!scheduled) {
      scheduled = true;
      setImmediate(startNext);
    }
  };
}
