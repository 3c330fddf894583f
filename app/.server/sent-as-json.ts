/**
 * Values a page sends as JSON text made once (docs/decisions/0008-performance-budget-and-server.md).
 * React Router encodes a page's data value by value for the browser, on every request: a board's
 * cards or a month's entries are thousands of values, ~8 % of such a page's time. A value kept
 * unchanged between requests (the data cache's) can instead carry its JSON, made the first time it
 * is sent; the patched encoder sends that text as one value and the browser parses it back
 * (patches/react-router+7.18.4.patch, type "J").
 */
const SENT_AS_JSON = Symbol.for("sinapse.sentAsJson");

/**
 * `value`, marked to be sent as its JSON, made now and kept on it. Only for values no one modifies
 * afterwards, and that JSON gives back exactly: plain objects and arrays of strings, finite numbers,
 * booleans and null. Anything else (a Date, undefined in an array, NaN) is sent as usual, through
 * the encoder that keeps it; in development and tests it throws, so the case is found and fixed.
 */
export function sentAsJson<T extends object>(value: T): T {
  if (Object.hasOwn(value, SENT_AS_JSON)) return value;
  const problem = jsonProblem(value, "value");
  if (problem) {
    if (process.env.NODE_ENV !== "production") throw new TypeError(`sentAsJson: ${problem}`);
    return value;
  }
  // The text of the JSON text: the encoder writes it into its own JSON as it is.
  Object.defineProperty(value, SENT_AS_JSON, { value: JSON.stringify(JSON.stringify(value)) });
  return value;
}

/** What JSON would not give back as it is in `value` (at `path`), or null. */
function jsonProblem(value: unknown, path: string): string | null {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0) ? null : `${path} is ${value}`;
  if (typeof value !== "object") return `${path} is ${typeof value}`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || value[i] === undefined) return `${path}[${i}] is missing`;
      const problem = jsonProblem(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return `${path} is a ${prototype?.constructor?.name ?? "class instance"}`;
  for (const [key, item] of Object.entries(value)) {
    // A missing key reads as undefined in the browser too.
    if (item === undefined) continue;
    const problem = jsonProblem(item, `${path}.${key}`);
    if (problem) return problem;
  }
  return null;
}
