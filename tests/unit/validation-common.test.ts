import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  clinicDateTime,
  isoDate,
  optionalClinicDateTime,
  optionalCnpj,
  optionalCpf,
  optionalEmail,
  optionalIsoDate,
  optionalPhone,
  optionalText,
  optionalUf,
  reaisToCents,
  requiredText,
} from "~/validation/common";

/** The messages of a failed parse, or the parsed value. */
function run<T>(schema: z.ZodType<T>, input: unknown): { value: T } | { errors: string[] } {
  const result = schema.safeParse(input);
  return result.success ? { value: result.data } : { errors: result.error.issues.map((i) => i.message) };
}

/** Parses like an action does: url-encoded form data through Conform. */
function submit<S extends z.ZodType>(schema: S, fields: Record<string, string>) {
  return parseWithZod(new URLSearchParams(fields), { schema });
}

describe("requiredText", () => {
  const schema = requiredText("Informe o nome", 10);

  test("trims", () => {
    expect(run(schema, "  Ana  ")).toEqual({ value: "Ana" });
  });

  test.each([undefined, null, "", "   "])("%j → the given message", (input) => {
    expect(run(schema, input)).toEqual({ errors: ["Informe o nome"] });
  });

  test("too long", () => {
    expect(run(schema, "12345678901")).toEqual({ errors: ["Use no máximo 10 caracteres"] });
    expect(run(schema, " 1234567890 ")).toEqual({ value: "1234567890" });
  });

  test("defaults to 'Campo obrigatório'", () => {
    expect(run(requiredText(), "")).toEqual({ errors: ["Campo obrigatório"] });
  });
});

describe("optionalText", () => {
  test("blank → null, text trimmed, limit enforced", () => {
    const schema = optionalText(5);
    expect(run(schema, undefined)).toEqual({ value: null });
    expect(run(schema, null)).toEqual({ value: null });
    expect(run(schema, "")).toEqual({ value: null });
    expect(run(schema, "   ")).toEqual({ value: null });
    expect(run(schema, " abc ")).toEqual({ value: "abc" });
    expect(run(schema, "abcdef")).toEqual({ errors: ["Use no máximo 5 caracteres"] });
  });
});

describe("optionalCpf", () => {
  const schema = optionalCpf();
  test("valid → 11 digits", () => {
    expect(run(schema, "529.982.247-25")).toEqual({ value: "52998224725" });
    expect(run(schema, "52998224725")).toEqual({ value: "52998224725" });
  });
  test("empty → null", () => {
    expect(run(schema, undefined)).toEqual({ value: null });
    expect(run(schema, "")).toEqual({ value: null });
    expect(run(schema, "  ")).toEqual({ value: null });
  });
  test.each(["529.982.247-24", "111.111.111-11", "123", "abc"])("%j → 'CPF inválido'", (input) => {
    expect(run(schema, input)).toEqual({ errors: ["CPF inválido"] });
  });
});

describe("optionalCnpj", () => {
  const schema = optionalCnpj();
  test("valid → 14 characters", () => {
    expect(run(schema, "11.222.333/0001-81")).toEqual({ value: "11222333000181" });
    expect(run(schema, "12.abc.345/01de-35")).toEqual({ value: "12ABC34501DE35" });
  });
  test("empty → null, invalid → 'CNPJ inválido'", () => {
    expect(run(schema, "")).toEqual({ value: null });
    expect(run(schema, "11.222.333/0001-82")).toEqual({ errors: ["CNPJ inválido"] });
  });
});

describe("optionalEmail", () => {
  const schema = optionalEmail();
  test("valid → trimmed", () => {
    expect(run(schema, " ana@clinica.com.br ")).toEqual({ value: "ana@clinica.com.br" });
  });
  test("empty → null", () => {
    expect(run(schema, undefined)).toEqual({ value: null });
    expect(run(schema, "")).toEqual({ value: null });
  });
  test.each(["ana", "ana@", "@clinica.com", "ana@clinica", "ana @clinica.com"])("%j → 'E-mail inválido'", (input) => {
    expect(run(schema, input)).toEqual({ errors: ["E-mail inválido"] });
  });
});

describe("optionalPhone", () => {
  const schema = optionalPhone();
  test("valid → digits", () => {
    expect(run(schema, "(11) 98765-4321")).toEqual({ value: "11987654321" });
    expect(run(schema, "(11) 3456-7890")).toEqual({ value: "1134567890" });
  });
  test("empty → null, invalid → 'Telefone inválido'", () => {
    expect(run(schema, "")).toEqual({ value: null });
    expect(run(schema, "12345")).toEqual({ errors: ["Telefone inválido"] });
    expect(run(schema, "(11) 9876-543a")).toEqual({ errors: ["Telefone inválido"] });
  });
});

describe("optionalUf", () => {
  test("upper-cases; unknown → 'UF inválida'", () => {
    const schema = optionalUf();
    expect(run(schema, "sp")).toEqual({ value: "SP" });
    expect(run(schema, "")).toEqual({ value: null });
    expect(run(schema, "XX")).toEqual({ errors: ["UF inválida"] });
    expect(run(schema, "SPX")).toEqual({ errors: ["UF inválida"] });
  });
});

describe("reaisToCents", () => {
  test("required by default: reais → integer cents", () => {
    const schema = reaisToCents();
    expect(run(schema, "1.234,56")).toEqual({ value: 123456 });
    expect(run(schema, "R$ 0,29")).toEqual({ value: 29 });
    expect(run(schema, "1234.56")).toEqual({ value: 123456 });
    expect(run(schema, "0")).toEqual({ value: 0 });
  });

  test.each([undefined, null, "", "  "])("required: %j → 'Informe um valor'", (input) => {
    expect(run(reaisToCents(), input)).toEqual({ errors: ["Informe um valor"] });
  });

  test.each(["abc", "1,234", "1.2.3", "12a"])("%j → 'Valor inválido'", (input) => {
    expect(run(reaisToCents(), input)).toEqual({ errors: ["Valor inválido"] });
  });

  test("optional: empty → null", () => {
    const schema = reaisToCents({ required: false });
    expect(run(schema, "")).toEqual({ value: null });
    expect(run(schema, undefined)).toEqual({ value: null });
    expect(run(schema, "10")).toEqual({ value: 1000 });
    expect(run(schema, "x")).toEqual({ errors: ["Valor inválido"] });
  });

  test("no negative amounts unless min allows them", () => {
    expect(run(reaisToCents(), "-1,00")).toEqual({ errors: ["O valor mínimo é R$ 0,00"] });
    expect(run(reaisToCents({ min: -100_000 }), "-1,00")).toEqual({ value: -100 });
    expect(run(reaisToCents({ min: 1 }), "0,00")).toEqual({ errors: ["O valor mínimo é R$ 0,01"] });
    expect(run(reaisToCents({ max: 100_00 }), "100,01")).toEqual({ errors: ["O valor máximo é R$ 100,00"] });
  });
});

describe("clinicDateTime", () => {
  test("datetime-local value → UTC instant of São Paulo wall time", () => {
    const result = clinicDateTime().safeParse("2024-01-15T22:30");
    expect(result.success && result.data.toISOString()).toBe("2024-01-16T01:30:00.000Z");
  });

  test("missing → 'Informe a data e a hora', invalid → 'Data e hora inválidas'", () => {
    expect(run(clinicDateTime(), undefined)).toEqual({ errors: ["Informe a data e a hora"] });
    expect(run(clinicDateTime(), "")).toEqual({ errors: ["Informe a data e a hora"] });
    expect(run(clinicDateTime(), "2024-02-30T10:00")).toEqual({ errors: ["Data e hora inválidas"] });
    expect(run(clinicDateTime(), "amanhã")).toEqual({ errors: ["Data e hora inválidas"] });
    expect(run(clinicDateTime({ required: "Informe o início" }), "")).toEqual({ errors: ["Informe o início"] });
  });

  test("optional variant: empty → null", () => {
    expect(run(optionalClinicDateTime(), "")).toEqual({ value: null });
    expect(run(optionalClinicDateTime(), "x")).toEqual({ errors: ["Data e hora inválidas"] });
  });
});

describe("isoDate", () => {
  test("real calendar dates only", () => {
    expect(run(isoDate(), "2024-02-29")).toEqual({ value: "2024-02-29" });
    expect(run(isoDate(), "29/02/2024")).toEqual({ value: "2024-02-29" });
    expect(run(isoDate(), "2024-02-30")).toEqual({ errors: ["Data inválida"] });
    expect(run(isoDate(), "2023-02-29")).toEqual({ errors: ["Data inválida"] });
    expect(run(isoDate(), "31/04/2024")).toEqual({ errors: ["Data inválida"] });
    expect(run(isoDate(), "2024-01-15T10:00")).toEqual({ errors: ["Data inválida"] });
    expect(run(isoDate(), "")).toEqual({ errors: ["Informe a data"] });
    expect(run(isoDate(), undefined)).toEqual({ errors: ["Informe a data"] });
  });

  test("optional variant: empty → null", () => {
    expect(run(optionalIsoDate(), "")).toEqual({ value: null });
    expect(run(optionalIsoDate(), undefined)).toEqual({ value: null });
    expect(run(optionalIsoDate(), "2024-01-15")).toEqual({ value: "2024-01-15" });
    expect(run(optionalIsoDate(), "2024-13-01")).toEqual({ errors: ["Data inválida"] });
  });
});

describe("through Conform's parseWithZod, as an action parses a form", () => {
  const schema = z.object({
    name: requiredText("Informe o nome", 100),
    cpf: optionalCpf(),
    email: optionalEmail(),
    phone: optionalPhone(),
    notes: optionalText(500),
    amount: reaisToCents(),
    discount: reaisToCents({ required: false }),
    start: clinicDateTime(),
    dueDate: optionalIsoDate(),
    birthDate: isoDate(),
  });

  test("empty optional fields become null; values are converted", () => {
    const submission = submit(schema, {
      name: " Maria da Silva ",
      cpf: "",
      email: "",
      phone: "",
      notes: "",
      amount: "1.500,00",
      discount: "",
      start: "2024-03-10T08:15",
      dueDate: "",
      birthDate: "1980-05-20",
    });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toEqual({
      name: "Maria da Silva",
      cpf: null,
      email: null,
      phone: null,
      notes: null,
      amount: 150000,
      discount: null,
      start: new Date("2024-03-10T11:15:00.000Z"),
      dueDate: null,
      birthDate: "1980-05-20",
    });
  });

  test("missing fields are the same as empty ones", () => {
    const submission = submit(schema, { name: "Ana", amount: "10", start: "2024-03-10T08:15", birthDate: "2000-01-01" });
    expect(submission.status).toBe("success");
    if (submission.status === "success") expect(submission.value.cpf).toBeNull();
  });

  test("errors are reported per field in Portuguese", () => {
    const submission = submit(schema, {
      name: "",
      cpf: "111.111.111-11",
      email: "x@",
      phone: "123",
      amount: "",
      discount: "abc",
      start: "2024-02-30T10:00",
      dueDate: "2024-02-30",
      birthDate: "",
    });
    expect(submission.status).toBe("error");
    expect(submission.status !== "success" && submission.error).toEqual({
      name: ["Informe o nome"],
      cpf: ["CPF inválido"],
      email: ["E-mail inválido"],
      phone: ["Telefone inválido"],
      amount: ["Informe um valor"],
      discount: ["Valor inválido"],
      start: ["Data e hora inválidas"],
      dueDate: ["Data inválida"],
      birthDate: ["Informe a data"],
    });
  });

  test("required helpers mark the field required for Conform; optional ones do not", () => {
    const constraint = getZodConstraint(schema);
    expect(constraint.name?.required).toBe(true);
    expect(constraint.notes?.required).toBe(false);
    expect(constraint.cpf?.required).toBe(false);
  });
});
