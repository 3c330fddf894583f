// app/lib/packed-rows.ts: rows sent as arrays of values under one list of field names.
import { describe, expect, it } from "vitest";
import { type FieldList, type PackedRows, packRows, unpackRows } from "~/lib/packed-rows";

interface Card {
  id: number;
  name: string;
  hospital: string | null;
  ans?: { tone: string };
}
const FIELDS = { id: true, name: true, hospital: true, ans: true } satisfies FieldList<Card>;

describe("packed rows", () => {
  const cards: Card[] = [
    { id: 1, name: "Ana", hospital: null },
    { id: 2, name: "Ana", hospital: "Hospital Santa Aurora", ans: { tone: "overdue" } },
  ];

  it("sends each row's values under the field names once", () => {
    const packed = packRows(cards, FIELDS);
    expect(packed).toEqual({
      fields: ["id", "name", "hospital", "ans"],
      values: [
        [1, "Ana", null, undefined],
        [2, "Ana", "Hospital Santa Aurora", { tone: "overdue" }],
      ],
    });
  });

  it("gives the server the very rows it packed, and the browser equal rows, made once per packed value", () => {
    const packed = packRows(cards, FIELDS);
    expect(unpackRows(packed)).toBe(cards);
    // What the browser decodes is a copy of the packed value: its rows are rebuilt, once.
    const received = structuredClone(packed) as PackedRows<Card>;
    const rows = unpackRows(received);
    expect(rows).toEqual(cards);
    // A field sent as undefined is left out, as it was in the row.
    expect("ans" in rows[0]).toBe(false);
    expect(unpackRows(received)).toBe(rows);
  });

  it("shares one array of field names among the packs of one field list, and only of that list", () => {
    const first = packRows(cards.slice(0, 1), FIELDS);
    const second = packRows(cards.slice(1), FIELDS);
    expect(second.fields).toBe(first.fields);
    const other = packRows(cards, { ...FIELDS });
    expect(other.fields).not.toBe(first.fields);
    expect(other.fields).toEqual(first.fields);
  });
});
