import type { IncomingMessage, ServerResponse } from "node:http";

/** The `request` listener that starts each request in the order it arrived, one per turn of the event loop. */
export function inArrivalOrder<Req extends IncomingMessage, Res extends ServerResponse>(
  handle: (req: Req, res: Res) => unknown,
): (req: Req, res: Res) => void;
