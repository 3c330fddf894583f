import { sentAsJson } from "~/.server/sent-as-json";

/**
 * `rows.map(toOption)` for a list's filter or select, made once per rows array. The data cache keeps
 * a table's rows until it is written (app/.server/data-cache.ts), so every page until then gets the
 * same options array: a kept filter bar's key names it by identity instead of writing its JSON on
 * every request (docs/decisions/0025-cached-shell-markup.md), and the browser gets it as JSON made
 * once (app/.server/sent-as-json.ts). Rows made afresh (a chosen inactive record added) give options
 * made afresh. `toOption` must be a module-level function, and no one may modify the options.
 */
export function optionsOf<Row extends object, Option extends object>(rows: readonly Row[], toOption: (row: Row) => Option): readonly Option[] {
  let byRows = madeBy.get(toOption);
  if (!byRows) madeBy.set(toOption, (byRows = new WeakMap()));
  let options = byRows.get(rows) as readonly Option[] | undefined;
  if (!options) {
    options = sentAsJson(rows.map(toOption));
    byRows.set(rows, options);
  }
  return options;
}

/** Options made so far, per mapping function and rows array; forgotten with the rows. */
const madeBy = new WeakMap<object, WeakMap<object, readonly object[]>>();
