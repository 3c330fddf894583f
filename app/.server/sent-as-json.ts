/**
 * Values a page sends as JSON text made once (docs/decisions/0008-performance-budget-and-server.md).
 * React Router encodes a page's data value by value for the browser, on every request: a board's
 * cards or a month's entries are thousands of values, ~8 % of such a page's time. A value kept
 * unchanged between requests (the data cache's) can instead carry its JSON, made the first time it
 * is sent; the patched encoder writes that text into its own as one value, which the browser
 * parses with the rest (patches/react-router+7.18.4.patch, type "J").
 */
const SENT_AS_JSON = Symbol.for("sinapse.sentAsJson");

/**
 * `value`, marked to be sent as its JSON, made now and kept on it. Only for values no one modifies
 * afterwards, and that JSON gives back exactly: plain objects and arrays of strings, finite numbers,
 * booleans and null, and Dates as an object's properties (a list's rows). A Date goes as its time
 * in milliseconds with its property's name, and the browser makes a Date again of every number
 * under such a name: so a name that holds a Date may hold no other number anywhere in the value.
 * Anything else (a Date in an array, undefined in an array, NaN, such a name holding a number) is
 * sent as usual, through the encoder that keeps it; in development and tests it throws, so the case
 * is found and fixed.
 */
export function sentAsJson<T extends object>(value: T): T {
  if (Object.hasOwn(value, SENT_AS_JSON)) return value;
  const names: Names = { dates: new Set(), numbers: new Set() };
  const problem = jsonProblem(value, "value", names) ?? clashOf(names);
  if (problem) {
    if (process.env.NODE_ENV !== "production") throw new TypeError(`sentAsJson: ${problem}`);
    return value;
  }
  // The JSON, which the encoder writes into its own as it is (`["J", json, names]`), parsed in the
  // browser with the rest, and the names the browser's Dates are under.
  const json = names.dates.size ? JSON.stringify(value, datesAsTimes) : JSON.stringify(value);
  Object.defineProperty(value, SENT_AS_JSON, { value: names.dates.size ? `${json},${JSON.stringify([...names.dates])}` : json });
  return value;
}

/** The property names under which `value` holds Dates, and those under which it holds numbers (array indices included). */
interface Names {
  dates: Set<string>;
  numbers: Set<string>;
}

/** JSON.stringify's replacer: a Date (already its ISO text in `json`) as its time. */
function datesAsTimes(this: Record<string, unknown>, key: string, json: unknown) {
  const raw = this[key];
  return raw instanceof Date ? raw.getTime() : json;
}

/** What JSON would not give back as it is in `value` (at `path`, under `name`), or null. */
function jsonProblem(value: unknown, path: string, names: Names, name?: string): string | null {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") {
    if (!Number.isFinite(value) || Object.is(value, -0)) return `${path} is ${value}`;
    if (name !== undefined) names.numbers.add(name);
    return null;
  }
  if (typeof value !== "object") return `${path} is ${typeof value}`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || value[i] === undefined) return `${path}[${i}] is missing`;
      if (value[i] instanceof Date) return `${path}[${i}] is a Date in an array`;
      const problem = jsonProblem(value[i], `${path}[${i}]`, names, String(i));
      if (problem) return problem;
    }
    return null;
  }
  if (value instanceof Date) {
    if (name === undefined) return `${path} is a Date`;
    if (Number.isNaN(value.getTime())) return `${path} is an invalid Date`;
    names.dates.add(name);
    return null;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return `${path} is a ${prototype?.constructor?.name ?? "class instance"}`;
  for (const [key, item] of Object.entries(value)) {
    // A missing key reads as undefined in the browser too.
    if (item === undefined) continue;
    const problem = jsonProblem(item, `${path}.${key}`, names, key);
    if (problem) return problem;
  }
  return null;
}

/** A name that holds both a Date and a number somewhere, which the browser would turn into a Date too. */
function clashOf({ dates, numbers }: Names): string | null {
  for (const name of dates) if (numbers.has(name)) return `'${name}' holds a Date and a number`;
  return null;
}
