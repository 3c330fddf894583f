import { describe, expect, test } from "vitest";
import {
  BRAZIL_UFS,
  formatCnpj,
  formatCpf,
  formatPhone,
  isBrazilUf,
  isValidCnpj,
  isValidCpf,
  normalizeCnpj,
  normalizeCpf,
  normalizePhone,
  onlyDigits,
} from "~/lib/documents";

test("onlyDigits", () => {
  expect(onlyDigits("529.982.247-25")).toBe("52998224725");
  expect(onlyDigits("(11) 98765-4321")).toBe("11987654321");
  expect(onlyDigits("abc")).toBe("");
  expect(onlyDigits(null)).toBe("");
  expect(onlyDigits(undefined)).toBe("");
});

describe("CPF", () => {
  test.each(["529.982.247-25", "52998224725", "111.444.777-35", "123.456.789-09", " 529 982 247 25 "])(
    "valid %j",
    (cpf) => {
      expect(isValidCpf(cpf)).toBe(true);
    },
  );

  test.each([
    "529.982.247-24", // wrong second check digit
    "529.982.247-15", // wrong first check digit
    "123.456.789-00",
    "111.111.111-11", // passes the arithmetic, but repeated digits are not issued
    "000.000.000-00",
    "999.999.999-99",
    "5299822472", // 10 digits
    "529982247250", // 12 digits
    "529.982.247-2X",
    "CPF 52998224725",
    "",
  ])("invalid %j", (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  test("null and undefined are not valid", () => {
    expect(isValidCpf(null)).toBe(false);
    expect(isValidCpf(undefined)).toBe(false);
  });

  test("normalizeCpf keeps the 11 digits", () => {
    expect(normalizeCpf("529.982.247-25")).toBe("52998224725");
    expect(normalizeCpf("5299822472")).toBeNull();
  });

  test("formatCpf", () => {
    expect(formatCpf("52998224725")).toBe("529.982.247-25");
    expect(formatCpf("529.982.247-25")).toBe("529.982.247-25");
    expect(formatCpf(" 123 ")).toBe("123");
    expect(formatCpf(null)).toBe("");
    expect(formatCpf("")).toBe("");
  });
});

describe("CNPJ", () => {
  test.each([
    "11.222.333/0001-81",
    "11222333000181",
    "11.444.777/0001-61",
    // Alphanumeric CNPJ (from July 2026), the Receita Federal's own example.
    "12.ABC.345/01DE-35",
    "12abc34501de35",
  ])("valid %j", (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  test.each([
    "11.222.333/0001-82",
    "11.222.333/0001-91",
    "12.ABC.345/01DE-36",
    "00.000.000/0000-00",
    "11.111.111/1111-11",
    "1122233300018", // 13 digits
    "112223330001811", // 15 digits
    "11.222.333/0001-8A", // check digits are always numeric
    "",
  ])("invalid %j", (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  test("normalizeCnpj upper-cases and strips punctuation", () => {
    expect(normalizeCnpj("12.abc.345/01de-35")).toBe("12ABC34501DE35");
    expect(normalizeCnpj("11.222.333/0001-81")).toBe("11222333000181");
    expect(normalizeCnpj("11#222")).toBeNull();
  });

  test("formatCnpj", () => {
    expect(formatCnpj("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatCnpj("12abc34501de35")).toBe("12.ABC.345/01DE-35");
    expect(formatCnpj("123")).toBe("123");
    expect(formatCnpj(undefined)).toBe("");
  });
});

describe("phones", () => {
  test("formatPhone for mobiles and landlines", () => {
    expect(formatPhone("11987654321")).toBe("(11) 98765-4321");
    expect(formatPhone("1134567890")).toBe("(11) 3456-7890");
    expect(formatPhone("(11) 98765-4321")).toBe("(11) 98765-4321");
    expect(formatPhone("+55 11 98765-4321")).toBe("(11) 98765-4321");
    expect(formatPhone("551134567890")).toBe("(11) 3456-7890");
  });

  test("formatPhone leaves other values as typed", () => {
    expect(formatPhone(" 12345 ")).toBe("12345");
    expect(formatPhone("+1 415 555 0100")).toBe("+1 415 555 0100");
    expect(formatPhone(null)).toBe("");
  });

  test("normalizePhone", () => {
    expect(normalizePhone("(11) 98765-4321")).toBe("11987654321");
    expect(normalizePhone("(11) 3456-7890")).toBe("1134567890");
    expect(normalizePhone("+55 (21) 2345-6789")).toBe("2123456789");
    expect(normalizePhone("(01) 98765-4321")).toBeNull(); // no area code starts with 0
    expect(normalizePhone("(11) 88765-4321")).toBeNull(); // 11-digit numbers are mobiles: 9 first
    expect(normalizePhone("98765-4321")).toBeNull(); // no area code
    expect(normalizePhone("11 9876x-4321")).toBeNull();
  });
});

describe("UFs", () => {
  test("the 27 federative units", () => {
    expect(BRAZIL_UFS).toHaveLength(27);
    expect(new Set(BRAZIL_UFS).size).toBe(27);
    expect(BRAZIL_UFS).toContain("SP");
    expect(BRAZIL_UFS).toContain("DF");
    expect(BRAZIL_UFS).toContain("TO");
    for (const uf of BRAZIL_UFS) expect(uf).toMatch(/^[A-Z]{2}$/);
  });

  test("isBrazilUf", () => {
    expect(isBrazilUf("SP")).toBe(true);
    expect(isBrazilUf("sp")).toBe(false);
    expect(isBrazilUf("XX")).toBe(false);
    expect(isBrazilUf(null)).toBe(false);
  });
});
