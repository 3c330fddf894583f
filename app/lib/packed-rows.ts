/**
 * Rows of one shape sent to the browser as arrays of their values under one list of field names.
 * React Router encodes loader data value by value, and an object's every key is one more value to
 * look up and print: the board's hundred cards of a dozen fields each made most of its data's
 * encoding (docs/decisions/0008-performance-budget-and-server.md, 'The board's cards as rows of
 * values'). The server packs once per kept value; each side unpacks once per packed value.
 */
export interface PackedRows<Row extends object> {
  fields: readonly (keyof Row & string)[];
  values: unknown[][];
}

/** Every field of `Row`, named once: `satisfies` makes leaving one out a type error. */
export type FieldList<Row extends object> = Record<keyof Row & string, true>;

/**
 * The value `make` gives for `key`, made once while `key` lives (kept in `map`): a packed value per
 * kept rows, rows per packed value.
 */
export function keptFor<Key extends object, Value>(map: WeakMap<Key, Value>, key: Key, make: () => Value): Value {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** Rows already unpacked, by their packed value: on the server, the very rows that were packed. */
const unpacked = new WeakMap<object, object[]>();

/** The names of each field list, one array for all its packs: the page's data then holds it once. */
const fieldNames = new WeakMap<object, string[]>();

/**
 * `rows` as arrays of the values of `fields` (a field a row lacks is sent as undefined). Every pack
 * made with the same field list shares one array of names, which React Router encodes once however
 * many packs a page sends (a month's 35 days, a board's columns).
 */
export function packRows<Row extends object>(rows: readonly Row[], fields: FieldList<Row>): PackedRows<Row> {
  const names = keptFor(fieldNames, fields, () => Object.keys(fields)) as (keyof Row & string)[];
  const packed: PackedRows<Row> = { fields: names, values: rows.map((row) => names.map((name) => row[name])) };
  unpacked.set(packed, rows as Row[]);
  return packed;
}

/**
 * The rows `packRows` packed, made once per packed value and shared by every caller, which must
 * not change them. A field sent as undefined is left out, as it was in the row.
 */
export function unpackRows<Row extends object>(packed: PackedRows<Row>): Row[] {
  // The fields are the row type's own (`packRows`), each with the value the server's row held.
  return keptFor(unpacked, packed, () =>
    packed.values.map((values) => {
      const row: Partial<Record<keyof Row & string, unknown>> = {};
      packed.fields.forEach((field, i) => {
        if (values[i] !== undefined) row[field] = values[i];
      });
      return row;
    }),
  ) as Row[];
}
