import { describe, expect, test } from "vitest";
import { centsToReaisInput, formatBRL, formatPercent, MAX_CENTS, parseReaisToCents } from "~/lib/money";

describe("formatBRL", () => {
  test.each([
    [123456, "R$ 1.234,56"],
    [0, "R$ 0,00"],
    [5, "R$ 0,05"],
    [100, "R$ 1,00"],
    [123456789, "R$ 1.234.567,89"],
    [-123456, "-R$ 1.234,56"],
  ])("%i cents → %s", (cents, expected) => {
    expect(formatBRL(cents)).toBe(expected);
  });

  test("uses a plain space, not U+00A0", () => {
    expect(formatBRL(100)).not.toContain("\u00a0");
  });

  test("missing or not a number → '-'", () => {
    expect(formatBRL(null)).toBe("-");
    expect(formatBRL(undefined)).toBe("-");
    expect(formatBRL(Number.NaN)).toBe("-");
  });
});

describe("centsToReaisInput", () => {
  test.each([
    [123456, "1234,56"],
    [5, "0,05"],
    [100, "1,00"],
    [0, "0,00"],
    [-5, "-0,05"],
    [-123456, "-1234,56"],
  ])("%i → %s", (cents, expected) => {
    expect(centsToReaisInput(cents)).toBe(expected);
  });

  test("missing → ''", () => {
    expect(centsToReaisInput(null)).toBe("");
    expect(centsToReaisInput(undefined)).toBe("");
  });

  test("round-trips through parseReaisToCents", () => {
    for (const cents of [0, 1, 10, 99, 100, 101, 123456, 999999, 100000000]) {
      expect(parseReaisToCents(centsToReaisInput(cents))).toBe(cents);
    }
  });
});

describe("parseReaisToCents", () => {
  test.each([
    ["1234,56", 123456],
    ["1.234,56", 123456],
    ["R$ 1.234,56", 123456],
    ["R$\u00a01.234,56", 123456],
    ["r$1234,56", 123456],
    ["1234.56", 123456],
    ["1234", 123400],
    ["1.234", 123400],
    ["1.234.567,89", 123456789],
    ["0,1", 10],
    ["0,10", 10],
    ["0.10", 10],
    ["1.5", 150],
    [",5", 50],
    ["  42  ", 4200],
    ["007,00", 700],
    ["-10,00", -1000],
    ["R$ -10,00", -1000],
    ["-R$ 10,00", -1000],
    ["-0,00", 0],
    ["999999999999,99", MAX_CENTS],
  ])("%j → %i", (input, expected) => {
    expect(parseReaisToCents(input)).toBe(expected);
  });

  test("is exact where float maths is not (0,29 * 100 = 28.999…)", () => {
    expect(0.29 * 100).not.toBe(29);
    expect(parseReaisToCents("0,29")).toBe(29);
    expect(parseReaisToCents("1.005,57")).toBe(100557);
    expect(parseReaisToCents("4,35")).toBe(435);
  });

  test("empty or blank → null", () => {
    expect(parseReaisToCents("")).toBeNull();
    expect(parseReaisToCents("   ")).toBeNull();
    expect(parseReaisToCents(null)).toBeNull();
    expect(parseReaisToCents(undefined)).toBeNull();
  });

  test.each([
    "abc",
    "R$",
    "-",
    "1,234",
    "1,2,3",
    "1.2.3",
    "12.34.567",
    "1.234,567",
    "1.23456",
    "1,",
    "1e3",
    "0x10",
    "--1",
    "1-",
    "12a",
    "Infinity",
    "NaN",
    "1000000000000",
  ])("invalid %j → undefined", (input) => {
    expect(parseReaisToCents(input)).toBeUndefined();
  });
});

describe("formatPercent", () => {
  test("whole percentages by default", () => {
    expect(formatPercent(0.12)).toBe("12%");
    expect(formatPercent(1)).toBe("100%");
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(0.125)).toBe("13%");
  });

  test("with decimal digits, decimal comma", () => {
    expect(formatPercent(0.125, 1)).toBe("12,5%");
    expect(formatPercent(0.952, 1)).toBe("95,2%");
    expect(formatPercent(0.5, 2)).toBe("50,00%");
  });

  test("missing → '-'", () => {
    expect(formatPercent(null)).toBe("-");
    expect(formatPercent(undefined)).toBe("-");
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe("-");
  });
});
